import Foundation
import Testing

/// The environment variable that turns off the tests needing private compositors.
public let skipIntegrationVariable = "DAMASK_SKIP_INTEGRATION"

extension Trait where Self == ConditionTrait {
    /// Marks a test (or suite) that starts private compositors or X servers: it runs in
    /// every plain `swift test`, and is skipped — with this reason printed — only when
    /// `DAMASK_SKIP_INTEGRATION` is set, which `scripts/test` does for its sanitizer passes
    /// (instrumented clients against real compositors are slow and test nothing the plain
    /// pass does not; the compositor-free tests of the same targets still run there).
    ///
    /// Integration tests also carry ``ExclusiveTrait/exclusive``.
    public static var integration: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment[skipIntegrationVariable] == nil,
            "needs private compositors; \(skipIntegrationVariable) is set (a sanitizer pass)")
    }
}
