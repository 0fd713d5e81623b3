import DamaskGraphics
import DamaskViews
import DamaskWayland
import Dispatch
import Foundation

// damask-test-client: a real Damask client for the integration tests. It opens a window
// (title "Damask Test", 200×150 points unless `--size WxH`) filled with #1E90C8 and runs the
// real main loop (`MainLoop.shared.run()`). Commands arrive one per line on stdin:
//
//   mark X Y W H     the content view redraws that rect in the next colour
//   async            runs Task { @MainActor }, MainActor.run from a detached task and
//                    DispatchQueue.main.async, printing "ran KIND MICROSECONDS SLEEPS" for
//                    each (SLEEPS: how often the main loop slept in between)
//   frames N         holds a DisplayLink for N frames, printing "frame TIMESTAMP" each
//   bad-scale        sends wl_surface.set_buffer_scale(0), a protocol error, so that the
//                    tests see how a protocol error ends the program
//   close            asks the window to close, as its close button does
//   fullscreen 1|0   asks for fullscreen (xdg_toplevel.set_fullscreen on no particular
//                    output) or back to windowed
//   quit             exits 0
//
// It prints "ready WIDTH HEIGHT SURFACE-ID" after the first commit, then "content X Y W H"
// (the content view's frame in surface points), and "commit N x,y,w,h …" after every commit
// (damage in buffer pixels). Errors end it like the demo.
//
// Input reaching the content view is printed too (coordinates in the view's points):
//
//   enter X Y                     the pointer entered the surface (surface points)
//   focus 1|0                     keyboard focus gained or lost
//   pointer down|up X Y BUTTON CLICKS
//   scroll DX DY STEPS-X STEPS-Y
//   wheel V120-X V120-Y           (after each scroll line) its high-resolution steps
//   key down|up KEYSYM repeat=0|1 ms=MS text=TEXT
//                                 (KEYSYM in hex; MS since start; TEXT to the end of the line)
//   touch began|moved|ended|cancelled ID X Y
//   seat pointer,keyboard,touch   a seat's devices at start and after every change (or "none")
//   text TEXT                     after an input method's update (command `text-input on`
//                                 makes the view a text input: MarkableView+TextInput.swift)
//
// With `--seat-version` it prints "seat-version N" at start for each seat (the bound
// wl_seat version).
//
// With `--scroll-view` the left half of the window is a ScrollView of coloured bands
// (BandedScrollView.swift) that prints "offset X Y" whenever it scrolls.
//
// With `--decorated` the window has client-side decorations (DecoratedWindow): a title bar
// with close, maximize and minimize buttons, a shadow with resize handles, and Ctrl+Q. It
// then prints "closed" and exits 0 when asked to close (button, Ctrl+Q or compositor),
// and "states S,S…" after every configure that changes the window's states, and
// "geometry X Y W H" (surface points) after every commit that changes the window geometry it
// sent with xdg_surface.set_window_geometry.

/// Writes one line to stdout at once (stdout is a pipe in the tests; no buffering).
func emit(_ line: String) {
    _ = FileDescriptorWriter.write(Array((line + "\n").utf8), to: STDOUT_FILENO)
}

/// Milliseconds since the process started (monotonic).
let processStart = DispatchTime.now()
func milliseconds() -> UInt64 { (DispatchTime.now().uptimeNanoseconds - processStart.uptimeNanoseconds) / 1_000_000 }

