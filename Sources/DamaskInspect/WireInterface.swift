/// A Wayland interface: its name, the highest version the tables know, and its messages
/// indexed by opcode.
public struct WireInterface: Sendable {
    public let name: String
    public let version: Int
    public let requests: [WireMessage]
    public let events: [WireMessage]

    public init(name: String, version: Int, requests: [WireMessage], events: [WireMessage]) {
        self.name = name
        self.version = version
        self.requests = requests
        self.events = events
    }

    /// Every interface the inspector can decode, by name (core protocol plus protocols/).
    public static let known: [String: WireInterface] = Dictionary(
        ProtocolTables.interfaces.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
