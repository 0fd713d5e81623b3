import Dispatch
import Glibc

/// One client connection through the proxy: the client's socket, the matching socket to the
/// real compositor, the objects of the connection, and the tracker that measures its commits.
///
/// Every complete message is decoded with the generated tables (which is how the proxy knows
/// how many fds travel with it), shown to the tracker, then queued to the other side with its
/// fds. Globals the tables cannot decode are removed from the registry; advertised versions
/// are capped at what the tables know. A malformed request gets a `wl_display.error` as from
/// a compositor and the connection ends; nothing here blocks (both sockets are non-blocking).
///
/// Owns both `WireConnection`s. Not thread-safe: driven by `InspectProxy`'s poll loop.
public final class ProxySession {
    /// Stop reading from one side while this many bytes wait to go to the other.
    static let backpressureLimit = 4 << 20

    public let number: Int
    let client: WireConnection
    let server: WireConnection
    public let tracker: DamageTracker
    private let report: InspectReport
    private var objects: [UInt32: (interface: WireInterface, version: Int)] = [:]
    /// Client objects the client destroyed (a destructor request) whose `delete_id` has not
    /// come yet: the compositor already took them out of use, so their ids may be new ids.
    private var destroyedIDs: Set<UInt32> = []
    /// Registry names the client may bind, with interface and (capped) version.
    private var globals: [UInt32: (interface: String, version: UInt32)] = [:]
    private var hiddenNames: Set<UInt32> = []
    /// Set once the connection is over (an error was sent, or a side closed).
    public private(set) var isFinished = false
    /// Commits queued to the compositor and not yet sent: where they end in its output
    /// stream (``WireConnection/bytesQueued``), when the poll loop woke up with them
    /// (`DispatchTime` ns) and the thread's CPU time then (ns).
    private var commitsInFlight: [(end: Int, wokeAt: UInt64, cpuAt: UInt64)] = []

    /// - Parameters:
    ///   - clientSocket, serverSocket: connected sockets; the session owns them from now on.
    init(number: Int, clientSocket: Int32, serverSocket: Int32, report: InspectReport, tracker: DamageTracker) {
        self.number = number
        client = WireConnection(socket: clientSocket)
        server = WireConnection(socket: serverSocket)
        self.report = report
        self.tracker = tracker
        if let display = WireInterface.known["wl_display"] { objects[1] = (display, 1) }
    }

    /// Whether the loop should poll the client socket for input (false while the compositor
    /// is not taking what the client already sent).
    var wantsClientInput: Bool { !isFinished && server.pendingOutput < Self.backpressureLimit }
    var wantsServerInput: Bool { !isFinished && client.pendingOutput < Self.backpressureLimit }

    /// Reads, decodes and forwards what the client sent. `wokeAt` is when the poll loop woke
    /// up with it readable (`DispatchTime` ns) and `cpuAt` the thread's CPU time then
    /// (``threadCPUNanoseconds()``): a commit's forwarding latency counts from there.
    func clientReadable(wokeAt: UInt64, cpuAt: UInt64) {
        let open = client.receive()
        processRequests(wokeAt: wokeAt, cpuAt: cpuAt)
        if !server.flush() { compositorLost("the compositor's socket failed") }
        noteForwardedCommits()
        if !open && !isFinished { finish(hangUpNote) }
    }

    /// The note for a client that has hung up: nil, or what a message it cut off lost (a
    /// compositor drops such a message; so does the proxy, and says so).
    private var hangUpNote: String? {
        let partial = client.unconsumedRange.count
        return partial > 0 ? "the client hung up in the middle of a message: its last \(partial) bytes were never completed and were not forwarded" : nil
    }

    /// The client's socket took no more: the client has usually exited while events for it
    /// were on their way. What it sent before it went is still in the socket, unread if the
    /// proxy was busy, and a compositor would handle it: it is read, checked and forwarded,
    /// then the session ends as at a hang-up (the undeliverable events are dropped).
    private func clientWriteFailed() {
        guard !isFinished else { return }
        let now = DispatchTime.now().uptimeNanoseconds, cpu = Self.threadCPUNanoseconds()
        var open = true
        repeat {
            let before = client.unconsumedRange.count
            open = client.receive()
            let grew = client.unconsumedRange.count > before
            processRequests(wokeAt: now, cpuAt: cpu)
            if !grew { break }
        } while open && !isFinished
        if !server.flush() { return compositorLost("the compositor's socket failed") }
        noteForwardedCommits()
        guard !isFinished else { return }
        finish(open ? "the client's socket failed" : hangUpNote)
    }

