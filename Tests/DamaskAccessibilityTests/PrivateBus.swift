import Foundation

/// A private D-Bus daemon (`dbus-daemon --session`) for one test: its address, and the
/// process, ended by ``stop()`` or `deinit`. Knows nothing of AT-SPI.
final class PrivateBus {
    let address: String
    private let process: Process

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The daemon prints its address once it listens (the read waits for it). One that
        // has not printed it within 20 s is killed, which ends the read (end of file).
        let started = process
        let deadline = DispatchWorkItem {
            if started.isRunning { kill(started.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: deadline)
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        deadline.cancel()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("unix:") else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw PrivateBusError.noAddress(String(decoding: data, as: UTF8.self))
        }
        address = line
    }

    deinit { stop() }

    /// Ends the daemon with SIGKILL: a test runner may start children with SIGTERM blocked
    /// (Foundation's `Process` keeps the signal mask), and dbus-daemon has nothing to save.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

enum PrivateBusError: Error {
    /// dbus-daemon printed no address; what it printed.
    case noAddress(String)
}
