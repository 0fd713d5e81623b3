import Foundation

/// Upper bounds on wall-clock time, for the few tests whose behaviour is a wall-clock
/// promise ("the program ends within a second of losing its compositor").
///
/// The plain pass checks the promise as stated. A sanitizer pass (`DAMASK_SANITIZER`, set
/// by `scripts/test`) runs the same code several times slower — ASan about 2–3×, TSan 5–15×
/// — so there the bound is the promise times ``slowdown``: still a bound that a hang or a
/// missed wake-up fails, not one that a sanitizer's overhead fails.
public enum WallClockBound {
    /// How many times slower the current pass runs the code under test: 1 in the plain
    /// pass, 4 under ASan, 15 under TSan.
    public static var slowdown: Double {
        switch ProcessInfo.processInfo.environment["DAMASK_SANITIZER"] {
        case "address": 4
        case "thread": 15
        default: 1
        }
    }

    /// `seconds` scaled for the current pass (see ``slowdown``).
    public static func seconds(_ seconds: Double) -> Double {
        seconds * slowdown
    }
}
