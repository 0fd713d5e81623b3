import Foundation

/// A program started with `posix_spawn` at a known instant, in its own process group, with
/// stdin, stdout and stderr on `/dev/null`: what the start-up suite times from its `exec`.
///
/// Owns the process: ``stop()`` (also run by `deinit`) sends SIGTERM, waits up to 3 s,
/// then SIGKILLs the process group and reaps the process. Not thread-safe: use from one
/// thread.
final class LaunchedProgram {
    /// The process id.
    let pid: pid_t
    /// `CLOCK_REALTIME` just before `posix_spawn`, in milliseconds since the Unix epoch (the
    /// clock Weston's log timestamps come from).
    let spawnedAtMilliseconds: Double
    /// Whether the process has been reaped.
    private var reaped = false

    /// Starts `executable` with `arguments` in `environment`.
    ///
    /// - Throws: `BenchError.helper` naming the program when `posix_spawn` fails.
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        // The argument and environment strings are owned here until posix_spawn returns.
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        spawnedAtMilliseconds = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], envp + [nil])
        guard status == 0 else {
            throw BenchError.helper("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    deinit { stop() }

    /// Whether the process is still running (it has not exited or been reaped).
    var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            reaped = true
            return false
        }
        return true
    }

    /// Sends SIGTERM, waits up to 3 s for the process to exit, then kills its process group
    /// with SIGKILL and reaps it. Idempotent.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = BenchClock.monotonic() + 3_000_000_000
        while isRunning, BenchClock.monotonic() < deadline { usleep(2_000) }
        if isRunning {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            reaped = true
        }
        // What the program started in its group (foot's shell) goes with it.
        kill(-pid, SIGKILL)
    }
}
