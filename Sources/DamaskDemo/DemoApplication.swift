import DamaskGraphics
import DamaskPlayback
import DamaskViews
import DamaskWayland
import Foundation

/// The running demo: a window on a Wayland compositor (or in memory with `--headless`),
/// its scenes, an optional script being played, and what ends the program.
///
/// Owns the connection, the surface, the window and the player for the life of the
/// process. Main-actor.
@MainActor
final class DemoApplication {
    private let options: DemoOptions
    private var connection: WaylandConnection?
    private var surface: (any Surface)?
    private var window: Window?
    private var rootView: DemoRootView?
    private var signalMonitor: SignalMonitor?
    private var snapshotMonitor: SignalMonitor?
    /// Where SIGUSR1 writes the presented frame (`--snapshot`), checked at start.
    private var snapshotFile: OutputFile?
    /// The files a snapshot must never replace: the inputs and the other outputs.
    private var snapshotProtectedPaths: [String] = []
    private var damageLog: DamageLog?
    private var playback: DemoPlayback?
    private var decoratedWindow: DecoratedWindow?
    private var recording: DemoRecording?
    /// The exit status `--play` earned, used when a `--stay` window is closed.
    private var playStatus: Int32 = 0

    init(options: DemoOptions) {
        self.options = options
    }

    /// The scenes, in sidebar order; each is made when first shown.
    static let sceneEntries: [DemoSceneEntry] = [
        DemoSceneEntry(name: "progress", sidebarTitle: "Progress") { ProgressScene(environment: $0) },
        DemoSceneEntry(name: "chromosome", sidebarTitle: "Chromosome") { ChromosomeScene(environment: $0) },
        DemoSceneEntry(name: "paths", sidebarTitle: "Paths") { PathsScene(environment: $0) },
        DemoSceneEntry(name: "layers", sidebarTitle: "Layers") { LayersScene(environment: $0) },
        DemoSceneEntry(name: "canvas", sidebarTitle: "Canvas") { CanvasScene(environment: $0) },
        DemoSceneEntry(name: "content-mode", sidebarTitle: "Content mode") { ContentModeScene(environment: $0) },
        DemoSceneEntry(name: "text", sidebarTitle: "Text") { TextScene(environment: $0) },
        DemoSceneEntry(name: "motion", sidebarTitle: "Motion") { MotionScene(environment: $0) },
        DemoSceneEntry(name: "controls", sidebarTitle: "Controls") { ControlsScene(environment: $0) },
    ]

    /// The scene names, in sidebar order.
    static var sceneNames: [String] { sceneEntries.map(\.name) }

    /// Opens the window and starts handling events (and playing, with `--play`); the
    /// caller then runs the main loop.
    ///
    /// - Throws: `WaylandError`, `DemoError` (usage errors, including a bad script, exit 2);
    ///   the caller reports it and exits.
    func start() throws {
        if options.recordPath != nil, options.headless {
            throw DemoError.usage("--record records a compositor's seat and cannot be used with --headless")
        }
        guard let layout = KeyboardLayout(options.keymap) else {
            throw DemoError.usage("--keymap expects LAYOUT or LAYOUT:VARIANT, got '\(options.keymap)'")
        }
        let initialIndex = try options.scene.map { name in
            guard let index = Self.sceneNames.firstIndex(of: name) else {
                throw DemoError.usage(
                    "unknown scene '\(name)' (expected one of: \(Self.sceneNames.joined(separator: ", ")))")
            }
            return index
        } ?? 0
        if let path = options.sequencePath {
            // A file that is no sequence is a usage error now, not a message in the window.
            do { _ = try SequenceLoader.load(path: path) } catch { throw DemoError.usage("\(error)") }
        }
        let environment = DemoEnvironment(
            isDeterministic: options.headless && options.playPath != nil, sequencePath: options.sequencePath)
        var playback: DemoPlayback?
        if let path = options.playPath {
            playback = try DemoPlayback(
                path: path, layout: layout, speed: options.speed == .fast ? .fast : .realtime,
                timeout: options.timeout, screenshotDirectory: options.screenshotDirectory)
        }
        // Outputs never replace an input: the script, its reference images, the sequence.
        let inputs = (playback?.inputPaths ?? []) + [options.sequencePath].compactMap { $0 }
        if let path = options.damageLogPath {
            let log = try DamageLog(path: path, inputs: inputs, recordsTime: !environment.isDeterministic)
            log.onWriteFailure = { message in Self.fail(with: message, status: 1) }
            damageLog = log
        }
        if let path = options.snapshotPath {
            snapshotProtectedPaths = inputs + [options.damageLogPath, options.recordPath].compactMap { $0 }
            do {
                snapshotFile = try OutputFile(path: path, purpose: "the snapshot", inputs: snapshotProtectedPaths)
            } catch {
                throw DemoError.usage(error.description)
            }
        }
        if let path = options.recordPath {
            recording = try DemoRecording(
                path: path, inputs: inputs + [options.damageLogPath].compactMap { $0 },
                firstScene: Self.sceneNames[initialIndex])
        }

        let size = CGSize(width: options.size.width, height: options.size.height)
        let rootView = DemoRootView(
            frame: CGRect(origin: .zero, size: size), scenes: Self.sceneEntries, showing: initialIndex,
            environment: environment)
        let window = try openWindow(showing: rootView, size: size, playing: playback != nil)
        if decoratedWindow == nil {
            window.title = "Damask"
            window.backgroundColor = DemoStyle.windowBackground
        }
        window.defaultFirstResponder = rootView
        rootView.becomeFirstResponder()
        rootView.onQuit = { [weak self] in self?.quit(status: self?.playStatus ?? 0) }
        window.onClose = { [weak self] in self?.quit(status: self?.playStatus ?? 0) }
        let damageLog = self.damageLog
        rootView.damageLogRecordsCPUTime = damageLog?.recordsTime == true
        window.measuresCommitCPUTime = rootView.measuresCommitCPUTime
        window.onCommit = { [weak rootView] report in
            damageLog?.record(report)
            rootView?.statsOverlay.record(report)
        }
        self.surface = window.surface
        self.window = window
        self.rootView = rootView
        signalMonitor = SignalMonitor { [weak self] _ in self?.quit(status: 0) }
        if snapshotFile != nil {
            snapshotMonitor = SignalMonitor(signals: [SIGUSR1]) { [weak self] _ in self?.writeSnapshot() }
        }
        connection?.start()
        rootView.layoutIfNeeded()
        rootView.currentScene.sceneDidAppear()
        window.setNeedsDisplay()

        if let playback {
            self.playback = playback
            // The player's resumptions stay on the main queue: no thread of Swift's global
            // executor wakes, so none starts libdispatch's once-a-second workqueue monitor
            // (``MainQueueTaskExecutor``).
            Task(executorPreference: MainQueueTaskExecutor.shared) { [weak self] in
                let status = await playback.play(in: window, rootView: rootView)
                await self?.playbackDidFinish(status: status)
            }
        }
    }