/// The test window's only view: a solid colour, with marked rects drawn in a cycling colour.
final class MarkableView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    static let base = Color(hex: "#1E90C8")!
    static let marks = [Color(hex: "#FF0000")!, Color(hex: "#00FF00")!, Color(hex: "#0000FF")!]
    private(set) var marked: [(CGRect, Color)] = []
    private var nextMark = 0
    /// The text an input method composes into, once `text-input on` made the view take it.
    var editor = EditableText()
    var takesInputMethod = false

    override var canBecomeFirstResponder: Bool { true }

    override func pointerDown(_ event: PointerEvent) {
        let point = event.location(in: self)
        emit("pointer down \(Int(point.x)) \(Int(point.y)) \(Self.name(event.button)) \(event.clickCount)")
    }

    override func pointerUp(_ event: PointerEvent) {
        let point = event.location(in: self)
        emit("pointer up \(Int(point.x)) \(Int(point.y)) \(Self.name(event.button)) \(event.clickCount)")
    }

    override func pointerMoved(_ event: PointerEvent) {}

    override func scrollWheel(_ event: ScrollEvent) {
        emit("scroll \(event.deltaX) \(event.deltaY) \(event.discreteX) \(event.discreteY)")
        emit("wheel \(event.steps120X) \(event.steps120Y)")
    }

    override func keyDown(_ event: KeyEvent) {
        emit("key down \(String(event.keysym, radix: 16)) repeat=\(event.isRepeat ? 1 : 0) ms=\(milliseconds()) text=\(event.text)")
    }

    override func keyUp(_ event: KeyEvent) {
        emit("key up \(String(event.keysym, radix: 16)) repeat=0 ms=\(milliseconds()) text=")
    }

    override func touchesBegan(_ event: TouchEvent) { emitTouch("began", event) }
    override func touchesMoved(_ event: TouchEvent) { emitTouch("moved", event) }
    override func touchesEnded(_ event: TouchEvent) { emitTouch("ended", event) }
    override func touchesCancelled(_ event: TouchEvent) { emitTouch("cancelled", event) }

    private func emitTouch(_ phase: String, _ event: TouchEvent) {
        let point = event.location(in: self)
        emit("touch \(phase) \(event.id) \(Int(point.x)) \(Int(point.y))")
    }

    private static func name(_ button: MouseButton?) -> String {
        switch button {
        case .left: return "left"
        case .right: return "right"
        case .middle: return "middle"
        case .other(let code): return "button\(code)"
        case nil: return "none"
        }
    }

    func mark(_ rect: CGRect) {
        marked.append((rect, Self.marks[nextMark % Self.marks.count]))
        nextMark += 1
        setNeedsDisplay(rect)
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(Self.base)
        context.fill(bounds)
        for (area, color) in marked {
            context.setFillColor(color)
            context.fill(area)
        }
    }
}

@MainActor
final class TestClient {
    let connection: WaylandConnection
    let surface: WaylandSurface
    let window: Window
    let decorated: DecoratedWindow?
    let view: MarkableView
    let sceneCommands: SceneCommands
    var link: DisplayLink?
    var input: (any DispatchSourceRead)?
    var pending = Data()
    let started = DispatchTime.now()

    init(size: CGSize, decorated isDecorated: Bool, scrollView hasScrollView: Bool) throws {
        connection = try WaylandConnection()
        connection.onFatalError = { error in
            StandardError.write("damask-test-client: \(error)\n")
            exit(error.exitStatus)
        }
        view = MarkableView(frame: CGRect(origin: .zero, size: size))
        sceneCommands = SceneCommands(content: view)
        if hasScrollView {
            view.addSubview(BandedScrollView(frame: CGRect(x: 0, y: 0, width: size.width / 2, height: size.height)))
        }
        if isDecorated {
            let decorated = try DecoratedWindow(connection: connection, title: "Damask Test", appID: "org.damask.Test", size: size)
            decorated.contentView = view
            self.decorated = decorated
            surface = decorated.surface
            window = decorated.window
            let onStatesChange = surface.onStatesChange
            surface.onStatesChange = { states in
                onStatesChange?(states)
                emit("states " + TestClient.describe(states))
            }
        } else {
            decorated = nil
            surface = try WaylandSurface(connection: connection, title: "Damask Test", appID: "org.damask.Test", size: size)
            window = Window(surface: surface)
            window.contentView = view
        }
        var announced = false
        var lastGeometry: CGRect?
        let surfaceID = surface.protocolID
        window.onCommit = { [surface, view] report in
            if !announced {
                announced = true
                emit("ready \(surface.pixelWidth) \(surface.pixelHeight) \(surfaceID)")
                let frame = view.convert(view.bounds, to: nil)
                emit("content \(Int(frame.minX)) \(Int(frame.minY)) \(Int(frame.width)) \(Int(frame.height))")
            }
            if let geometry = surface.windowGeometry, geometry != lastGeometry {
                lastGeometry = geometry
                emit("geometry \(Int(geometry.minX)) \(Int(geometry.minY)) \(Int(geometry.width)) \(Int(geometry.height))")
            }
            let rects = report.damageRects.map { "\(Int($0.minX)),\(Int($0.minY)),\(Int($0.width)),\(Int($0.height))" }
            emit("commit \(report.frameNumber) " + rects.joined(separator: " "))
        }
        window.onClose = {
            if isDecorated { emit("closed") }
            // Exit from a clean stack, after libwayland has finished dispatching this event.
            DispatchQueue.main.async { exit(0) }
        }
        let interceptor = surface.eventInterceptor
        surface.eventInterceptor = { event in
            switch event {
            case .pointer(let pointer) where pointer.kind == .entered:
                emit("enter \(Int(pointer.location.x)) \(Int(pointer.location.y))")
            case .keyboardFocus(let focused):
                emit("focus \(focused ? 1 : 0)")
            default:
                break
            }
            return interceptor?(event) ?? false
        }
        // Seat devices appearing or going at run time (mutter's virtual devices).
        let reportCapabilities = { (seat: WaylandSeat) in
            let names: [(SeatCapabilities, String)] = [(.pointer, "pointer"), (.keyboard, "keyboard"), (.touch, "touch")]
            let present = names.filter { seat.capabilities.contains($0.0) }.map(\.1)
            emit("seat " + (present.isEmpty ? "none" : present.joined(separator: ",")))
        }
        for seat in connection.inputSeats.values {
            if CommandLine.arguments.contains("--seat-version") { emit("seat-version \(seat.version)") }
            seat.onCapabilitiesChanged = reportCapabilities
            reportCapabilities(seat)
        }
        connection.onSeatAdded = { [unowned connection] name, _, _ in
            connection.inputSeats[name]?.onCapabilitiesChanged = reportCapabilities
        }
        view.becomeFirstResponder()
        connection.start()
        readCommands()
    }

