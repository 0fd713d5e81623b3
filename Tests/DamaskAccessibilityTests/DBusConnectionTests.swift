import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskAccessibility

/// The libdbus connection on a real (private) bus daemon: replies arrive through the
/// main-queue watch; the bridge follows the status without touching the accessibility bus.
@Suite("D-Bus connection and the bridge's status", .serialized, .exclusive, .timeLimit(.minutes(5))) @MainActor struct DBusConnectionTests {
    func call(
        _ connection: DBusConnection, _ member: String, _ arguments: [DBusValue] = [], destination: String = "org.freedesktop.DBus"
    ) async -> Result<[DBusValue], DBusCallError> {
        await withCheckedContinuation { continuation in
            connection.call(destination, "/org/freedesktop/DBus", "org.freedesktop.DBus", member, arguments) {
                continuation.resume(returning: $0)
            }
        }
    }

    @Test("A call's reply and an error reply arrive through the main-queue watch")
    func callAndError() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try DBusConnection(address: bus.address, watcher: .mainQueue)
        defer { connection.close() }
        #expect(connection.uniqueName.hasPrefix(":"))
        let names = try await call(connection, "ListNames").get()
        guard case .array(let element, let list)? = names.first else {
            Issue.record("ListNames answered \(names)")
            return
        }
        #expect(element == "s")
        #expect(list.contains(.string(connection.uniqueName)))
        let owned = try await call(connection, "NameHasOwner", [.string("org.a11y.Bus")]).get()
        #expect(owned == [.boolean(false)])
        let failure = await call(connection, "NoSuchMethod")
        guard case .failure(let error) = failure else {
            Issue.record("an unknown method succeeded: \(failure)")
            return
        }
        #expect(error.name == "org.freedesktop.DBus.Error.UnknownMethod")
    }

    @Test("The session bus is found as libdbus would find it, without autolaunch: the address, else $XDG_RUNTIME_DIR/bus")
    func sessionBusLookup() throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("damask-bus-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        #expect(!DBusConnection.sessionBusExists([:]))
        #expect(!DBusConnection.sessionBusExists(["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": runtime.path]))
        #expect(DBusConnection.sessionBusExists(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]))
        #expect(FileManager.default.createFile(atPath: runtime.path + "/bus", contents: nil))
        #expect(DBusConnection.sessionBusExists(["XDG_RUNTIME_DIR": runtime.path]))
        #expect(!DBusConnection.sessionBusExists(["XDG_RUNTIME_DIR": ""]))
    }

    @Test("An unreachable bus is an error naming libdbus's reason, not a crash")
    func unreachableBus() {
        #expect(throws: DBusCallError.self) {
            _ = try DBusConnection(address: "unix:path=/nonexistent/damask-bus", watcher: .mainQueue)
        }
    }

    @Test("The bridge follows the status on the session bus, and with no launcher there it never observes the views")
    func bridgeWithoutAssistiveTechnology() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let bridge = AccessibilityBridge(applicationName: "tests", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { bridge.stop() }
        bridge.start()
        #expect(bridge.isFollowingStatus)
        // Its NameHasOwner question is answered within a turn or two of the main queue;
        // a second connection's round trip to the same daemon comes after it.
        let probe = try DBusConnection(address: bus.address, watcher: .mainQueue)
        defer { probe.close() }
        _ = await call(probe, "ListNames")
        #expect(!bridge.isConnectedToAccessibilityBus)
        #expect(!AccessibilityCenter.isObserved, "no observer of the view tree while no AT listens")

        let off = AccessibilityBridge(
            applicationName: "tests", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DAMASK_ACCESSIBILITY": "0"])
        off.start()
        #expect(!off.isFollowingStatus, "DAMASK_ACCESSIBILITY=0: not even the session bus")
        let none = AccessibilityBridge(applicationName: "tests", environment: [:])
        none.start()
        #expect(!none.isFollowingStatus, "no session bus: nothing")
    }
}
