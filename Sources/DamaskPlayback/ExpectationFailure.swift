/// An `expect` command whose check failed during playback.
///
/// Its `description` names the line, what was expected and what was found, and for images
/// where the actual and difference PNGs were written:
/// `demo.dsc:12:1: expectation failed: expect pixel 10 10 #ff0000: expected #ff0000 ±0,
/// actual #ffffff`.
public struct ExpectationFailure: Sendable, CustomStringConvertible {
    /// The `expect` command's location.
    public var location: SourceLocation
    /// The command, in canonical form.
    public var command: String
    /// What the script expected.
    public var expected: String
    /// What the player found.
    public var actual: String
    /// For `expect image`: the PNG of what was presented.
    public var actualImagePath: String?
    /// For `expect image`: the PNG marking the differing pixels.
    public var differenceImagePath: String?

    /// Creates a failure.
    public init(
        location: SourceLocation, command: String, expected: String, actual: String,
        actualImagePath: String? = nil, differenceImagePath: String? = nil
    ) {
        self.location = location
        self.command = command
        self.expected = expected
        self.actual = actual
        self.actualImagePath = actualImagePath
        self.differenceImagePath = differenceImagePath
    }

    /// One line: location, command, expected, actual and image paths.
    public var description: String {
        var text = "\(location): expectation failed: \(command): expected \(expected), actual \(actual)"
        if let actualImagePath { text += "; actual image: \(actualImagePath)" }
        if let differenceImagePath { text += "; difference image: \(differenceImagePath)" }
        return text
    }
}
