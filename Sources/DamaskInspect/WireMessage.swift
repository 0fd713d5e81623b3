/// One request or event of an interface: its name and argument types, from the protocol XML.
public struct WireMessage: Sendable {
    public let name: String
    public let arguments: [WireArgumentType]
    public let argumentNames: [String]
    /// The interface version that introduced the message.
    public let since: Int
    /// Whether the message destroys the object it is sent to.
    public let isDestructor: Bool
    /// How many file descriptors travel with the message.
    public let fdCount: Int

    public init(name: String, arguments: [WireArgumentType], argumentNames: [String], since: Int, isDestructor: Bool) {
        self.name = name
        self.arguments = arguments
        self.argumentNames = argumentNames
        self.since = since
        self.isDestructor = isDestructor
        fdCount = arguments.filter { $0 == .fd }.count
    }
}
