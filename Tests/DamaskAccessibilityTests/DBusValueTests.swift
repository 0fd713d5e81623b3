import Testing

@testable import DamaskAccessibility

@Suite("D-Bus values") struct DBusValueTests {
    @Test("Signatures of nested values are D-Bus's")
    func signatures() {
        #expect(DBusValue.reference(":1.2", "/a").signature == "(so)")
        #expect(DBusValue.dictionary([("x", .int32(1))]).signature == "a{sv}")
        #expect(DBusValue.array(element: "u", []).signature == "au")
    }
}
