/// Errors that end the demo before or while it runs.
enum DemoError: Error, CustomStringConvertible {
    /// A bad command line; exit status 2.
    case usage(String)
    /// Something the demo needs could not be done; exit status 1.
    case failure(String)

    var description: String {
        switch self {
        case .usage(let message), .failure(let message): return message
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .usage: return 2
        case .failure: return 1
        }
    }
}
