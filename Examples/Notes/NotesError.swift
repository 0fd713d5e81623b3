/// Why `damask-notes` stops before or while running.
enum NotesError: Error, CustomStringConvertible {
    /// A bad command line or script: the message names what and where. Exit status 2.
    case usage(String)

    var description: String {
        switch self {
        case .usage(let message): message
        }
    }
}
