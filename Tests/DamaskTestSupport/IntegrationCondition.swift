import Foundation
import Testing

/// The environment variable that turns off the tests needing private compositors.
public let skipIntegrationVariable = "DAMASK_SKIP_INTEGRATION"

extension Trait where Self == ConditionTrait {
    /// Marks a test (or suite) that starts private compositors or X servers: it runs in
    /// every plain `swift test`, and is skipped — with this reason printed — only when
    /// `DAMASK_SKIP_INTEGRATION` is set. `scripts/test` sets it for the first section of
    /// each sanitizer pass (the compositor-free tests); its second section runs the suites
    /// marked `run` in `scripts/sanitizer-suites.txt` instrumented against real
    /// compositors, and that file gives the reason for each suite it leaves out.
    ///
    /// Integration tests also carry ``ExclusiveTrait/exclusive``.
    public static var integration: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment[skipIntegrationVariable] == nil,
            "needs private compositors; \(skipIntegrationVariable) is set")
    }
}
