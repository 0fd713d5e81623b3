/// One decoded argument of a Wayland message.
///
/// File descriptors are not owned by the value: the connection that received them owns them
/// until they are forwarded (see `WireConnection`).
public enum WireValue: Sendable, Equatable {
    case int(Int32)
    case uint(UInt32)
    /// A 24.8 fixed-point number, raw.
    case fixed(Int32)
    case string(String?)
    case object(UInt32)
    case newID(UInt32, interface: String?, version: UInt32)
    case array([UInt8])
    case fd(Int32)

    /// The value as a signed integer, for int, uint, fixed (integer part) and object ids.
    public var integer: Int {
        switch self {
        case .int(let v): return Int(v)
        case .uint(let v): return Int(v)
        case .fixed(let v): return Int(v >> 8)
        case .object(let v): return Int(v)
        case .newID(let v, _, _): return Int(v)
        case .fd(let v): return Int(v)
        case .string, .array: return 0
        }
    }
}
