import Foundation

/// A private session bus with the AT-SPI accessibility bus on it: `dbus-daemon --session`,
/// then at-spi2-core's `at-spi-bus-launcher`, which starts the accessibility bus (its own
/// dbus-daemon) on which `at-spi2-registryd` is started on demand. What an assistive
/// technology finds on a desktop, without touching the machine's own buses.
///
/// Owns the two programs (each in its own process group, with the daemons they start);
/// `stop()` or `deinit` ends them, launcher first.
final class AccessibilityBusSession {
    /// The session bus's address (for `DBUS_SESSION_BUS_ADDRESS`).
    let sessionAddress: String
    private let daemon: TestProcess
    private let launcher: TestProcess

    static let python = "/usr/bin/python3"

    init() throws {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "DAMASK_ACCESSIBILITY"] { environment[name] = nil }
        // The launcher keeps IsEnabled in GSettings (org.gnome.desktop.interface
        // toolkit-accessibility): in memory, so a test's setting neither outlives the session
        // nor comes from the machine's dconf database.
        environment["GSETTINGS_BACKEND"] = "memory"
        daemon = try TestProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"], environment: environment)
        guard let address = daemon.waitForLine(from: 0, timeout: 30, where: { $0.hasPrefix("unix:") })?.line else {
            daemon.kill()
            throw TestProcessError.didNotStart(program: "dbus-daemon --session", waitingFor: "its address", output: daemon.transcript)
        }
        sessionAddress = address
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        launcher = try TestProcess("/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"], environment: environment)
        // Returns once org.a11y.Bus is owned (the launcher registered it).
        let wait = try TestProcess("/usr/bin/gdbus", ["wait", "--session", "--timeout", "60", "org.a11y.Bus"], environment: environment)
        guard wait.waitForExit(timeout: 90) == 0 else {
            stop()
            throw TestProcessError.didNotStart(
                program: "at-spi-bus-launcher", waitingFor: "org.a11y.Bus on the session bus", output: launcher.transcript)
        }
    }

    deinit { stop() }

    func stop() {
        launcher.kill()
        daemon.kill()
    }

    /// The environment of a program on this session: `base` with the session bus's address.
    func environment(_ base: [String: String]) -> [String: String] {
        var environment = base
        environment["DBUS_SESSION_BUS_ADDRESS"] = sessionAddress
        for name in ["AT_SPI_BUS_ADDRESS", "DAMASK_ACCESSIBILITY"] { environment[name] = nil }
        return environment
    }

    /// Runs a Python snippet with Gio on this session; returns its stdout lines.
    func python(_ script: String, _ arguments: [String] = [], timeout: TimeInterval = 60) throws -> [String] {
        let process = try TestProcess(
            Self.python, ["-c", script] + arguments, environment: environment(ProcessInfo.processInfo.environment))
        guard process.waitForExit(timeout: timeout) == 0 else {
            throw TestProcessError.didNotStart(program: "python3 -c …", waitingFor: "exit status 0", output: process.transcript)
        }
        return process.lines
    }

    /// Sets `org.a11y.Status.IsEnabled` (what Orca and GNOME's accessibility switch set).
    func setAccessibilityEnabled(_ enabled: Bool) throws {
        _ = try python(Self.gio + """
            bus.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set",
                GLib.Variant("(ssv)", ("org.a11y.Status", "IsEnabled", GLib.Variant("b", \(enabled ? "True" : "False")))),
                None, Gio.DBusCallFlags.NONE, -1, None)
            """)
    }

    /// The process ids of every connection on the accessibility bus now.
    func accessibilityBusProcessIDs() throws -> [pid_t] {
        try python(Self.gio + """
            address = bus.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
            a11y = Gio.DBusConnection.new_for_address_sync(address,
                Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
            names = a11y.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                None, None, Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
            for name in names:
                if name.startswith(":"):
                    print(a11y.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                        "GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)), None, Gio.DBusCallFlags.NONE, -1,
                        None).unpack()[0])
            """).compactMap { pid_t($0) }
    }

    /// The process ids of every connection on the session bus now.
    func sessionBusProcessIDs() throws -> [pid_t] {
        try python(Self.gio + """
            names = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                None, None, Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
            for name in names:
                if name.startswith(":"):
                    print(bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                        "GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)), None, Gio.DBusCallFlags.NONE, -1,
                        None).unpack()[0])
            """).compactMap { pid_t($0) }
    }

    private static let gio = """
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

        """
}
