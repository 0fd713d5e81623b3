import DamaskGraphics
import DamaskViews
import DamaskWayland
import Foundation

/// `damask-bench client`: a plain Damask window measured from outside by the idle and
/// memory suites.
///
/// It opens a window on `WAYLAND_DISPLAY` (an empty content view, or with `--blink` a caret
/// that a ``FrameTimer`` shows and hides every 500 ms, as the demo's text field does; with
/// `--animate` a progress bar and a swatch that change on every display-link frame; with
/// `--spin` a display link that changes a swatch every 5th frame, as the chromosome
/// scene's spinner does),
/// prints `ready` after the first commit and runs the real main loop (``MainLoop``) until its stdin
/// closes. Each `c` read from stdin prints `commits N frames F` (every `wl_surface.commit` so
/// far, bare ones included; the display link's frames so far, 0 without one).
@MainActor enum BenchClient {
    /// Runs the client; returns only by exiting the process.
    static func run(_ options: BenchOptions.ClientOptions) throws -> Never {
        let connection = try WaylandConnection()
        connection.onFatalError = { error in
            FileHandle.standardError.write(Data("damask-bench client: \(error)\n".utf8))
            exit(1)
        }
        let surface = try WaylandSurface(
            connection: connection, title: "Damask Bench", appID: "org.damask.Bench",
            size: CGSize(width: options.width, height: options.height))
        let window = Window(surface: surface)
        window.contentView.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.96, alpha: 1)
        var timer: FrameTimer?
        if options.blinks {
            let caret = View(frame: CGRect(x: 40, y: 40, width: 2, height: 20))
            caret.backgroundColor = .black
            window.contentView.addSubview(caret)
            timer = FrameTimer(window: window, interval: 500, repeats: true) { _ in caret.isHidden.toggle() }
        }
        var link: DisplayLink?
        if options.animates {
            // The demo's progress animation: a bar and its percentage change on every frame.
            let bar = ProgressBarView(frame: CGRect(x: 40, y: 80, width: 400, height: 12))
            let percentage = SwatchView(frame: CGRect(x: 450, y: 78, width: 16, height: 16))
            window.contentView.addSubview(bar)
            window.contentView.addSubview(percentage)
            link = DisplayLink(window: window) { link in
                bar.progress = CGFloat(link.frameCount % 200) / 200
                percentage.advance()
            }
        } else if options.spins {
            // The chromosome scene's spinner: the link ticks every frame, the picture changes
            // every 5th.
            let spinner = SwatchView(frame: CGRect(x: 40, y: 120, width: 40, height: 40))
            window.contentView.addSubview(spinner)
            link = DisplayLink(window: window) { link in
                if link.frameCount.isMultiple(of: 5) { spinner.advance() }
            }
        }
        var announced = false
        window.onCommit = { _ in
            guard !announced else { return }
            announced = true
            FileHandle.standardOutput.write(Data("ready\n".utf8))
        }
        let stdin = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        stdin.setEventHandler {
            var byte: UInt8 = 0
            if read(STDIN_FILENO, &byte, 1) <= 0 { exit(0) }
            if byte == UInt8(ascii: "c") {
                MainActor.assumeIsolated {
                    let frames = link?.frameCount ?? 0
                    FileHandle.standardOutput.write(Data("commits \(surface.commitCount) frames \(frames)\n".utf8))
                }
            }
        }
        stdin.resume()
        connection.start()
        withExtendedLifetime((surface, window, timer, link, stdin)) {
            MainLoop.shared.run()
        }
    }
}
