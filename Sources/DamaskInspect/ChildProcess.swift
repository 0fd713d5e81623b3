import Glibc

/// The client command, started with `posix_spawnp` so that it begins with a clean signal
/// mask and default signal dispositions (the proxy's own signal handling blocks and ignores
/// SIGINT, SIGTERM and SIGHUP, which a child would otherwise inherit and never see).
///
/// Owns the child's pid until it has been reaped. Not thread-safe: polled from the loop.
final class ChildProcess {
    let pid: pid_t
    /// "exit N" or "signal N" once the child has been reaped.
    private(set) var outcome: String?
    private(set) var exitStatus: Int32?

    /// Starts `command` (searched in PATH) with `environment`.
    ///
    /// - Throws: `InspectError.output` naming the command and the system's reason when it
    ///   cannot be started.
    init(_ command: [String], environment: [String: String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = command.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, command[0], nil, &attributes, arguments, variables)
        guard result == 0 else {
            throw InspectError.output("cannot start \(command[0]): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether the child still runs (reaps it when it has ended).
    var isRunning: Bool {
        guard outcome == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result == 0 }
        record(status)
        return false
    }

    /// Waits for the child to end.
    func wait() {
        guard outcome == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        record(status)
    }

    func signal(_ number: Int32) {
        if outcome == nil { kill(pid, number) }
    }

    private func record(_ status: Int32) {
        if status & 0x7f == 0 {
            exitStatus = (status >> 8) & 0xff
            outcome = "exit \((status >> 8) & 0xff)"
        } else {
            outcome = "signal \(status & 0x7f)"
        }
    }
}
