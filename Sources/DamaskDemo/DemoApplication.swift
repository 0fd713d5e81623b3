import DamaskGraphics
import DamaskViews
import DamaskWayland
import Foundation

/// The running demo: a window on a Wayland compositor (or in memory with `--headless`),
/// its content, and what ends the program.
///
/// Owns the connection, the surface and the window for the life of the process.
/// Main-actor.
@MainActor
final class DemoApplication {
    private let options: DemoOptions
    private var connection: WaylandConnection?
    private var surface: (any Surface)?
    private var window: Window?
    private var signalMonitor: SignalMonitor?
    private var damageLog: DamageLog?

    init(options: DemoOptions) {
        self.options = options
    }

    /// Opens the window and starts handling events; the caller then runs the main loop.
    ///
    /// - Throws: `WaylandError` or `DemoError`; the caller reports it and exits.
    func start() throws {
        if let path = options.damageLogPath { damageLog = try DamageLog(path: path) }
        let size = CGSize(width: options.size.width, height: options.size.height)
        let surface: any Surface
        if options.headless {
            surface = MemorySurface(
                size: size, scale: CGFloat(options.scale), releasePolicy: .immediate,
                frameClock: .simulated(intervalMilliseconds: 16))
        } else {
            let connection = try WaylandConnection()
            connection.onFatalError = { error in
                Self.fail(with: error.description, status: error.exitStatus)
            }
            surface = try WaylandSurface(connection: connection, title: "Damask", appID: "org.damask.Demo", size: size)
            self.connection = connection
        }
        surface.title = "Damask"
        let window = Window(surface: surface)
        window.contentView = DemoContentView(frame: window.bounds)
        window.onClose = { [weak self] in self?.quit(status: 0) }
        if let damageLog { window.onCommit = { damageLog.record($0) } }
        self.surface = surface
        self.window = window
        signalMonitor = SignalMonitor { [weak self] _ in self?.quit(status: 0) }
        connection?.start()
        window.setNeedsDisplay()
    }

    /// Closes the window, disconnects and exits with `status`.
    func quit(status: Int32) -> Never {
        window = nil
        (surface as? WaylandSurface)?.close()
        connection?.close()
        exit(status)
    }

    /// Prints `message` prefixed with the program's name and exits with `status`.
    static func fail(with message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("damask-demo: \(message)\n".utf8))
        exit(status)
    }
}
