import DamaskControls
import DamaskGraphics
import DamaskPlayback
import DamaskViews
import Foundation

/// `--play FILE`: parses the script (with the demo's `scene NAME` command) before the
/// window opens, plays it through the window's input path, writes a screenshot of every
/// scene shown with `--screenshots DIR`, and turns the outcome into an exit status.
///
/// Main-actor; owns the parsed script and, while playing, the player.
@MainActor
final class DemoPlayback {
    private let script: Script
    private let layout: KeyboardLayout
    private let speed: PlaybackSpeed
    /// How long one wait or eventual check may take (`--timeout`).
    private let timeout: Duration
    private let screenshotDirectory: String?
    private let path: String
    private var rootView: DemoRootView?
    private var screenshotsWritten: [String] = []

    /// Parses the script at `path`.
    ///
    /// - Throws: `DemoError.usage` with the script error (`FILE:LINE:COL: error: …`).
    init(
        path: String, layout: KeyboardLayout, speed: PlaybackSpeed, timeout: Duration = .seconds(20),
        screenshotDirectory: String?
    ) throws {
        self.path = path
        self.layout = layout
        self.speed = speed
        self.timeout = timeout
        self.screenshotDirectory = screenshotDirectory
        let parser = ScriptParser(registry: Self.registry(handler: nil), layout: layout)
        do {
            script = try parser.parse(contentsOfFile: path)
        } catch {
            throw DemoError.usage(error.description)
        }
        if let screenshotDirectory { try Self.prepare(screenshotDirectory: screenshotDirectory) }
    }

    /// The files the script reads (itself and its reference images), which no output may
    /// replace.
    var inputPaths: [String] {
        [path] + script.statements.compactMap { statement in
            if case .expectImage(let reference, _) = statement.command { return script.resolve(reference) }
            return nil
        }
    }

