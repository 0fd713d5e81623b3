import CDBus
import Testing

@testable import DamaskAccessibility

@Suite("D-Bus values", .timeLimit(.minutes(5))) struct DBusValueTests {
    @Test("Signatures of nested values are D-Bus's")
    func signatures() {
        #expect(DBusValue.reference(":1.2", "/a").signature == "(so)")
        #expect(DBusValue.dictionary([("x", .int32(1))]).signature == "a{sv}")
        #expect(DBusValue.dictionary([("x", .string("y"))], valueSignature: "s").signature == "a{ss}")
        #expect(DBusValue.array(element: "u", []).signature == "au")
        #expect(DBusValue.structure([.int32(1), .double(2)]).signature == "(id)")
    }

    @Test("Every kind of value survives a real libdbus message, written and read back")
    func roundTripThroughLibdbus() throws {
        let message = try #require(dbus_message_new_method_call("org.example", "/org/example", "org.example.I", "M"))
        defer { dbus_message_unref(message) }
        let values: [DBusValue] = [
            .string("héllo wörld"), .int32(-7), .uint32(4_000_000_000), .boolean(true), .double(0.25),
            .int16(-2), .byte(200), .objectPath("/org/a11y/atspi/accessible/3"),
            .reference(":1.42", "/org/a11y/atspi/accessible/root"),
            .dictionary([("a", .int32(1)), ("b", .string("x"))]),
            .dictionary([("toolkit", .string("Damask"))], valueSignature: "s"),
            .array(element: "u", [.uint32(1), .uint32(2)]),
            .array(element: "(so)", []),
            .structure([.int32(1), .int32(2), .int32(3), .int32(4)]),
            .variant(.variant(.string("nested"))),
        ]
        #expect(DBusValue.append(values, to: message))
        let signature = String(cString: dbus_message_get_signature(message))
        #expect(signature == values.map(\.signature).joined())
        #expect(DBusValue.arguments(of: message) == values)
    }

    @Test("Readers see through variants and convert integer widths")
    func readers() {
        #expect(DBusValue.variant(.boolean(true)).boolValue == true)
        #expect(DBusValue.variant(.int32(5)).doubleValue == 5)
        #expect(DBusValue.uint32(3).int32Value == 3)
        #expect(DBusValue.objectPath("/x").stringValue == "/x")
        #expect(DBusValue.double(1).int32Value == nil)
    }
}