    /// Reads, decodes and forwards what the compositor sent.
    func serverReadable() {
        let open = server.receive()
        processEvents()
        if !client.flush() { clientWriteFailed() }
        if !open && !isFinished { compositorLost("the compositor closed the connection") }
    }

    /// Whether the compositor sent this connection a `wl_display.error` (after which it
    /// closes the connection: that is the error's doing, not a lost compositor).
    private var compositorSentError = false

    /// Ends the session because the compositor's side went away. After a protocol error that
    /// is a note; without one the compositor quit or crashed under the client, a connection
    /// error (exit status 2: the run was cut short).
    ///
    /// A compositor closes right after sending its `wl_display.error`, so a write to it can
    /// fail before the proxy has read that error; what it sent is read first.
    private func compositorLost(_ reason: String) {
        guard !isFinished else { return }
        if !compositorSentError {
            server.receive()
            processEvents()
            client.flush()
            guard !isFinished else { return }
        }
        if compositorSentError {
            finish(reason)
        } else {
            report.connectionError("client \(number): \(reason) without a protocol error (did the compositor quit or crash?)")
            finish(nil)
        }
    }

    /// Sends what is queued (the loop calls this when a socket can take more).
    func flush() {
        if !client.flush() { clientWriteFailed() }
        if !server.flush() { compositorLost("the compositor's socket failed") }
        noteForwardedCommits()
    }

    /// Reports the latency of every queued commit the compositor's socket has taken.
    private func noteForwardedCommits() {
        guard let first = commitsInFlight.first, first.end <= server.bytesSent else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.threadCPUNanoseconds()
        let sent = commitsInFlight.prefix { $0.end <= server.bytesSent }
        for commit in sent {
            report.commitForwarded(
                afterMicroseconds: Int((now - min(now, commit.wokeAt)) / 1000), cpuMicroseconds: Int((cpu - min(cpu, commit.cpuAt)) / 1000))
        }
        commitsInFlight.removeFirst(sent.count)
    }

    /// Ends the session: what is queued is flushed once more, then both sockets are closed —
    /// the compositor's gracefully, so that it handles every request the client sent before
    /// it sees the connection end (see ``WireConnection/closeGracefully(milliseconds:)``).
    func finish(_ reason: String?) {
        guard !isFinished else { return }
        isFinished = true
        tracker.finishComparisons()
        report.pixelMicroseconds += tracker.pixelMicroseconds
        client.flush()
        client.close()
        server.closeGracefully(milliseconds: 1000)
        if let reason { report.connectionNote(client: number, reason) }
    }

    // MARK: Requests

