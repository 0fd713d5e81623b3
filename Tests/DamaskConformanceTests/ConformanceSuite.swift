import DamaskTestSupport
import Testing

/// The root of the UIKit conformance checks: written against DamaskViews' public API only
/// (no `@testable`), as a program porting UIKit code sees it. Serialized and exclusive,
/// because windows run their passes on the main queue and some counters are process-wide.
@Suite("UIKit conformance (public API only)", .serialized, .exclusive, .timeLimit(.minutes(5))) @MainActor
struct Conformance {}
