import Foundation

/// The one way the package runs a program (the integration tests, `damask-bench`,
/// `damask-inspect`): spawned in a process group of its own, its stdout collected line by
/// line and its stderr as text, its stdin open for commands, and every wait bounded by a
/// deadline after which the whole group is killed.
///
/// ``run(_:_:environment:timeout:)`` runs a program to completion; the initializer starts
/// one that the test talks to; ``attached(_:environment:)`` starts one on this process's
/// own terminal and in its process group, with nothing collected. A program that cannot be started, or that ends before it
/// says what a test waits for, is reported with its path, arguments and what it printed
/// (``ChildProcessError``).
///
/// Ownership: the process (and its group) belongs to this object; `deinit` kills the group
/// if it is still running and reaps the process. The parent's ends of the three pipes are
/// owned here: stdin's by ``closeInput()`` / `deinit`, stdout's and stderr's by their reader
/// threads, which close them at end of file. A waiter thread reaps the process. All state is
/// guarded by one condition lock, so every method may be called from any thread.
public final class ChildProcess: @unchecked Sendable {
    /// The program's path.
    public let executable: String
    /// Its arguments.
    public let arguments: [String]
    /// Its process id, which is also its process group id unless it was started
    /// ``attached(_:environment:)``.
    public let pid: pid_t
    /// Whether the program leads a process group of its own (started with pipes), which
    /// signals go to; otherwise they go to the program alone.
    private let ownsGroup: Bool
    /// `CLOCK_REALTIME` read just before `posix_spawn` (the clock Weston's log timestamps
    /// come from), so a measurement can start at the program's `exec`.
    public let spawnedAt: timespec

    private let condition = NSCondition()
    private var outputLines: [String] = []
    private var partialLine = Data()
    private var outputEnded = false
    private var errorData = Data()
    private var errorEnded: Bool
    private var exitStatus: Int32?
    private var exitSignal: Int32?
    private var inputDescriptor: Int32

