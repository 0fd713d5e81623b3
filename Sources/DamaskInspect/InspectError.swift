/// Why damask-inspect could not run (exit status 2).
public enum InspectError: Error, Sendable, CustomStringConvertible {
    case usage(String)
    case connection(String)
    case output(String)

    public var description: String {
        switch self {
        case .usage(let text): return "usage: \(text)"
        case .connection(let text): return "connection: \(text)"
        case .output(let text): return text
        }
    }
}
