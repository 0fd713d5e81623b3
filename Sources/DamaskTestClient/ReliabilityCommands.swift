import DamaskViews
import DamaskWayland
import Foundation

/// Test-client commands for the reliability tests: an endless animation, the process's
/// resource figures, and the window actions that provoke faults.
///
///   animate            holds a DisplayLink that moves and redraws a small square every
///                      frame (prints "animating"); it runs until `stop-animating`
///   stop-animating     invalidates that DisplayLink (prints "stopped FRAMES")
///   idle-link          holds a DisplayLink that only counts its frames and changes nothing
///                      (prints "idling"); `stats` reports its frames
///   blink              holds a repeating 100 ms FrameTimer that redraws a small square,
///                      as a caret blinks (prints "blinking"); `stats` reports its firings
///   stats              prints "stats frames=F buffers=B shm=BYTES rss=BYTES fds=N
///                      width=W height=H unpaced=U": frames animated (or blinks) so far,
///                      live shm buffers and their bytes, resident memory, open file
///                      descriptors, buffer size, commits made without a frame request
///   trim               gives freed heap memory back to the system (malloc_trim), so that
///                      a following `stats` shows memory in use rather than the allocator's
///                      cache (prints "trimmed")
///   minimize           asks the compositor to minimize the window (prints "minimized")
///   storm              retitles the window "Damask Storm", which starts the resize storm
///                      of Tests/WestonModules/resize-storm.c (prints "storming")
///
/// Main-actor; one instance per process (``run(_:window:surface:)`` creates it).
@MainActor
final class ReliabilityCommands {
    private static var shared: ReliabilityCommands?
    private let window: Window
    private let surface: WaylandSurface
    private let pulse = PulseView(frame: CGRect(x: 8, y: 8, width: 24, height: 24))
    private var link: DisplayLink?
    private var blinkTimer: FrameTimer?
    private var framesAnimated = 0

    private init(window: Window, surface: WaylandSurface) {
        self.window = window
        self.surface = surface
    }

    /// Runs `words` if they are one of these commands; false when they are not.
    static func run(_ words: [String], window: Window, surface: WaylandSurface) -> Bool {
        let commands = shared ?? ReliabilityCommands(window: window, surface: surface)
        shared = commands
        return commands.run(words)
    }

    private func run(_ words: [String]) -> Bool {
        guard words.count == 1 else { return false }
        switch words[0] {
        case "animate":
            startAnimating()
            emit("animating")
        case "idle-link":
            startIdleLink()
            emit("idling")
        case "blink":
            startBlinking()
            emit("blinking")
        case "stop-animating":
            link?.invalidate()
            link = nil
            emit("stopped \(framesAnimated)")
        case "stats":
            emit(statistics())
        case "trim":
            Self.trimHeap()
            emit("trimmed")
        case "minimize":
            surface.minimize()
            emit("minimized")
        case "storm":
            surface.title = "Damask Storm"
            emit("storming")
        default:
            return false
        }
        return true
    }

    private func startAnimating() {
        guard link == nil else { return }
        if pulse.superview == nil { window.contentView.addSubview(pulse) }
        link = DisplayLink(window: window) { [unowned self] _, _ in
            framesAnimated += 1
            let travel = max(1, Int(window.bounds.width) - 40)
            pulse.frame.origin.x = 8 + CGFloat(framesAnimated % travel)
            pulse.advance()
        }
    }

    /// A timer that redraws the square ten times a second: each firing is one isolated change.
    private func startBlinking() {
        guard blinkTimer == nil else { return }
        if pulse.superview == nil { window.contentView.addSubview(pulse) }
        blinkTimer = FrameTimer(window: window, interval: 100, repeats: true) { [unowned self] _ in
            framesAnimated += 1
            pulse.advance()
        }
    }

    /// A link that changes nothing: it ticks on idle frames, which cost the compositor nothing.
    private func startIdleLink() {
        guard link == nil else { return }
        link = DisplayLink(window: window) { [unowned self] _, _ in framesAnimated += 1 }
    }

    /// Calls glibc's `malloc_trim(0)`, which the Glibc module does not import.
    private static func trimHeap() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    private func statistics() -> String {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let residentPages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
        let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
        return "stats frames=\(framesAnimated) buffers=\(surface.liveBufferCount) shm=\(surface.liveShmBytes) "
            + "rss=\(residentPages * pageSize) fds=\(descriptors) width=\(surface.pixelWidth) height=\(surface.pixelHeight) "
            + "unpaced=\(window.unpacedCommitCount)"
    }
}
