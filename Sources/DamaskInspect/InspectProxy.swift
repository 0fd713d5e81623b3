import DamaskProcess
import Dispatch
import Foundation
import Glibc

/// The `damask-inspect` proxy: a private Wayland socket for one client command, every
/// connection forwarded to the real compositor through a `ProxySession`, all sockets driven by
/// one `poll` loop so neither direction can block the other.
///
/// Owns the listening socket (unlinked on exit), the sessions, the child process, the log
/// file and the report. Not thread-safe: `run()` is called once, on one thread.
public final class InspectProxy {
    private let options: InspectOptions
    public let report = InspectReport()
    private let started = DispatchTime.now().uptimeNanoseconds
    private var sessions: [ProxySession] = []
    private var listener: Int32 = -1
    private var socketPath = ""
    private var upstreamPath = ""
    /// `WAYLAND_SOCKET` given to us: used for the first connection only (we own it).
    private var upstreamFD: Int32?
    /// The `--log` file's descriptor (-1: none, or closed after a failed write).
    private var log: Int32 = -1
    private var logBuffer: [UInt8] = []
    /// When the log was last written (s since start): lines wait at most a second, so that a
    /// log followed while the client runs (`tail -f`) keeps up with a slow client.
    private var logWrittenAt: Double = 0
    private var evidence: EvidenceWriter?
    /// The `--report` page being gathered, and its file (opened at start, written at the end).
    private var htmlReport: HTMLReport?
    private var reportFD: Int32 = -1
    private var connections = 0

    /// Rows of a commit's pixels compared per turn of the poll loop: at 1920×1080, 64 rows
    /// are ≈ 0.5 MiB of the buffer, ≈ 0.2 ms — the longest a message waits for a comparison.
    static let comparisonStepRows = 64

    /// Seconds a client has to end after the SIGTERM the inspector relays from its own
    /// SIGINT/SIGTERM/SIGHUP before it is killed.
    static let killGrace: Double = 5
    /// A signal this soon (s) after the first counts as the same one.
    static let repeatWindow: Double = 0.5

    /// The process's CPU time when the proxy was made (the runtime's start-up), left out of
    /// the reported cost so that it covers the same span as the wall time beside it.
    private let startCPU = InspectProxy.processCPUSeconds()

    public init(options: InspectOptions) {
        self.options = options
    }

