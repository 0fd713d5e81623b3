import Foundation

/// A program the typing-peers suite types into: damask-demo's text field, foot (`cat` in
/// its terminal), a GTK 4 `Gtk.Entry` and a Qt 6 `QLineEdit` (python3-gi, python3-pyqt6 +
/// qt6-wayland), each showing a focused one-line field, empty or holding a long line with
/// the caret at its end.
///
/// Owns the files it writes (demo scripts, Python programs) in ``directory``, removed by
/// ``removeFiles()``.
struct TypingPeer {
    /// The name in the report (`damask-demo`, `foot`, `GTK 4`, `Qt 6`).
    var name: String
    /// The program started.
    var executable: String
    /// Its arguments for the short line and for the long one.
    var shortArguments: [String]
    var longArguments: [String]
    /// Added to the compositor's client environment.
    var environment: [String: String] = [:]
    /// A line the program prints when its field is ready (nil: its first frame and quiet).
    var readyLine: String?
    /// The directory of its files, if it wrote any.
    var directory: String?

    func arguments(long: Bool) -> [String] { long ? longArguments : shortArguments }

    /// Removes the files it wrote.
    func removeFiles() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The four peers, damask-demo at `demo`, with `longText` as the long line.
    static func all(demo: String, longText: String) throws -> [TypingPeer] {
        guard let foot = executableInPath("foot") else { throw BenchError.helper("foot is not installed (scripts/setup)") }
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchError.helper("/usr/bin/python3 is not installed (scripts/setup)")
        }
        let template = NSTemporaryDirectory() + "damask-bench-peers.XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw BenchError.helper("cannot make a temporary directory") }
        let directory = String(cString: made)
        // The demo focuses its field (a click on it) and, for the long line, types it, 25
        // characters a frame: each key sends the compositor up to 4,000 bytes of
        // surrounding text, and at script speed without pauses the requests outran Weston
        // until the socket was full (libwayland then ends the connection).
        let shortScript = directory + "/short.damask", longScript = directory + "/long.damask"
        try "scene text\nwait idle\nclick 300 180\nwait idle\n".write(toFile: shortScript, atomically: true, encoding: .utf8)
        var chunks: [String] = []
        var rest = Substring(longText)
        while !rest.isEmpty {
            chunks.append("type \"\(rest.prefix(25))\"\nwait frames 1\n")
            rest = rest.dropFirst(25)
        }
        try ("scene text\nwait idle\nclick 300 180\n" + chunks.joined() + "wait idle\n").write(
            toFile: longScript, atomically: true, encoding: .utf8)
        let gtk = directory + "/gtk4-entry.py", qt = directory + "/qt6-lineedit.py"
        try """
            import sys
            import gi
            gi.require_version("Gtk", "4.0")
            from gi.repository import Gtk, GLib
            window = Gtk.Window(title="GTK 4 entry")
            window.set_default_size(420, 60)
            entry = Gtk.Entry()
            entry.set_text(sys.argv[1] if len(sys.argv) > 1 else "")
            window.set_child(entry)
            window.present()
            entry.grab_focus()
            entry.set_position(-1)
            GLib.MainLoop().run()
            """.write(toFile: gtk, atomically: true, encoding: .utf8)
        try """
            import sys
            from PyQt6.QtWidgets import QApplication, QLineEdit
            app = QApplication([])
            field = QLineEdit()
            field.setMaxLength(1000000)
            field.setText(sys.argv[1] if len(sys.argv) > 1 else "")
            field.setWindowTitle("Qt 6 line edit")
            field.resize(420, 60)
            field.show()
            field.setFocus()
            field.end(False)
            app.exec()
            """.write(toFile: qt, atomically: true, encoding: .utf8)
        // foot runs `cat` on its terminal, the long line printed first: typed keys are
        // echoed by the terminal's line discipline and drawn by foot.
        let footShell = ["sh", "-c", "printf %s \"$1\"; exec cat", "sh"]
        return [
            TypingPeer(
                name: "damask-demo", executable: demo,
                shortArguments: ["--size", "800x600", "--speed", "fast", "--stay", "--play", shortScript],
                longArguments: ["--size", "800x600", "--speed", "fast", "--stay", "--play", longScript],
                readyLine: "damask-demo: played", directory: directory),
            TypingPeer(name: "foot", executable: foot, shortArguments: footShell + [""], longArguments: footShell + [longText]),
            TypingPeer(
                name: "GTK 4", executable: python, shortArguments: [gtk], longArguments: [gtk, longText],
                environment: ["GSK_RENDERER": "cairo", "GDK_BACKEND": "wayland"]),
            TypingPeer(
                name: "Qt 6", executable: python, shortArguments: [qt], longArguments: [qt, longText],
                environment: ["QT_QPA_PLATFORM": "wayland"]),
        ]
    }

    /// The first executable `name` in `PATH`.
    static func executableInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
