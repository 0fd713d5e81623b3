/// The type of one argument of a Wayland message, as the protocol XML declares it.
public enum WireArgumentType: Sendable, Equatable {
    case int
    case uint
    case fixed
    case string(nullable: Bool)
    /// An object id; `interface` is nil when any interface is allowed.
    case object(String?, nullable: Bool)
    /// A new object; with a nil interface the wire carries the interface name and version
    /// before the id (as `wl_registry.bind` does).
    case newID(String?)
    case array
    /// A file descriptor: no bytes on the wire, one fd in the ancillary data.
    case fd
}