    /// The calling thread's CPU time in ns (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private func processRequests(wokeAt: UInt64, cpuAt: UInt64) {
        while !isFinished {
            let start = client.unconsumedRange.lowerBound
            guard let header = WireCodec.header(in: client.incoming, at: start) else { return }
            guard header.size >= 8, header.size % 4 == 0 else {
                // What libwayland-server says about it: the target's lookups come first, then
                // the arguments it cannot decode from a message that short.
                let detail = "message of invalid size \(header.size) to object \(header.objectID)"
                guard let object = objects[header.objectID] else {
                    return clientError(WireError(.invalidObject, objectID: header.objectID, detail, sentMessage: "invalid object \(header.objectID)"))
                }
                let name = object.interface.name
                guard header.opcode < object.interface.requests.count else {
                    return clientError(WireError(.invalidMethod, objectID: header.objectID, detail, sentMessage: "invalid method \(header.opcode), object \(name)@\(header.objectID)"))
                }
                let request = object.interface.requests[header.opcode].name
                return clientError(WireError(.invalidMethod, objectID: header.objectID, detail, sentMessage: "invalid arguments for \(name)@\(header.objectID).\(request)"))
            }
            guard client.unconsumedRange.count >= header.size else { return }
            do {
                let (interface, message, values, fds) = try decodeRequest(header, start: start)
                try register(request: message, of: interface, objectID: header.objectID, values: values)
                if message.isDestructor { destroyedIDs.insert(header.objectID) }
                let isCommit = message.name == "commit" && interface.name == "wl_surface"
                if !isCommit {
                    tracker.request(objectID: header.objectID, interface: interface.name, message: message.name, values: values)
                }
                if interface.name == "wl_surface", message.name == "destroy" {
                    // Its records are all in (the destroy finished its comparisons): a new
                    // surface that gets its id (libwayland reuses ids) is a row of its own.
                    report.surfaceEnded(client: number, surface: header.objectID)
                }
                server.enqueue(client.incoming[start..<(start + header.size)], fds: fds)
                client.consume(header.size)
                if isCommit {
                    // The commit leaves before its pixels are read, so the comparison adds no
                    // latency to it; the tracker then compares in steps, between which the
                    // poll loop forwards whatever else arrives. The pixels cannot change
                    // legally meanwhile: the client may not touch a committed buffer before
                    // its wl_buffer.release, and that event reaches the client only through
                    // this proxy, which finishes the comparison before handling it. A write
                    // before the release is exactly what the held-write check is for, and its
                    // window (from the client sending the commit to the proxy reading that
                    // row) is the same as when the commit waited for the comparison.
                    commitsInFlight.append((server.bytesQueued, wokeAt, cpuAt))
                    if !server.flush() { return compositorLost("the compositor's socket failed") }
                    noteForwardedCommits()
                    tracker.request(objectID: header.objectID, interface: interface.name, message: message.name, values: values)
                }
            } catch let error as WireError {
                return clientError(error)
            } catch {
                return clientError(WireError(.implementation, objectID: header.objectID, "\(error)"))
            }
        }
    }

    private func decodeRequest(_ header: WireCodec.Header, start: Int) throws -> (WireInterface, WireMessage, [WireValue], [Int32]) {
        guard let object = objects[header.objectID] else {
            throw WireError(.invalidObject, objectID: header.objectID, "invalid object \(header.objectID)")
        }
        let interface = object.interface
        guard header.opcode < interface.requests.count else {
            throw WireError(.invalidMethod, objectID: header.objectID, "invalid method \(header.opcode), object \(interface.name)@\(header.objectID)")
        }
        let message = interface.requests[header.opcode]
        guard message.since <= object.version else {
            throw WireError(.invalidMethod, objectID: header.objectID, "invalid method \(header.opcode) (since \(message.since) > version \(object.version)), object \(interface.name)@\(header.objectID)")
        }
        var fds = client.incomingFDs[...]
        let values: [WireValue]
        do {
            values = try WireCodec.decode(
                client.incoming[(start + 8)..<(start + header.size)], as: message, objectID: header.objectID,
                interface: interface.name, fds: &fds)
        } catch let error as WireError {
            // libwayland-server reports every argument it cannot decode with one wording.
            throw WireError(error.code, objectID: header.objectID, error.message,
                            sentMessage: "invalid arguments for \(interface.name)@\(header.objectID).\(message.name)")
        }
        let used = client.incomingFDs.count - fds.count
        let taken = Array(client.incomingFDs.prefix(used))
        client.incomingFDs.removeFirst(used)
        return (interface, message, values, taken)
    }

    private func register(request message: WireMessage, of interface: WireInterface, objectID: UInt32, values: [WireValue]) throws {
        let version = objects[objectID]?.version ?? 1
        for value in values {
            guard case .newID(let id, let name, let bindVersion) = value else { continue }
            guard id < WireCodec.serverIDBase else {
                throw WireError(.invalidMethod, objectID: objectID, "invalid new id \(id) (in the compositor's range)",
                                sentMessage: "invalid arguments for \(interface.name)@\(objectID).\(message.name)")
            }
            // An id still in use (or 0) is what libwayland-server rejects while decoding the
            // message, with this error; forwarding it would make the inspector's copy of the
            // object map disagree with the compositor's (a new_id 1 would replace wl_display).
            guard id != 0, objects[id] == nil || destroyedIDs.contains(id) else {
                throw WireError(.invalidMethod, objectID: objectID, "invalid arguments for \(interface.name)@\(objectID).\(message.name)")
            }
            destroyedIDs.remove(id)
            if interface.name == "wl_registry" {
                guard case .uint(let globalName) = values.first, let global = globals[globalName] else {
                    throw WireError(.invalidObject, objectID: objectID, "invalid global \(name ?? "?") (\(values.first?.integer ?? 0))", errorObject: objectID)
                }
                guard name == global.interface else {
                    throw WireError(.invalidObject, objectID: objectID, "invalid interface for global \(global.interface): wanted \(name ?? "?")", errorObject: objectID)
                }
                guard bindVersion >= 1, bindVersion <= global.version, let known = WireInterface.known[global.interface] else {
                    throw WireError(.invalidObject, objectID: objectID, "invalid version for global \(global.interface) (\(values.first?.integer ?? 0)): have \(global.version), wanted \(bindVersion)", errorObject: objectID)
                }
                objects[id] = (known, Int(bindVersion))
            } else if let name, let known = WireInterface.known[name] {
                objects[id] = (known, version)
            } else {
                throw WireError(.implementation, objectID: objectID, "new object of unknown interface \(name ?? "?")")
            }
        }
    }

    private func clientError(_ error: WireError) {
        let sent = error.sentMessage == error.message ? "" : " (sent as: \(error.sentMessage))"
        report.protocolError("client \(number): \(error.message)\(sent)")
        let bytes = WireCodec.encode(objectID: 1, opcode: 0, [.object(error.errorObject), .uint(error.code.rawValue), .string(error.sentMessage)])
        client.enqueue(bytes[...], fds: [])
        finish(nil)
    }

    // MARK: Events

    private func processEvents() {
        while !isFinished {
            let start = server.unconsumedRange.lowerBound
            guard let header = WireCodec.header(in: server.incoming, at: start) else { return }
            guard header.size >= 8, header.size % 4 == 0 else {
                return finish("the compositor sent a message of invalid size \(header.size)")
            }
            guard server.unconsumedRange.count >= header.size else { return }
            guard let object = objects[header.objectID], header.opcode < object.interface.events.count else {
                return finish("the compositor sent event \(header.opcode) to object \(header.objectID), which the inspector cannot decode")
            }
            let interface = object.interface
            let message = interface.events[header.opcode]
            var fds = server.incomingFDs[...]
            let values: [WireValue]
            do {
                values = try WireCodec.decode(
                    server.incoming[(start + 8)..<(start + header.size)], as: message, objectID: header.objectID,
                    interface: interface.name, fds: &fds)
            } catch {
                return finish("the compositor sent a malformed event: \(error)")
            }
            let used = server.incomingFDs.count - fds.count
            let taken = Array(server.incomingFDs.prefix(used))
            server.incomingFDs.removeFirst(used)
            var bytes = server.incoming[start..<(start + header.size)]
            server.consume(header.size)
            for value in values {
                if case .newID(let id, let name, _) = value, let name, let known = WireInterface.known[name] {
                    objects[id] = (known, object.version)
                }
            }
            switch (interface.name, message.name) {
            case ("wl_registry", "global"):
                guard case .uint(let name) = values[0], case .string(let text?) = values[1], case .uint(let offered) = values[2] else { break }
                guard let known = WireInterface.known[text] else {
                    hiddenNames.insert(name)
                    report.hide(text, version: offered)
                    continue
                }
                let version = min(offered, UInt32(known.version))
                globals[name] = (text, version)
                if version != offered {
                    bytes = WireCodec.encode(objectID: header.objectID, opcode: header.opcode, [.uint(name), .string(text), .uint(version)])[...]
                }
            case ("wl_registry", "global_remove"):
                if case .uint(let name) = values[0] {
                    globals[name] = nil
                    if hiddenNames.remove(name) != nil { continue }
                }
            case ("wl_display", "delete_id"):
                if case .uint(let id) = values[0] {
                    objects[id] = nil
                    destroyedIDs.remove(id)
                }
            case ("wl_display", "error"):
                compositorSentError = true
                report.protocolError("compositor to client \(number): \(WireCodec.describe(interface.name, header.objectID, message, values))")
            default:
                break
            }
            tracker.event(objectID: header.objectID, interface: interface.name, message: message.name, values: values)
            client.enqueue(bytes, fds: taken)
        }
    }
}
