import Foundation
import Synchronization

/// Unique parts for the names of a test process's temporary files: a counter, so that two
/// tests of one process never pick the same name and every run picks the same names (with
/// the process id beside it, unique across processes too). Deterministic, unlike random
/// names.
public enum TemporaryName {
    private static let counter = Mutex(0)

    /// The next number of this process ("1", "2", …).
    public static func next() -> String {
        let value = counter.withLock { value -> Int in
            value += 1
            return value
        }
        return "\(value)"
    }
}