    /// Creates `directory` if needed and checks that it is writable, so that a bad
    /// `--screenshots` path ends the demo at once with the system's reason.
    ///
    /// - Throws: `DemoError.usage` naming the directory and the reason.
    private static func prepare(screenshotDirectory directory: String) throws {
        let failure = makeDirectory(directory)
        guard failure == 0 else {
            throw DemoError.usage("cannot create the screenshot directory \(directory): \(String(cString: strerror(failure)))")
        }
        guard access(directory, W_OK) == 0 else {
            throw DemoError.usage("cannot write screenshots to \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// `mkdir -p`: 0 when `path` is (now) a directory, else the errno of the step that failed.
    private static func makeDirectory(_ path: String) -> Int32 {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? 0 : ENOTDIR
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            let failure = makeDirectory(parent)
            if failure != 0 { return failure }
        }
        return mkdir(path, 0o755) == 0 || errno == EEXIST ? 0 : errno
    }

    /// The demo's script commands: `scene NAME` shows a scene (as its key would);
    /// `settling on|off` turns the settling before checks on or off; `appearance light|dark`
    /// switches the appearance live.
    static func registry(handler: DemoPlayback?) -> ScriptCommandRegistry {
        let names = DemoApplication.sceneNames
        let definition = ScriptCommandDefinition(
            name: "scene", usage: "scene NAME",
            parse: { (reader: inout ArgumentReader) throws(ScriptError) -> String in
                let name = try reader.word("NAME")
                guard names.contains(name) else {
                    throw reader.error("unknown scene '\(name)' (expected one of: \(names.joined(separator: ", ")))")
                }
                return name
            },
            handler: { [weak handler] name, player in
                try await handler?.show(sceneNamed: name, player: player)
            })
        // `settling off` makes the checks that follow look at the frame on screen now, so a
        // script can check an animation mid-way after `wait frames N`; `settling on` makes
        // them wait for the window to settle again (the default).
        let settling = ScriptCommandDefinition(
            name: "settling", usage: "settling on|off",
            parse: { (reader: inout ArgumentReader) throws(ScriptError) -> Bool in
                let word = try reader.word("on|off")
                switch word {
                case "on": return true
                case "off": return false
                default: throw reader.error("expected 'on' or 'off', found '\(word)'")
                }
            },
            handler: { settles, player in
                player.options.settlesBeforeChecks = settles
            })
        // `appearance light|dark` switches the appearance live, as the desktop's setting does.
        let appearance = ScriptCommandDefinition(
            name: "appearance", usage: "appearance light|dark",
            parse: { (reader: inout ArgumentReader) throws(ScriptError) -> Appearance in
                let word = try reader.word("light|dark")
                guard let appearance = Appearance(rawValue: word) else {
                    throw reader.error("expected 'light' or 'dark', found '\(word)'")
                }
                return appearance
            },
            handler: { appearance, _ in
                Appearance.current = appearance
            })
        return ScriptCommandRegistry([definition, settling, appearance])
    }

    /// Plays the script in `window` and returns the exit status: 0 when every expectation
    /// held, 1 when one failed or playback stopped with an error (both are printed).
    func play(in window: Window, rootView: DemoRootView) async -> Int32 {
        self.rootView = rootView
        var options = PlaybackOptions()
        options.speed = speed
        options.layout = layout
        options.registry = Self.registry(handler: self)
        options.timeout = timeout
        // Collecting screenshots, a failed check does not end the run: every scene is still
        // shot, and every failure is listed (the tour at another --scale, whose damage and
        // draw checks assume scale 1, writes all eight).
        options.stopsAtFirstFailure = screenshotDirectory == nil
        // Live, with an input method that takes commands (DAMASK_IME_COMMANDS names its FIFO),
        // `ime` lines go through it and the compositor; headless they stay in-process.
        if !(window.surface is MemorySurface),
            let path = ProcessInfo.processInfo.environment["DAMASK_IME_COMMANDS"], !path.isEmpty
        {
            let channel = InputMethodCommandChannel(path: path)
            options.inputMethodChannel = { try channel.send($0) }
            options.inputMethodSettingChannel = { try channel.send($0) }
        }
        let player = ScriptPlayer(window: window, options: options)
        let report: PlaybackReport
        do {
            report = try await player.play(script)
            try await captureCurrentScene(player: player, at: script.statements.last?.location)
        } catch {
            Self.printError("\(error)")
            return 1
        }
        for failure in report.failures { Self.printError("\(failure)") }
        if let screenshotDirectory, !screenshotsWritten.isEmpty {
            print("damask-demo: wrote \(screenshotsWritten.count) screenshots to \(screenshotDirectory)")
        }
        guard report.succeeded else { return 1 }
        print("damask-demo: played \(path): \(report.commandCount) commands, every expectation held")
        // With --stay the window stays open: whoever watches the output sees the result now
        // (nil: every stream, stdout among them).
        fflush(nil)
        return 0
    }

    /// `scene NAME`: screenshots the scene being left (with `--screenshots`), then shows
    /// `name` and lets its first frame be presented.
    private func show(sceneNamed name: String, player: ScriptPlayer) async throws {
        guard let rootView, let index = rootView.sceneEntries.firstIndex(where: { $0.name == name }) else { return }
        let location = player.currentLocation ?? SourceLocation(file: script.file, line: 1, column: 1)
        if rootView.currentScene.name != name {
            try await captureCurrentScene(player: player, at: location)
        }
        rootView.showScene(at: index)
        try await player.waitForFrames(1, at: location)
    }

    /// Writes `DIR/<scene>.png` of what is presented now.
    private func captureCurrentScene(player: ScriptPlayer, at location: SourceLocation?) async throws {
        guard let screenshotDirectory, let rootView else { return }
        let location = location ?? SourceLocation(file: script.file, line: 1, column: 1)
        try await player.waitForFrames(1, at: location)
        guard let provider = player.window.surface as? any PresentedContentProvider,
            let bitmap = provider.presentedContent
        else {
            throw PlaybackError("this surface cannot show its presented content", at: location)
        }
        let file = (screenshotDirectory as NSString).appendingPathComponent("\(rootView.currentScene.name).png")
        try player.write(bitmap, to: file, purpose: "the screenshot of scene '\(rootView.currentScene.name)'", at: location)
        screenshotsWritten.append(file)
    }

    private static func printError(_ message: String) {
        StandardError.write("damask-demo: \(message)\n")
    }
}
