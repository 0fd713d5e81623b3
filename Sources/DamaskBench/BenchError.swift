/// Why the bench could not run.
enum BenchError: Error, CustomStringConvertible {
    /// A bad command line; exit status 2.
    case usage(String)
    /// A helper process (Weston, a client) failed.
    case helper(String)

    /// The message printed after `damask-bench: `.
    var description: String {
        switch self {
        case .usage(let message): return message
        case .helper(let message): return message
        }
    }
}
