@testable import DamaskInspect
import Foundation
import Glibc
import Testing

/// A `ProxySession` between two socket pairs the test drives as the client and as the
/// compositor (no poll loop: the test calls the session where the loop would), with the
/// tracker comparing in steps as the proxy sets it up. Counted, not timed.
@Suite("Proxy forwarding", .timeLimit(.minutes(5)))
struct ProxyForwardingTests {
    /// Records the tracker made.
    final class Records {
        var all: [CommitRecord] = []
    }

    /// The opcode of `interface`'s request (or event) `name`, from the generated tables.
    func opcode(_ interface: String, request name: String) throws -> Int {
        try #require(WireInterface.known[interface]?.requests.firstIndex { $0.name == name })
    }

    func opcode(_ interface: String, event name: String) throws -> Int {
        try #require(WireInterface.known[interface]?.events.firstIndex { $0.name == name })
    }

    /// Object ids and opcodes of the messages the whole of `bytes` holds, in order.
    func messages(in connection: WireConnection) -> [(object: UInt32, opcode: Int)] {
        var result: [(object: UInt32, opcode: Int)] = []
        var offset = connection.unconsumedRange.lowerBound
        while let header = WireCodec.header(in: connection.incoming, at: offset), header.size >= 8,
            offset + header.size <= connection.incoming.count
        {
            result.append((header.objectID, header.opcode))
            offset += header.size
        }
        connection.consume(offset - connection.unconsumedRange.lowerBound)
        return result
    }

