import Foundation

/// A private IBus daemon for one test: its own socket (`IBUS_ADDRESS`), home and config
/// directories, the in-memory config (`ibus-memconf`, no dconf or session bus), no panel,
/// and a global engine (`ibus engine NAME`).
///
/// Owns the daemon's ``TestProcess`` (its process group holds the engine processes it
/// starts; killed in ``stop()`` / `deinit`) and its directory. Not thread-safe: use from one test.
final class IBusDaemon {
    let directory: String
    private let process: TestProcess

    /// The environment IBus's clients (ibus-wayland, the `ibus` command) need.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["IBUS_ADDRESS"] = "unix:path=\(directory)/ibus-socket"
        environment["HOME"] = directory
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        return environment
    }

    /// Starts the daemon and sets `engine` as the global engine (waits until `ibus engine`
    /// reports it; the bound is for failure).
    init(engine: String) throws {
        for program in ["/usr/bin/ibus-daemon", "/usr/bin/ibus", "/usr/libexec/ibus-memconf"]
        where !FileManager.default.isExecutableFile(atPath: program) {
            throw TestProcessError.didNotStart(program: program, waitingFor: "the program", output: "not installed (run scripts/setup)")
        }
        directory = try HostileCompositor.makeTemporaryDirectory(prefix: "damask-ibus")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process = try TestProcess(
            "/usr/bin/ibus-daemon",
            [
                "--panel=disable", "--emoji-extension=disable", "--config=/usr/libexec/ibus-memconf",
                "--address=unix:path=\(directory)/ibus-socket", "--cache=none",
            ],
            environment: environment, mergingErrors: true)
        let deadline = Date().addingTimeInterval(60)
        var reported = ""
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: directory + "/ibus-socket") {
                // Exit status 1 only means setxkbmap could not run (no DISPLAY here).
                _ = try PrivateCompositor.run("/usr/bin/ibus", ["engine", engine], environment: self.environment, timeout: 30)
                reported = try PrivateCompositor.run("/usr/bin/ibus", ["engine"], environment: self.environment, timeout: 30)
                    .output.trimmingCharacters(in: .whitespacesAndNewlines)
                if reported == engine { return }
            }
            usleep(100_000)
        }
        process.kill()
        throw TestProcessError.didNotStart(
            program: "ibus-daemon", waitingFor: "engine \(engine) (ibus engine said '\(reported)')", output: process.transcript)
    }

    deinit { stop() }

    /// Stops the daemon and its engines, and removes the directory. Idempotent.
    func stop() {
        process.kill(grace: 2)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