    /// Opens the window showing `rootView`: in memory with `--headless`; otherwise on the
    /// compositor, with the window's own decorations when interactive and plain while a
    /// script plays (scripts address the content area from its top-left corner).
    private func openWindow(showing rootView: DemoRootView, size: CGSize, playing: Bool) throws -> Window {
        if options.headless {
            // Fast playback runs frames back to back; anything else paces them like a display.
            let clock: MemorySurface.FrameClock =
                playing && options.speed == .fast
                ? .simulated(intervalMilliseconds: 16) : .realTime(intervalMilliseconds: 16)
            let surface = MemorySurface(
                size: size, scale: CGFloat(options.scale), releasePolicy: .immediate, frameClock: clock)
            // Scripts inspect only the presented screen: no per-frame copies, no history
            // (an animation would otherwise keep every frame it ever presented).
            surface.recordsSnapshots = false
            surface.commitHistoryLimit = 1
            let window = Window(surface: surface)
            window.contentView = rootView
            return window
        }
        let connection = try WaylandConnection()
        connection.onFatalError = { error in
            Self.fail(with: error.description, status: error.exitStatus)
        }
        self.connection = connection
        let window: Window
        if playing {
            let surface = try WaylandSurface(
                connection: connection, title: "Damask", appID: "org.damask.Demo", size: size)
            window = Window(surface: surface)
            window.contentView = rootView
        } else {
            // A title bar, a shadow and resize handles; Ctrl+Q and the close button close.
            let decorated = try DecoratedWindow(
                connection: connection, title: "Damask", appID: "org.damask.Demo", size: size)
            decorated.contentView = rootView
            decoratedWindow = decorated
            window = decorated.window
        }
        if let recording, let surface = window.surface as? WaylandSurface {
            recording.contentFrame = { [weak rootView] in
                rootView.map { $0.convert($0.bounds, to: nil) } ?? .infinite
            }
            surface.inputObserver = { recording.observe($0) }
        }
        return window
    }

    /// `--snapshot` on SIGUSR1: writes the buffer the compositor was last given (title bar,
    /// shadow and content, in buffer pixels) as a PNG and says so on standard output. A
    /// failure is reported on standard error and the demo goes on.
    private func writeSnapshot() {
        guard let file = snapshotFile else { return }
        guard let bitmap = (window?.surface as? any PresentedContentProvider)?.presentedContent else {
            StandardError.write("damask-demo: no snapshot written to '\(file.path)': nothing presented yet\n")
            return
        }
        do {
            // Checked again: what is at the path may have changed since the start.
            try OutputFile(path: file.path, purpose: file.purpose, inputs: snapshotProtectedPaths)
                .write(try bitmap.pngData())
        } catch {
            StandardError.write("damask-demo: \(error)\n")
            return
        }
        // Unbuffered, so that a reader of a pipe sees the line at once.
        _ = FileDescriptorWriter.write(Array("damask-demo: wrote snapshot \(file.path)\n".utf8), to: STDOUT_FILENO)
    }

    private func playbackDidFinish(status: Int32) {
        playStatus = status
        if !options.stay { quit(status: status) }
    }

    /// Writes the recording (if any), closes the window, disconnects and exits with `status`.
    func quit(status: Int32) -> Never {
        do {
            try recording?.write()
        } catch {
            Self.fail(with: "cannot write the recording: \(error)", status: 1)
        }
        window = nil
        (surface as? WaylandSurface)?.close()
        connection?.close()
        exit(status)
    }

    /// Prints `message` prefixed with the program's name and exits with `status`.
    static func fail(with message: String, status: Int32) -> Never {
        StandardError.write("damask-demo: \(message)\n")
        exit(status)
    }
}
