/// Decodes and encodes Wayland wire messages (host byte order, 32-bit words) against the
/// generated interface tables.
///
/// Pure functions over byte arrays: no sockets, no ownership of file descriptors (a decoded
/// `.fd` value is a descriptor the caller's connection owns).
public enum WireCodec {
    /// The largest message the inspector accepts (the header's size field is 16 bits).
    public static let maximumMessageSize = 65_532
    /// First id of the compositor's object range.
    public static let serverIDBase: UInt32 = 0xff00_0000

    /// The 8-byte header of a message.
    public struct Header: Sendable, Equatable {
        public let objectID: UInt32
        public let opcode: Int
        public let size: Int
    }

    /// Reads a header at `offset`, or nil when fewer than 8 bytes are there.
    public static func header(in bytes: [UInt8], at offset: Int) -> Header? {
        guard bytes.count - offset >= 8 else { return nil }
        let object = word(bytes, offset)
        let second = word(bytes, offset + 4)
        return Header(objectID: object, opcode: Int(second & 0xffff), size: Int(second >> 16))
    }

    /// Decodes the arguments of `message` from `body` (the bytes after the header), taking
    /// file descriptors from the front of `fds` in order.
    ///
    /// - Throws: `WireError` naming the argument that is short, malformed or missing its fd.
    public static func decode(
        _ body: ArraySlice<UInt8>, as message: WireMessage, objectID: UInt32, interface: String,
        fds: inout ArraySlice<Int32>
    ) throws -> [WireValue] {
        var values: [WireValue] = []
        values.reserveCapacity(message.arguments.count)
        var p = body.startIndex
        let end = body.endIndex
        let what = "\(interface)@\(objectID).\(message.name)"
        func take32(_ argument: Int) throws -> UInt32 {
            guard end - p >= 4 else {
                throw WireError(.invalidMethod, objectID: objectID, "\(what): message too short for argument \(argumentName(message, argument))")
            }
            let value = word(body, p)
            p += 4
            return value
        }
        func takeBytes(_ count: Int, _ argument: Int) throws -> ArraySlice<UInt8> {
            let padded = (count + 3) & ~3
            guard count >= 0, end - p >= padded else {
                throw WireError(.invalidMethod, objectID: objectID, "\(what): argument \(argumentName(message, argument)) runs past the end of the message")
            }
            let slice = body[p..<(p + count)]
            p += padded
            return slice
        }
        func takeString(_ argument: Int, nullable: Bool) throws -> String? {
            let length = Int(try take32(argument))
            if length == 0 {
                guard nullable else {
                    throw WireError(.invalidMethod, objectID: objectID, "\(what): null string for non-nullable argument \(argumentName(message, argument))")
                }
                return nil
            }
            let bytes = try takeBytes(length, argument)
            guard bytes.last == 0 else {
                throw WireError(.invalidMethod, objectID: objectID, "\(what): string argument \(argumentName(message, argument)) is not NUL-terminated")
            }
            return String(decoding: bytes.dropLast(), as: UTF8.self)
        }
        for (index, argument) in message.arguments.enumerated() {
            switch argument {
            case .int: values.append(.int(Int32(bitPattern: try take32(index))))
            case .uint: values.append(.uint(try take32(index)))
            case .fixed: values.append(.fixed(Int32(bitPattern: try take32(index))))
            case .string(let nullable): values.append(.string(try takeString(index, nullable: nullable)))
            case .object(_, let nullable):
                let id = try take32(index)
                if id == 0 && !nullable {
                    throw WireError(.invalidMethod, objectID: objectID, "\(what): null object for non-nullable argument \(argumentName(message, argument: index))")
                }
                values.append(.object(id))
            case .newID(let name):
                if let name {
                    let id = try take32(index)
                    guard id != 0 else {
                        throw WireError(.invalidMethod, objectID: objectID, "\(what): new id 0 for argument \(argumentName(message, argument: index))")
                    }
                    values.append(.newID(id, interface: name, version: 0))
                } else {
                    guard let name = try takeString(index, nullable: false) else {
                        throw WireError(.invalidMethod, objectID: objectID, "\(what): no interface name")
                    }
                    let version = try take32(index)
                    let id = try take32(index)
                    guard id != 0 else {
                        throw WireError(.invalidMethod, objectID: objectID, "\(what): new id 0 for argument \(argumentName(message, argument: index))")
                    }
                    values.append(.newID(id, interface: name, version: version))
                }
            case .array:
                let length = Int(try take32(index))
                values.append(.array(Array(try takeBytes(length, index))))
            case .fd:
                guard let fd = fds.popFirst() else {
                    throw WireError(.invalidMethod, objectID: objectID, "\(what): file descriptor expected for argument \(argumentName(message, argument: index))")
                }
                values.append(.fd(fd))
            }
        }
        guard p == end else {
            throw WireError(.invalidMethod, objectID: objectID, "\(what): \(end - p) bytes left over after the last argument")
        }
        return values
    }

    /// Encodes a message without its file descriptors (they travel separately).
    public static func encode(objectID: UInt32, opcode: Int, _ values: [WireValue]) -> [UInt8] {
        var body: [UInt8] = []
        func put(_ value: UInt32) { withUnsafeBytes(of: value) { body.append(contentsOf: $0) } }
        func putBytes(_ bytes: [UInt8]) {
            put(UInt32(bytes.count))
            body.append(contentsOf: bytes)
            while body.count % 4 != 0 { body.append(0) }
        }
        for value in values {
            switch value {
            case .int(let v): put(UInt32(bitPattern: v))
            case .uint(let v): put(v)
            case .fixed(let v): put(UInt32(bitPattern: v))
            case .object(let v): put(v)
            case .string(let s):
                if let s { putBytes(Array(s.utf8) + [0]) } else { put(0) }
            case .newID(let id, let interface, let version):
                if let interface, version != 0 {
                    putBytes(Array(interface.utf8) + [0])
                    put(version)
                }
                put(id)
            case .array(let bytes): putBytes(bytes)
            case .fd: break
            }
        }
        var message: [UInt8] = []
        message.reserveCapacity(body.count + 8)
        withUnsafeBytes(of: objectID) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(body.count + 8) << 16 | UInt32(opcode & 0xffff)) { message.append(contentsOf: $0) }
        message.append(contentsOf: body)
        return message
    }

    /// A short readable form of a decoded message, for error messages and logs.
    public static func describe(_ interface: String, _ objectID: UInt32, _ message: WireMessage, _ values: [WireValue]) -> String {
        let arguments = values.map { value -> String in
            switch value {
            case .int(let v): return "\(v)"
            case .uint(let v): return "\(v)"
            case .fixed(let v): return "\(Double(v) / 256)"
            case .string(let s): return s.map { "\"\($0)\"" } ?? "nil"
            case .object(let v): return v == 0 ? "nil" : "@\(v)"
            case .newID(let v, let i, _): return "new \(i ?? "?")@\(v)"
            case .array(let a): return "array[\(a.count)]"
            case .fd(let v): return "fd \(v)"
            }
        }
        return "\(interface)@\(objectID).\(message.name)(\(arguments.joined(separator: ", ")))"
    }

    static func word<C: RandomAccessCollection>(_ bytes: C, _ offset: C.Index) -> UInt32 where C.Element == UInt8, C.Index == Int {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private static func argumentName(_ message: WireMessage, _ index: Int) -> String {
        index < message.argumentNames.count ? "'\(message.argumentNames[index])'" : "#\(index)"
    }

    private static func argumentName(_ message: WireMessage, argument index: Int) -> String {
        argumentName(message, index)
    }
}
