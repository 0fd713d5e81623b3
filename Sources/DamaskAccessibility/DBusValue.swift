import CDBus

/// One D-Bus value with its type: what a message's arguments are read into and written
/// from. Only the types AT-SPI uses are here; a message carrying another type is read as
/// ``unsupported(_:)`` and answered with an error by whoever needed it.
enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array of values of one type, named by `element` (needed when the array is empty).
    indirect case array(element: String, [DBusValue])
    indirect case structure([DBusValue])
    indirect case dictEntry(DBusValue, DBusValue)
    indirect case variant(DBusValue)
    /// A type this reader does not decode (the D-Bus type code).
    case unsupported(Int32)

    /// The value's D-Bus signature.
    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        case .unsupported: "?"
        }
    }

    // MARK: Convenience readers

    var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    var int32Value: Int32? {
        switch self {
        case .int32(let v): v
        case .uint32(let v): Int32(truncatingIfNeeded: v)
        case .int16(let v): Int32(v)
        case .uint16(let v): Int32(v)
        case .byte(let v): Int32(v)
        case .variant(let inner): inner.int32Value
        default: nil
        }
    }

    var uint32Value: UInt32? { int32Value.map { UInt32(bitPattern: $0) } }

    var boolValue: Bool? {
        switch self {
        case .boolean(let v): v
        case .variant(let inner): inner.boolValue
        default: nil
        }
    }

    var doubleValue: Double? {
        switch self {
        case .double(let v): v
        case .variant(let inner): inner.doubleValue
        default: int32Value.map(Double.init)
        }
    }

    /// An AT-SPI object reference `(so)`: a bus name and an object path.
    static func reference(_ bus: String, _ path: String) -> DBusValue {
        .structure([.string(bus), .objectPath(path)])
    }

    /// A dictionary `a{sv}` or `a{ss}` from pairs.
    static func dictionary(_ pairs: [(String, DBusValue)], valueSignature: String = "v") -> DBusValue {
        .array(
            element: "{s" + valueSignature + "}",
            pairs.map { .dictEntry(.string($0.0), valueSignature == "v" ? .variant($0.1) : $0.1) })
    }
}

// MARK: Reading and writing messages

extension DBusValue {
    /// Reads every argument of `message` (not retained; the caller keeps it alive).
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return readAll(&iterator)
    }

    /// Appends `values` as the arguments of `message` (not retained). Returns false when
    /// libdbus ran out of memory.
    @discardableResult
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        return values.allSatisfy { $0.write(to: &iterator) }
    }

    private static func readAll(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != DBusType.invalid {
            values.append(read(&iterator))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func basic<T>(_ iterator: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        return value
    }

    private static func read(_ iterator: inout DBusMessageIter) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case DBusType.byte: return .byte(basic(&iterator, UInt8(0)))
        case DBusType.boolean: return .boolean(basic(&iterator, dbus_bool_t(0)) != 0)
        case DBusType.int16: return .int16(basic(&iterator, Int16(0)))
        case DBusType.uint16: return .uint16(basic(&iterator, UInt16(0)))
        case DBusType.int32: return .int32(basic(&iterator, Int32(0)))
        case DBusType.uint32: return .uint32(basic(&iterator, UInt32(0)))
        case DBusType.int64: return .int64(basic(&iterator, Int64(0)))
        case DBusType.uint64: return .uint64(basic(&iterator, UInt64(0)))
        case DBusType.double: return .double(basic(&iterator, Double(0)))
        case DBusType.string, DBusType.objectPath, DBusType.signature:
            // The string belongs to the message (valid while it lives): copied here.
            let pointer = basic(&iterator, UnsafePointer<CChar>?.none)
            let text = pointer.map { String(cString: $0) } ?? ""
            if type == DBusType.string { return .string(text) }
            return type == DBusType.objectPath ? .objectPath(text) : .signature(text)
        case DBusType.array:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            let signature = dbus_message_iter_get_signature(&iterator).map { pointer in
                defer { dbus_free(pointer) }
                return String(String(cString: pointer).dropFirst())
            } ?? ""
            return .array(element: signature, readAll(&inner))
        case DBusType.structure:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(readAll(&inner))
        case DBusType.dictEntry:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            let pair = readAll(&inner)
            guard pair.count == 2 else { return .unsupported(type) }
            return .dictEntry(pair[0], pair[1])
        case DBusType.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .variant(read(&inner))
        default:
            return .unsupported(type)
        }
    }

    private func appendBasic<T>(_ iterator: inout DBusMessageIter, _ type: Int32, _ value: T) -> Bool {
        var copy = value
        return withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, type, $0) } != 0
    }

    private func appendContainer(
        _ iterator: inout DBusMessageIter, _ type: Int32, _ signature: String?, _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened: dbus_bool_t =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(&iterator, type, $0, &inner) }
            } else {
                dbus_message_iter_open_container(&iterator, type, nil, &inner)
            }
        guard opened != 0 else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }

    private func write(to iterator: inout DBusMessageIter) -> Bool {
        switch self {
        case .byte(let v): return appendBasic(&iterator, DBusType.byte, v)
        case .boolean(let v): return appendBasic(&iterator, DBusType.boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): return appendBasic(&iterator, DBusType.int16, v)
        case .uint16(let v): return appendBasic(&iterator, DBusType.uint16, v)
        case .int32(let v): return appendBasic(&iterator, DBusType.int32, v)
        case .uint32(let v): return appendBasic(&iterator, DBusType.uint32, v)
        case .int64(let v): return appendBasic(&iterator, DBusType.int64, v)
        case .uint64(let v): return appendBasic(&iterator, DBusType.uint64, v)
        case .double(let v): return appendBasic(&iterator, DBusType.double, v)
        case .string(let s), .objectPath(let s), .signature(let s):
            let type: Int32 =
                switch self {
                case .objectPath: DBusType.objectPath
                case .signature: DBusType.signature
                default: DBusType.string
                }
            // libdbus rejects (aborts on) invalid UTF-8; Swift strings are valid UTF-8.
            return s.withCString { pointer in appendBasic(&iterator, type, pointer) }
        case .array(let element, let values):
            return appendContainer(&iterator, DBusType.array, element) { inner in
                values.allSatisfy { $0.write(to: &inner) }
            }
        case .structure(let fields):
            return appendContainer(&iterator, DBusType.structure, nil) { inner in
                fields.allSatisfy { $0.write(to: &inner) }
            }
        case .dictEntry(let key, let value):
            return appendContainer(&iterator, DBusType.dictEntry, nil) { inner in
                key.write(to: &inner) && value.write(to: &inner)
            }
        case .variant(let inner):
            return appendContainer(&iterator, DBusType.variant, inner.signature) { nested in
                inner.write(to: &nested)
            }
        case .unsupported:
            return false
        }
    }
}
