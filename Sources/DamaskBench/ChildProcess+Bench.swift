import DamaskProcess
import Foundation

/// What the bench asks of a measured program (a bench client, damask-demo, a peer client):
/// DamaskProcess's ``ChildProcess``, which reads its output on threads of its own, so no line
/// is lost between two waits.
extension ChildProcess {
    /// The path of the running bench executable.
    static var benchExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Waits until the program prints a line starting with `prefix`; returns whether it did
    /// within `timeout` seconds.
    func waitForLine(startingWith prefix: String, timeout: TimeInterval) -> Bool {
        waitForLine(timeout: timeout) { $0.hasPrefix(prefix) } != nil
    }

    /// Closes stdin and, if the program has not exited within 2 s, kills its process group.
    /// Idempotent.
    func stop() {
        guard isRunning else { return }
        closeInput()
        if waitForExit(timeout: 2) == nil { kill() }
    }
}