    /// Starts `executable` with `arguments` in `environment` (default: this process's).
    ///
    /// - Parameter mergingErrors: whether stderr goes into the stdout lines (as a terminal
    ///   would interleave them) instead of ``standardError``.
    public convenience init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        mergingErrors: Bool = false
    ) throws {
        try self.init(executable, arguments, environment: environment, streams: .pipes(mergingErrors: mergingErrors))
    }

    /// Starts `command` (its first word searched in `PATH`) in `environment`, sharing this
    /// process's stdin, stdout, stderr and process group: a program run for a user at a
    /// terminal (`damask-inspect`'s client), which reads and prints there and is signalled
    /// with it. Nothing it prints is collected; ``signalGroup(_:)`` and ``kill(grace:)``
    /// signal the program alone.
    public static func attached(_ command: [String], environment: [String: String]? = nil) throws -> ChildProcess {
        precondition(!command.isEmpty, "a command needs a program")
        return try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, streams: .inherited)
    }

    /// How the program's standard streams and process group are set up.
    private enum Streams {
        /// Three pipes read and written here, in a process group of its own.
        case pipes(mergingErrors: Bool)
        /// This process's own streams and process group; the executable searched in `PATH`.
        case inherited
    }

    private init(_ executable: String, _ arguments: [String], environment: [String: String]?, streams: Streams) throws {
        self.executable = executable
        self.arguments = arguments
        let mergingErrors: Bool
        let pipes: (input: (read: Int32, write: Int32), output: (read: Int32, write: Int32), errors: (read: Int32, write: Int32))?
        switch streams {
        case .pipes(let merging):
            mergingErrors = merging
            _ = Self.brokenPipesIgnored
            let input = try Self.makePipe(), output = try Self.makePipe()
            let errors = merging ? output : try Self.makePipe()
            pipes = (input, output, errors)
        case .inherited:
            mergingErrors = false
            pipes = nil
        }
        ownsGroup = pipes != nil

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let pipes {
            posix_spawn_file_actions_adddup2(&actions, pipes.input.read, 0)
            posix_spawn_file_actions_adddup2(&actions, pipes.output.write, 1)
            posix_spawn_file_actions_adddup2(&actions, pipes.errors.write, 2)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // With pipes, a group of its own, so that a deadline kills the program's children
        // too; always default signal dispositions and an empty mask, whatever the spawning
        // thread had.
        var defaults = sigset_t(), empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownsGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        spawnedAt = now
        let spawned = pipes == nil
            ? posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
            : posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        if let pipes {
            // The child has its copies; the parent keeps only its own ends.
            close(pipes.input.read)
            close(pipes.output.write)
            if !mergingErrors { close(pipes.errors.write) }
            if spawned != 0 {
                close(pipes.input.write)
                close(pipes.output.read)
                if !mergingErrors { close(pipes.errors.read) }
            }
        }
        guard spawned == 0 else {
            throw ChildProcessError.couldNotStart(
                program: ([executable] + arguments).joined(separator: " "),
                reason: String(cString: strerror(spawned)))
        }
        pid = child
        if let pipes {
            inputDescriptor = pipes.input.write
            errorEnded = mergingErrors  // no separate stderr to read
            startReader(pipes.output.read, isOutput: true)
            if !mergingErrors { startReader(pipes.errors.read, isOutput: false) }
        } else {
            // Nothing to read or write: its streams are this process's.
            inputDescriptor = -1
            outputEnded = true
            errorEnded = true
        }
        startWaiter()
    }

    deinit {
        if isRunning { kill(grace: 1) }
        closeInput()
    }

    // MARK: Talking to it

    /// Sends one line on stdin (ignored once stdin is closed or the program has gone).
    public func send(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text` to stdin as it is, without a newline (ignored once stdin is closed or
    /// the program has gone).
    public func write(_ text: String) {
        condition.lock()
        let descriptor = inputDescriptor
        condition.unlock()
        guard descriptor >= 0 else { return }
        let data = Array(text.utf8)
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Closes stdin: the program reads end of file. Idempotent.
    public func closeInput() {
        condition.lock()
        let descriptor = inputDescriptor
        inputDescriptor = -1
        condition.unlock()
        if descriptor >= 0 { close(descriptor) }
    }

    // MARK: What it printed

    /// The complete stdout lines so far.
    public var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return outputLines
    }

    /// Everything printed on stderr so far (empty when merged into stdout).
    public var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errorData, as: UTF8.self)
    }

    /// Everything printed so far, stdout's lines then stderr, for failure messages.
    public var transcript: String {
        condition.lock()
        defer { condition.unlock() }
        var text = (outputLines + (partialLine.isEmpty ? [] : [String(decoding: partialLine, as: UTF8.self)]))
            .joined(separator: "\n")
        if !errorData.isEmpty {
            text += (text.isEmpty ? "" : "\n") + String(decoding: errorData, as: UTF8.self)
        }
        return text
    }

    /// Waits until a stdout line at index `start` or later satisfies `predicate`; returns it
    /// with its index, or nil after `timeout` seconds or once stdout has ended without one.
    ///
    /// Predicates run outside the lock, so they may read this object (``lines``) too.
    public func waitForLine(
        from start: Int = 0, timeout: TimeInterval = 10, where predicate: (String) -> Bool
    ) -> (index: Int, line: String)? {
        var next = start
        var found: (index: Int, line: String)?
        _ = waitForChange(timeout: timeout) { lines, _ in
            while next < lines.count {
                if predicate(lines[next]) {
                    found = (next, lines[next])
                    return true
                }
                next += 1
            }
            return false
        }
        return found
    }

    /// Waits until `predicate` holds for the stdout lines, re-checking whenever output
    /// arrives; returns whether it held within `timeout` seconds.
    public func waitUntil(timeout: TimeInterval = 10, _ predicate: ([String]) -> Bool) -> Bool {
        waitForChange(timeout: timeout) { lines, _ in predicate(lines) }
    }

    /// Waits until `predicate` holds for the stdout text so far, an unfinished last line
    /// included; returns whether it held within `timeout` seconds.
    public func waitForText(timeout: TimeInterval = 10, _ predicate: (String) -> Bool) -> Bool {
        waitForChange(timeout: timeout) { lines, partial in
            predicate(lines.map { $0 + "\n" }.joined() + String(decoding: partial, as: UTF8.self))
        }
    }

    /// Evaluates `check` on a snapshot of stdout (complete lines, unfinished line) now and
    /// after every change, outside the lock, until it holds, stdout ends or the deadline
    /// passes.
    private func waitForChange(timeout: TimeInterval, _ check: ([String], Data) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            condition.lock()
            let (lines, partial, ended) = (outputLines, partialLine, outputEnded)
            condition.unlock()
            if check(lines, partial) { return true }
            if ended { return false }
            condition.lock()
            var changed = outputLines.count != lines.count || partialLine != partial || outputEnded
            while !changed {
                if !condition.wait(until: deadline) { break }
                changed = outputLines.count != lines.count || partialLine != partial || outputEnded
            }
            condition.unlock()
            if !changed {
                condition.lock()
                let (last, lastPartial) = (outputLines, partialLine)
                condition.unlock()
                return check(last, lastPartial)
            }
        }
    }

    // MARK: Its end

    /// Whether the program is still running (not yet reaped).
    public var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return exitStatus == nil && exitSignal == nil
    }

    /// The exit status once the program exited normally.
    public var terminationStatus: Int32? {
        condition.lock()
        defer { condition.unlock() }
        return exitStatus
    }

    /// The signal that ended the program, if one did.
    public var terminationSignal: Int32? {
        condition.lock()
        defer { condition.unlock() }
        return exitSignal
    }

    /// Waits up to `timeout` seconds for the program to end; returns its exit status, or nil
    /// when it is still running or was ended by a signal. Once it has ended, what it printed
    /// last is read too (up to 2 s more for the end of its output: a child it left behind
    /// may hold the pipes).
    @discardableResult
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while exitStatus == nil && exitSignal == nil {
            if !condition.wait(until: deadline) { break }
        }
        let ended = exitStatus != nil || exitSignal != nil
        condition.unlock()
        if ended { waitForEndOfOutput(timeout: 2) }
        return terminationStatus
    }

    /// Waits up to `timeout` seconds for stdout and stderr to reach end of file (the program
    /// and every child holding them have closed them).
    public func waitForEndOfOutput(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !(outputEnded && errorEnded) {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// The process id, under `Foundation.Process`'s name.
    public var processIdentifier: pid_t { pid }

    /// How the program ended, under `Foundation.Process`'s names (`.exit` while it runs).
    public var terminationReason: Process.TerminationReason {
        terminationSignal == nil ? .exit : .uncaughtSignal
    }

    /// Sends `signal` to the whole process group (to the program alone when it was started
    /// ``attached(_:environment:)``).
    public func signalGroup(_ signal: Int32) {
        guard isRunning else { return }
        Glibc.kill(signalTarget, signal)
    }

    /// Where signals go: the program's group, or the program alone when it shares ours.
    private var signalTarget: pid_t { ownsGroup ? -pid : pid }

    /// Ends the whole process group: SIGTERM, then SIGKILL after `grace` seconds; waits
    /// until the program is reaped and what it printed has been read (up to 2 s for the end
    /// of its output), so a ``transcript`` taken afterwards is complete. Idempotent.
    public func kill(grace: TimeInterval = 2) {
        guard isRunning else {
            // It ended by itself: its stderr reader may still be behind its stdout reader.
            waitForEndOfOutput(timeout: 2)
            return
        }
        Glibc.kill(signalTarget, SIGTERM)
        if waitForExit(timeout: grace) == nil && isRunning {
            Glibc.kill(signalTarget, SIGKILL)
            while isRunning { waitForExit(timeout: 1) }
        }
        // Children that outlived the program in its group go too.
        if ownsGroup { Glibc.kill(-pid, SIGKILL) }
    }

    // MARK: Running to completion

    /// What a program run to completion did.
    public struct Result {
        /// The exit status (128 + the signal when a signal ended it, as a shell reports).
        public var status: Int32
        /// Stdout and stderr, interleaved as printed.
        public var output: String
        /// Whether it ran into the deadline and was killed.
        public var timedOut: Bool
        /// Whether it exited by itself (not by a signal).
        public var exited: Bool

        /// How it ended, under `Foundation.Process`'s names.
        public var reason: Process.TerminationReason { exited ? .exit : .uncaughtSignal }
    }

    /// Runs a program with stdin at end of file until it exits or `timeout` seconds pass, in
    /// which case its process group is killed and the result says so.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        timeout: TimeInterval = 60
    ) throws -> Result {
        let process = try ChildProcess(executable, arguments, environment: environment, mergingErrors: true)
        process.closeInput()
        var timedOut = false
        if process.waitForExit(timeout: timeout) == nil && process.isRunning {
            timedOut = true
            process.kill(grace: 1)
        }
        // Children left in the group (a shell's background jobs) may hold the pipe open.
        process.waitForEndOfOutput(timeout: 1)
        if !process.hasReachedEndOfOutput { Glibc.kill(-process.pid, SIGKILL) }
        let status = process.terminationStatus ?? (128 + (process.terminationSignal ?? SIGKILL))
        var output = process.transcript
        if timedOut {
            output += "\n[killed after \(timeout) s: \(([executable] + arguments).joined(separator: " "))]"
        }
        return Result(
            status: status, output: output, timedOut: timedOut, exited: process.terminationStatus != nil)
    }

    /// Whether stdout and stderr have both reached end of file.
    public var hasReachedEndOfOutput: Bool {
        condition.lock()
        defer { condition.unlock() }
        return outputEnded && errorEnded
    }

    // MARK: Plumbing

    /// Writing to a program that has gone must fail with EPIPE, not kill the test process.
    private static let brokenPipesIgnored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw ChildProcessError.couldNotStart(program: "pipe", reason: String(cString: strerror(errno)))
        }
        // Only the spawned program gets its ends (as 0, 1, 2); no other child inherits them.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// Reads `descriptor` until end of file on a thread of its own, then closes it.
    private func startReader(_ descriptor: Int32, isOutput: Bool) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                condition.lock()
                guard count > 0 else {
                    if isOutput {
                        if !partialLine.isEmpty {
                            outputLines.append(String(decoding: partialLine, as: UTF8.self))
                            partialLine.removeAll()
                        }
                        outputEnded = true
                    } else {
                        errorEnded = true
                    }
                    condition.broadcast()
                    condition.unlock()
                    close(descriptor)
                    return
                }
                if isOutput {
                    partialLine.append(contentsOf: buffer[0..<count])
                    while let newline = partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                        outputLines.append(String(decoding: partialLine[partialLine.startIndex..<newline], as: UTF8.self))
                        partialLine.removeSubrange(partialLine.startIndex...newline)
                    }
                } else {
                    errorData.append(contentsOf: buffer[0..<count])
                }
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Reaps the process on a thread of its own and records how it ended.
    private func startWaiter() {
        let pid = pid
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            condition.lock()
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
            if status & 0x7F == 0 {
                exitStatus = (status >> 8) & 0xFF
            } else {
                exitSignal = status & 0x7F
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// Why a program a test needed did not start or did not answer.
public enum ChildProcessError: Error, CustomStringConvertible {
    /// `posix_spawn` failed (no such program, not executable, …).
    case couldNotStart(program: String, reason: String)
    /// It started but did not say what the test waited for; what it printed.
    case didNotStart(program: String, waitingFor: String, output: String)

    public var description: String {
        switch self {
        case .couldNotStart(let program, let reason):
            return "could not start \(program): \(reason)"
        case .didNotStart(let program, let waitingFor, let output):
            let printed = output.isEmpty ? "it printed nothing" : "it printed:\n\(output)"
            return "\(program) did not start (waited for \(waitingFor)); \(printed)"
        }
    }
}