    static func describe(_ states: ToplevelState) -> String {
        let names: [(ToplevelState, String)] = [
            (.maximized, "maximized"), (.fullscreen, "fullscreen"), (.resizing, "resizing"),
            (.activated, "activated"), (.tiledLeft, "tiled-left"), (.tiledRight, "tiled-right"),
            (.tiledTop, "tiled-top"), (.tiledBottom, "tiled-bottom"),
        ]
        let present = names.filter { states.contains($0.0) }.map(\.1)
        return present.isEmpty ? "none" : present.joined(separator: ",")
    }

    /// Prints "ran KIND MICROSECONDS SLEEPS" for work of `kind` enqueued at `sent`
    /// (microseconds) when the main loop had slept `slept` times.
    func reportRan(_ kind: String, sent: UInt64, slept: Int) {
        emit("ran \(kind) \(microseconds() - sent) \(MainLoop.shared.sleepCount - slept)")
    }

    func microseconds() -> UInt64 { (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1000 }

    func readCommands() {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler { [unowned self] in
            MainActor.assumeIsolated {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count <= 0 { exit(0) }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    run(line)
                }
            }
        }
        source.resume()
        input = source
    }

    func run(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "mark" where words.count == 5:
            let n = words.dropFirst().compactMap { Double($0) }
            view.mark(CGRect(x: n[0], y: n[1], width: n[2], height: n[3]))
        case "async":
            let sent = microseconds()
            let slept = MainLoop.shared.sleepCount
            Task { @MainActor in self.reportRan("task", sent: sent, slept: slept) }
            Task.detached {
                // Counted from the hop itself: under load this task may start only after
                // the loop slept and woke for something else.
                let sleptBeforeHop = MainLoop.shared.sleepCount
                await MainActor.run { self.reportRan("main-actor-run", sent: sent, slept: sleptBeforeHop) }
            }
            DispatchQueue.main.async { self.reportRan("dispatch-async", sent: sent, slept: slept) }
        case "frames" where words.count == 2:
            var remaining = Int(words[1]) ?? 1
            link = DisplayLink(window: window) { [unowned self] link, timestamp in
                emit("frame \(timestamp)")
                remaining -= 1
                if remaining <= 0 { link.invalidate(); self.link = nil }
            }
        case "settle":
            // Answers after the next display pass: everything sent before has been presented
            // (a change waiting for a frame callback included).
            window.afterNextDisplay { [unowned self] in emit("settled \(self.window.frameCount)") }
        case "text-input" where words.count == 2:
            view.takesInputMethod = words[1] == "on"
            window.textInputDidChange()
        case "bad-scale":
            surface.sendInvalidBufferScaleForTesting()
        case "fullscreen" where words.count == 2:
            surface.setFullscreen(words[1] == "1")
        case "close":
            if let decorated { decorated.performClose() } else { window.surfaceDidRequestClose(surface) }
        case "quit":
            exit(0)
        default:
            if !sceneCommands.run(words, window: window, surface: surface)
                && !ReliabilityCommands.run(words, window: window, surface: surface) {
                emit("error unknown command: \(line)")
            }
        }
    }
}

// A closed stdout or stderr pipe must end in an error return from write(2), not a signal.
signal(SIGPIPE, SIG_IGN)
var size = CGSize(width: 200, height: 150)
if let index = CommandLine.arguments.firstIndex(of: "--size"), index + 1 < CommandLine.arguments.count {
    let parts = CommandLine.arguments[index + 1].split(separator: "x").compactMap { Double($0) }
    if parts.count == 2 { size = CGSize(width: parts[0], height: parts[1]) }
}
let client: TestClient
do {
    client = try TestClient(size: size, decorated: CommandLine.arguments.contains("--decorated"),
        scrollView: CommandLine.arguments.contains("--scroll-view"))
} catch let error as WaylandError {
    StandardError.write("damask-test-client: \(error)\n")
    exit(error.exitStatus)
}
MainLoop.shared.run()