    /// User + system CPU time of this process so far (`getrusage`), in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    deinit {
        if listener >= 0 { close(listener) }
        if !socketPath.isEmpty { unlink(socketPath) }
        if let upstreamFD { close(upstreamFD) }
        if log >= 0 { close(log) }
    }

    /// Seconds since the proxy started.
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }

    /// Runs the client to completion (and until its connections close), then prints the
    /// summary to standard error. Returns the exit status.
    public func run() -> Int32 {
        do {
            try prepare()
        } catch {
            DescriptorOutput.standardError("damask-inspect: \(error)\n")
            return 2
        }
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["WAYLAND_SOCKET"] = nil
        let child: ChildProcess
        do {
            child = try ChildProcess.attached(options.command, environment: environment)
        } catch ChildProcessError.couldNotStart(_, let reason) {
            // Nothing ran, so there is nothing to summarize: one line saying why, status 2.
            DescriptorOutput.standardError("damask-inspect: cannot start \(options.command[0]): \(reason)\n")
            return 2
        } catch {
            // Nothing ran, so there is nothing to summarize: one line saying why, status 2.
            DescriptorOutput.standardError("damask-inspect: \(error)\n")
            return 2
        }
        // After the spawn: the relay blocks and ignores SIGINT/SIGTERM/SIGHUP in this process.
        let relay = SignalRelay()
        var childExit: Double?
        // The first SIGINT/SIGTERM/SIGHUP sends the client SIGTERM; a second one, or the
        // client still running `killGrace` s after the first, ends it with SIGKILL and closes
        // every connection, so that a client ignoring SIGTERM cannot keep the inspector up.
        var signalledAt: Double?
        while true {
            var fds: [pollfd] = [pollfd(fd: relay.readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for session in sessions {
                var clientEvents: Int32 = session.wantsClientInput ? POLLIN : 0
                if session.client.pendingOutput > 0 { clientEvents |= POLLOUT }
                var serverEvents: Int32 = session.wantsServerInput ? POLLIN : 0
                if session.server.pendingOutput > 0 { serverEvents |= POLLOUT }
                fds.append(pollfd(fd: session.client.socket, events: Int16(clientEvents), revents: 0))
                fds.append(pollfd(fd: session.server.socket, events: Int16(serverEvents), revents: 0))
            }
            // A comparison under way runs a step per turn of the loop: the loop only looks
            // at the sockets in between (timeout 0), so no message waits for a whole one.
            let comparing = sessions.contains { !$0.isFinished && $0.tracker.hasPendingComparison }
            let ready = poll(&fds, nfds_t(fds.count), comparing ? 0 : 100)
            let wokeAt = DispatchTime.now().uptimeNanoseconds
            let cpuAt = ProxySession.threadCPUNanoseconds()
            if ready < 0 && errno != EINTR {
                report.connectionError("poll failed: errno \(errno)")
                break
            }
            var interruptedTwice = false
            for number in fds[0].revents != 0 ? relay.drain() : [] where !interruptedTwice {
                if let first = signalledAt, elapsed - first < Self.repeatWindow {
                    // The same interruption delivered twice (`timeout` signals its child and
                    // then the child's whole process group): not a second request.
                    continue
                }
                if signalledAt == nil {
                    signalledAt = elapsed
                    report.interruption = "interrupted by signal \(number): the client was sent SIGTERM"
                    child.signalGroup(SIGTERM)
                } else {
                    report.interruption = "interrupted twice (signal \(number)): the client was killed (SIGKILL) and its connections closed"
                    child.signalGroup(SIGKILL)
                    for session in sessions { session.finish(nil) }
                    interruptedTwice = true
                }
            }
            if interruptedTwice { break }
            if let signalledAt, child.isRunning, elapsed - signalledAt > Self.killGrace {
                report.interruption = "interrupted: the client did not end within \(Int(Self.killGrace)) s of SIGTERM and was killed (SIGKILL)"
                child.signalGroup(SIGKILL)
            }
            if fds[1].revents & Int16(POLLIN) != 0 { acceptConnections() }
            for (index, session) in sessions.enumerated() where fds.count > 2 + 2 * index + 1 {
                let clientEvents = Int32(fds[2 + 2 * index].revents)
                let serverEvents = Int32(fds[3 + 2 * index].revents)
                if serverEvents & (POLLIN | POLLHUP | POLLERR) != 0 { session.serverReadable() }
                if clientEvents & (POLLIN | POLLHUP | POLLERR) != 0 { session.clientReadable(wokeAt: wokeAt, cpuAt: cpuAt) }
                if (clientEvents | serverEvents) & POLLOUT != 0 { session.flush() }
            }
            for session in sessions where !session.isFinished && session.tracker.hasPendingComparison {
                session.tracker.continueComparison()
            }
            sessions.removeAll { $0.isFinished }
            flushLog(force: false)
            if !child.isRunning {
                childExit = childExit ?? elapsed
                // Connections close when the client's process does; wait a little for
                // descendants that keep one open, then end them.
                if sessions.isEmpty { break }
                if let exit = childExit, elapsed - exit > 5 {
                    for session in sessions { session.finish("still open 5 s after the client exited") }
                    break
                }
            }
        }
        while child.isRunning { child.waitForExit(timeout: 60) }
        report.clientOutcome = child.terminationStatus.map { "exit \($0)" } ?? child.terminationSignal.map { "signal \($0)" }
        if child.terminationStatus == 127 && report.surfaces.isEmpty && connections == 0 {
            // A shell's "not found": the client never ran, so no summary, as above.
            DescriptorOutput.standardError("damask-inspect: cannot start \(options.command.joined(separator: " ")): it exited with status 127 (command not found) before connecting\n")
            return 2
        }
        return finishRun()
    }

    private func finishRun() -> Int32 {
        if connections == 0 {
            let display = ProcessInfo.processInfo.environment["DISPLAY"].map { " (DISPLAY=\($0) is set: did it choose X11? e.g. QT_QPA_PLATFORM=wayland, GDK_BACKEND=wayland)" } ?? ""
            report.neverConnected = display
        }
        for session in sessions where !session.isFinished {
            session.tracker.finishComparisons()
            report.pixelMicroseconds += session.tracker.pixelMicroseconds
        }
        flushLog(force: true)
        let cpu = max(0, Self.processCPUSeconds() - startCPU)
        let summary = report.summary(cpuSeconds: cpu, wallSeconds: elapsed)
        if let htmlReport, reportFD >= 0 {
            let page = htmlReport.html(report: report, summary: summary, command: options.command)
            if let failure = DescriptorOutput.write(Array(page.utf8), to: reportFD) {
                report.outputError("cannot write the report \(options.reportPath ?? ""): \(String(cString: strerror(failure)))")
            }
            close(reportFD)
            reportFD = -1
        }
        DescriptorOutput.standardError(report.summary(cpuSeconds: cpu, wallSeconds: elapsed))
        if let line = evidence?.summaryLine { DescriptorOutput.standardError(line + "\n") }
        if let ratio = options.failOver {
            for surface in report.surfacesOver(ratio) {
                let median = SurfaceSummary.median(surface.overDamageOfChanged) ?? 0
                let line = "over --fail-over \(ratio): client \(surface.client) @\(surface.surface) \(surface.role): median damage ÷ changed px \(String(format: "%.2f", median))\n"
                DescriptorOutput.standardError(line)
            }
        }
        return report.exitStatus(failOver: options.failOver)
    }

    // MARK: Setup

    private func prepare() throws {
        let environment = ProcessInfo.processInfo.environment
        let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
        if let text = environment["WAYLAND_SOCKET"], let fd = Int32(text) {
            guard fcntl(fd, F_GETFD) >= 0 else { throw InspectError.connection("WAYLAND_SOCKET=\(text) is not an open file descriptor") }
            upstreamFD = fd
            unsetenv("WAYLAND_SOCKET")
            // Later connections of the client (a second connection, a child process) go to
            // WAYLAND_DISPLAY when that is set too, as a launching compositor usually does.
            if let display = environment["WAYLAND_DISPLAY"], display.hasPrefix("/") || !runtime.isEmpty {
                upstreamPath = display.hasPrefix("/") ? display : "\(runtime)/\(display)"
            }
        } else {
            let display = environment["WAYLAND_DISPLAY"] ?? "wayland-0"
            guard display.hasPrefix("/") || !runtime.isEmpty else {
                throw InspectError.connection("XDG_RUNTIME_DIR is not set, so WAYLAND_DISPLAY=\(display) cannot be found")
            }
            upstreamPath = display.hasPrefix("/") ? display : "\(runtime)/\(display)"
            var status = stat()
            guard stat(upstreamPath, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
                let source = environment["WAYLAND_DISPLAY"] == nil ? "WAYLAND_DISPLAY is not set, so the default wayland-0" : "WAYLAND_DISPLAY=\(display)"
                throw InspectError.connection("no Wayland compositor at \(upstreamPath) (\(source))")
            }
        }
        let directory = runtime.isEmpty ? NSTemporaryDirectory() : runtime
        socketPath = "\(directory)/damask-inspect-\(getpid())"
        listener = try Self.listen(at: socketPath)
        // Every output is checked before any is emptied: a mistake in one (an unwritable
        // --report) must not leave a new empty log behind or truncate an existing one.
        var opened: [(fd: Int32, path: String, created: Bool)] = []
        var ready = false
        defer {
            if !ready {
                for file in opened {
                    close(file.fd)
                    if file.created { unlink(file.path) }
                }
            }
        }
        func openOutput(_ path: String, _ what: String) throws -> Int32 {
            var created = true
            var fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0, errno == EEXIST {
                created = false
                fd = open(path, O_WRONLY | O_CLOEXEC)
                // A dangling symbolic link: create its target, as O_CREAT alone does.
                if fd < 0, errno == ENOENT { fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
            }
            guard fd >= 0 else { throw InspectError.output("cannot write the \(what) \(path): \(String(cString: strerror(errno)))") }
            opened.append((fd, path, created))
            return fd
        }
        let logFD = try options.logPath.map { try openOutput($0, "log") }
        let evidenceWriter = try options.evidenceDirectory.map { try EvidenceWriter(directory: $0) }
        let reportFile = try options.reportPath.map { try openOutput($0, "report") }
        // All usable: empty the files that existed (a pipe or a terminal cannot be, nor need be).
        for file in opened where !file.created { _ = ftruncate(file.fd, 0) }
        ready = true
        log = logFD ?? -1
        evidence = evidenceWriter
        if let reportFile {
            reportFD = reportFile
            htmlReport = HTMLReport()
        }
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw InspectError.connection("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        return address
    }

    private static func listen(at path: String) throws -> Int32 {
        unlink(path)
        var address = try address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw InspectError.connection("cannot create a socket: errno \(errno)") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw InspectError.connection("cannot listen on \(path): errno \(errno)")
        }
        return fd
    }

    private func connectUpstream() -> Int32? {
        if let fd = upstreamFD {
            upstreamFD = nil
            return fd
        }
        guard !upstreamPath.isEmpty, let fd = Optional(socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)), fd >= 0,
            var address = try? Self.address(upstreamPath)
        else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private func acceptConnections() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            guard let upstream = connectUpstream() else {
                report.connectionError(upstreamPath.isEmpty
                    ? "connection \(connections + 1) of the client was refused: WAYLAND_SOCKET gave the inspector one connection to the compositor and WAYLAND_DISPLAY is not set, so a further one cannot be forwarded"
                    : "cannot connect to the compositor at \(upstreamPath): \(String(cString: strerror(errno)))")
                close(fd)
                continue
            }
            connections += 1
            let number = connections
            let tracker = DamageTracker(client: number, clock: { [unowned self] in self.elapsed }) { [unowned self] record, evidence in
                self.record(record, evidence)
            }
            tracker.comparisonStepRows = Self.comparisonStepRows
            sessions.append(ProxySession(number: number, clientSocket: fd, serverSocket: upstream, report: report, tracker: tracker))
        }
    }

    // MARK: Output

    private func record(_ record: CommitRecord, _ pixels: CommitEvidence?) {
        var record = record
        if let pixels, evidence != nil {
            // First, so that the log line names the image.
            do {
                record.evidence = try evidence?.write(record, pixels).map { ($0 as NSString).lastPathComponent }
            } catch {
                report.outputError("cannot write evidence into \(options.evidenceDirectory ?? ""): \(error); no more evidence was written")
                evidence = nil
            }
        }
        report.add(record)
        htmlReport?.add(record, pixels)
        if log >= 0 {
            logBuffer.append(contentsOf: record.jsonLine.utf8)
            logBuffer.append(UInt8(ascii: "\n"))
            flushLog(force: false)
        }
    }

    /// Writes the buffered log lines (at once when `force`, else once 32 KiB have gathered or
    /// a second has passed since the last write: no line waits longer than that). A failed
    /// write (a full disk) ends the log: it is closed, and the summary says so.
    private func flushLog(force: Bool) {
        guard log >= 0, !logBuffer.isEmpty else { return }
        let now = elapsed
        guard force || logBuffer.count > 32_768 || now - logWrittenAt >= 1 else { return }
        logWrittenAt = now
        if let failure = DescriptorOutput.write(logBuffer, to: log) {
            report.outputError("cannot write the log \(options.logPath ?? ""): \(String(cString: strerror(failure))); the log is incomplete")
            close(log)
            log = -1
        }
        logBuffer.removeAll(keepingCapacity: true)
    }
}
