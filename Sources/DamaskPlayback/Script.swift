/// A parsed and validated input script.
public struct Script: Sendable {
    /// The file name used in messages.
    public var file: String
    /// The directory relative paths (`screenshot`, `expect image`) are resolved against; nil
    /// for the current directory.
    public var baseDirectory: String?
    /// The statements in order.
    public var statements: [ScriptStatement]
    /// The reference images of `expect image`, decoded while parsing, by resolved path.
    public var referenceImages: [String: DecodedImage] = [:]

    /// Creates a script.
    public init(file: String, baseDirectory: String? = nil, statements: [ScriptStatement]) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.statements = statements
    }

    /// The commands without their locations.
    public var commands: [ScriptCommand] { statements.map(\.command) }

    /// `path` if absolute, otherwise `path` inside `baseDirectory`.
    public func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), let baseDirectory, !baseDirectory.isEmpty else { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }
}