    /// A session between two new socket pairs, and the test's ends of them: `app` plays the
    /// client, `compositor` the compositor. The session owns the other two ends.
    func connectedSession(report: InspectReport, tracker: DamageTracker) throws -> (app: WireConnection, compositor: WireConnection, session: ProxySession) {
        var clientPair: [Int32] = [-1, -1], serverPair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &clientPair) == 0)
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &serverPair) == 0)
        let session = ProxySession(number: 1, clientSocket: clientPair[1], serverSocket: serverPair[1], report: report, tracker: tracker)
        return (WireConnection(socket: clientPair[0]), WireConnection(socket: serverPair[0]), session)
    }

    @Test("A frame callback's done reaches the client while the commit's comparison is under way; the release after it waits for the comparison")
    func frameDoneIsForwardedDuringComparison() throws {
        let records = Records()
        let tracker = DamageTracker(client: 1, clock: { 0 }) { record, _ in records.all.append(record) }
        tracker.comparisonStepRows = 4
        let (app, compositor, session) = try connectedSession(report: InspectReport(), tracker: tracker)

        // A 16×64 XRGB8888 buffer in a file: 16 steps of 4 rows.
        let (width, height) = (16, 64)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-proxy-\(getpid())-\(UUID().uuidString)").path
        let file = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(file >= 0)
        unlink(path)
        defer { close(file) }
        try #require(ftruncate(file, off_t(width * height * 4)) == 0)

        func send(_ connection: WireConnection, _ object: UInt32, _ opcode: Int, _ values: [WireValue], fds: [Int32] = []) {
            connection.enqueue(WireCodec.encode(objectID: object, opcode: opcode, values)[...], fds: fds)
        }
        send(app, 1, try opcode("wl_display", request: "get_registry"), [.newID(2, interface: nil, version: 0)])
        #expect(app.flush())
        session.clientReadable(wokeAt: 0, cpuAt: 0)
        #expect(compositor.receive())
        #expect(messages(in: compositor).count == 1)
        let global = try opcode("wl_registry", event: "global")
        send(compositor, 2, global, [.uint(1), .string("wl_shm"), .uint(1)])
        send(compositor, 2, global, [.uint(2), .string("wl_compositor"), .uint(4)])
        #expect(compositor.flush())
        session.serverReadable()
        #expect(app.receive())
        #expect(messages(in: app).count == 2)

        let bind = try opcode("wl_registry", request: "bind")
        send(app, 2, bind, [.uint(1), .newID(3, interface: "wl_shm", version: 1)])
        send(app, 2, bind, [.uint(2), .newID(4, interface: "wl_compositor", version: 4)])
        send(app, 3, try opcode("wl_shm", request: "create_pool"), [.newID(5, interface: nil, version: 0), .int(Int32(width * height * 4))],
             fds: [dup(file)])
        send(app, 5, try opcode("wl_shm_pool", request: "create_buffer"),
             [.newID(6, interface: nil, version: 0), .int(0), .int(Int32(width)), .int(Int32(height)), .int(Int32(width * 4)), .uint(1)])
        send(app, 4, try opcode("wl_compositor", request: "create_surface"), [.newID(7, interface: nil, version: 0)])
        send(app, 7, try opcode("wl_surface", request: "attach"), [.object(6), .int(0), .int(0)])
        send(app, 7, try opcode("wl_surface", request: "damage_buffer"), [.int(0), .int(0), .int(Int32(width)), .int(Int32(height))])
        send(app, 7, try opcode("wl_surface", request: "frame"), [.newID(8, interface: nil, version: 0)])
        let commit = try opcode("wl_surface", request: "commit")
        send(app, 7, commit, [])
        #expect(app.flush())
        session.clientReadable(wokeAt: 0, cpuAt: 0)
        #expect(!session.isFinished)
        #expect(compositor.receive())
        let forwarded = messages(in: compositor)
        #expect(forwarded.last.map { $0.object == 7 && $0.opcode == commit } == true, "the commit is forwarded before its comparison")
        #expect(tracker.hasPendingComparison, "one step of 16 done")
        #expect(records.all.isEmpty)

        // The compositor's frame callback: forwarded at once, the comparison still under way.
        send(compositor, 8, try opcode("wl_callback", event: "done"), [.uint(16)])
        #expect(compositor.flush())
        session.serverReadable()
        #expect(app.receive())
        #expect(messages(in: app).map(\.object) == [8], "the done reached the client")
        #expect(tracker.hasPendingComparison, "while the comparison is still under way")
        #expect(records.all.isEmpty)
        tracker.continueComparison()
        #expect(tracker.hasPendingComparison)

        // The buffer's release: the comparison is finished first, then the release goes on.
        send(compositor, 6, try opcode("wl_buffer", event: "release"), [])
        #expect(compositor.flush())
        session.serverReadable()
        #expect(!tracker.hasPendingComparison)
        #expect(records.all.count == 1)
        #expect(records.all.first?.content == .new)
        #expect(tracker.steppedComparisons == 1)
        #expect(app.receive())
        #expect(messages(in: app).map(\.object) == [6], "the release reached the client after the comparison")
        compositor.close()
        session.finish(nil)
    }

    @Test("A protocol error the compositor sent just before closing is reported as that error, even when the proxy's next write fails before it has read the error")
    func errorBeforeHangUpIsReportedWhenAWriteFailsFirst() throws {
        let report = InspectReport()
        let (app, compositor, session) = try connectedSession(report: report, tracker: DamageTracker(client: 1, clock: { 0 }) { _, _ in })
        defer { app.close() }

        let sync = try opcode("wl_display", request: "sync")
        app.enqueue(WireCodec.encode(objectID: 1, opcode: sync, [.newID(2, interface: nil, version: 0)])[...], fds: [])
        #expect(app.flush())
        session.clientReadable(wokeAt: 0, cpuAt: 0)
        // The compositor sends an error and closes without reading the request (as Weston does
        // for a wl_shm pool it could not read): the proxy's socket now fails writes.
        let error = try opcode("wl_display", event: "error")
        compositor.enqueue(WireCodec.encode(objectID: 1, opcode: error, [.object(1), .uint(2), .string("error accessing SHM buffer")])[...], fds: [])
        #expect(compositor.flush())
        compositor.close()
        // The client's next request reaches the proxy before the poll loop reports the
        // compositor's socket readable.
        app.enqueue(WireCodec.encode(objectID: 1, opcode: sync, [.newID(3, interface: nil, version: 0)])[...], fds: [])
        #expect(app.flush())
        session.clientReadable(wokeAt: 0, cpuAt: 0)

        #expect(session.isFinished)
        #expect(report.connectionErrors.isEmpty, "\(report.connectionErrors)")
        #expect(report.protocolErrors.count == 1)
        #expect(report.protocolErrors.first?.contains("error accessing SHM buffer") == true, "\(report.protocolErrors)")
        // The error reached the client too.
        app.receive()
        #expect(messages(in: app).map(\.opcode) == [error])
    }
}
