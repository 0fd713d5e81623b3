import Foundation

/// One virtual keyboard with the US layout for the whole test
/// (`Tests/InputMethods/virtual-keyboard.c`): keys typed through it reach sway's seat, and
/// so the input method's keyboard grab or the focused window.
///
/// Start it before any text field has focus: sway 1.7 crashes
/// (`wlr_input_method_keyboard_grab_v2_send_modifiers` on a grab without a keyboard) when
/// the seat's first keyboard appears while an input method holds a keyboard grab.
///
/// Owns its ``TestProcess``; `deinit` ends it. Not thread-safe: use from one test.
final class VirtualKeyboard {
    let process: TestProcess

    /// Creates the keyboard on `environment`'s compositor and waits until its keymap is there.
    init(environment: [String: String]) throws {
        let executable = try InputMethodPrograms.virtualKeyboard()
        process = try TestProcess(executable, [], environment: environment)
        guard process.waitForLine(timeout: 20, where: { $0 == "ready" || $0.hasPrefix("error") })?.line == "ready" else {
            throw TestProcessError.didNotStart(program: executable, waitingFor: "ready", output: process.transcript)
        }
    }

    deinit { process.kill(grace: 1) }

    /// Types `text` (ASCII) and then the keys named in `keys` (keysym names), and waits until
    /// sway has them all (a round trip after them); returns whether it did.
    @discardableResult
    func type(_ text: String, then keys: [String] = [], timeout: TimeInterval = 20) -> Bool {
        let synced = process.lines.count { $0 == "synced" }
        if !text.isEmpty { process.send("type \(text)") }
        for key in keys { process.send("key \(key)") }
        process.send("sync")
        return process.waitUntil(timeout: timeout) { lines in lines.count { $0 == "synced" } > synced }
    }
}
