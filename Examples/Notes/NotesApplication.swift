import DamaskGraphics
import DamaskPlayback
import DamaskViews
import DamaskWayland
import Foundation

/// The running notes application: one window, on the Wayland compositor in
/// `WAYLAND_DISPLAY` or in memory with `--headless`, and the script it plays with `--play`.
///
/// Owns the connection, the window and its content for the life of the process.
/// Main-actor.
@MainActor final class NotesApplication {
    private let options: NotesOptions
    private var connection: WaylandConnection?
    private var decoratedWindow: DecoratedWindow?
    private var window: Window?
    private var notesView: NotesView?

    init(options: NotesOptions) {
        self.options = options
    }

    /// The notes a new window starts with.
    static let sampleNotes = [
        Note(text: "Groceries\nbread, apples, coffee"),
        Note(text: "Ideas\na toolkit for Wayland"),
    ]

    /// Opens the window and, with `--play`, starts playing; the caller then runs the main
    /// loop.
    ///
    /// - Throws: `NotesError.usage` for a bad script (before any window opens),
    ///   `WaylandError` when the compositor cannot be reached.
    func start() throws {
        var script: Script?
        if let path = options.playPath {
            do {
                script = try ScriptParser(registry: NotesScriptCommands.registry(checking: nil)).parse(contentsOfFile: path)
            } catch {
                throw NotesError.usage(error.description)
            }
        }
        let size = CGSize(width: options.size.width, height: options.size.height)
        let notesView = NotesView(frame: CGRect(origin: .zero, size: size), notes: Self.sampleNotes)
        let window = try openWindow(showing: notesView, size: size, playing: script != nil)
        window.title = "Notes"
        window.defaultFirstResponder = notesView.listView
        _ = notesView.listView.becomeFirstResponder()
        window.onClose = { [weak self] in self?.quit(status: 0) }
        self.window = window
        self.notesView = notesView
        connection?.start()
        window.setNeedsDisplay()
        if let script {
            Task { @MainActor [weak self] in
                guard let self else { return }
                let status = await self.play(script, in: window, checking: notesView)
                self.quit(status: status)
            }
        }
    }

    /// Headless: a `MemorySurface` whose frames the player fires (fast) or a 16 ms clock.
    /// On a compositor: a decorated window, or a plain one while a script plays (scripts
    /// address the content from its top-left corner).
    private func openWindow(showing view: View, size: CGSize, playing: Bool) throws -> Window {
        if options.headless {
            let surface = MemorySurface(
                size: size, releasePolicy: .immediate,
                frameClock: playing && options.isFast ? .simulated(intervalMilliseconds: 16) : .realTime(intervalMilliseconds: 16))
            surface.recordsSnapshots = false
            surface.commitHistoryLimit = 1
            let window = Window(surface: surface)
            window.contentView = view
            return window
        }
        let connection = try WaylandConnection()
        connection.onFatalError = { error in Self.fail(with: error.description, status: error.exitStatus) }
        self.connection = connection
        if playing {
            let surface = try WaylandSurface(connection: connection, title: "Notes", appID: "org.damask.Notes", size: size)
            let window = Window(surface: surface)
            window.contentView = view
            return window
        }
        let decorated = try DecoratedWindow(connection: connection, title: "Notes", appID: "org.damask.Notes", size: size)
        decorated.contentView = view
        decoratedWindow = decorated
        return decorated.window
    }

    /// Plays `script` and returns the exit status: 0 when every expectation held, 1 when one
    /// failed or playback stopped with an error (both printed on standard error).
    private func play(_ script: Script, in window: Window, checking notesView: NotesView) async -> Int32 {
        var options = PlaybackOptions()
        options.speed = self.options.isFast ? .fast : .realtime
        options.registry = NotesScriptCommands.registry(checking: notesView)
        options.timeout = .seconds(20)
        let player = ScriptPlayer(window: window, options: options)
        let report: PlaybackReport
        do {
            report = try await player.play(script)
        } catch {
            StandardError.write("damask-notes: \(error)\n")
            return 1
        }
        for failure in report.failures { StandardError.write("damask-notes: \(failure)\n") }
        guard report.succeeded else { return 1 }
        print("damask-notes: played \(script.file): \(report.commandCount) commands, every expectation held")
        return 0
    }

    /// Closes the window, disconnects and exits with `status`.
    func quit(status: Int32) -> Never {
        fflush(nil)
        window = nil
        (decoratedWindow?.window.surface as? WaylandSurface)?.close()
        connection?.close()
        exit(status)
    }

    /// Prints `message` after the program's name and exits with `status`.
    static func fail(with message: String, status: Int32) -> Never {
        StandardError.write("damask-notes: \(message)\n")
        exit(status)
    }
}
