import Foundation

/// A GTK 4 window with one entry (`Tests/InputMethods/gtk4-entry.py`): a text-input-v3
/// client that already works, to check the sway input-method harness against. Its lines are
/// "shown", "text TEXT" and "preedit TEXT".
///
/// Owns its ``TestProcess``; `deinit` ends it. Not thread-safe: use from one test.
final class GtkEntryClient {
    let process: TestProcess

    /// Starts the window on `environment`'s compositor and waits until it is shown.
    init(environment base: [String: String]) throws {
        var environment = base
        environment["GDK_BACKEND"] = "wayland"
        // No session bus: GTK then does not try to autolaunch one.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        let script = PrivateCompositor.packageRoot.appendingPathComponent("Tests/InputMethods/gtk4-entry.py").path
        process = try TestProcess("/usr/bin/python3", [script], environment: environment)
        guard process.waitForLine(timeout: 30, where: { $0 == "shown" }) != nil else {
            throw TestProcessError.didNotStart(program: script, waitingFor: "shown", output: process.transcript)
        }
    }

    deinit { process.kill(grace: 1) }

    /// The entry's latest text ("" before any change).
    var text: String {
        process.lines.last { $0.hasPrefix("text ") }.map { String($0.dropFirst(5)) } ?? ""
    }

    /// Waits until the entry's latest text is `expected`; returns whether it was within `timeout`.
    func waitForText(_ expected: String, timeout: TimeInterval = 20) -> Bool {
        process.waitUntil(timeout: timeout) { lines in
            lines.last { $0.hasPrefix("text ") } == "text \(expected)"
        }
    }

    /// Waits until the entry's latest preedit is `expected`; returns whether it was within `timeout`.
    func waitForPreedit(_ expected: String, timeout: TimeInterval = 20) -> Bool {
        process.waitUntil(timeout: timeout) { lines in
            lines.last { $0.hasPrefix("preedit ") } == "preedit \(expected)"
        }
    }
}
