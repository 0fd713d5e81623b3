import DamaskControls
import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// A frame's commit leaves for the compositor the moment it is made, before the rest of the
/// frame's work: under Weston's pixman renderer that is what lets the compositor's answer
/// (the release of the previous buffer) be waiting when the main loop looks before
/// sleeping, instead of waking the process a second time per frame
/// (docs/architecture.md, "One wake-up per event"). The focused field's text-input batch
/// goes in the same write (docs/performance.md, "One write per key").
@Suite("Commits leave at once", .serialized, .exclusive, .integration, .timeLimit(.minutes(10))) @MainActor
struct CommitFlushTests {
    /// A window `width` points wide and 80 high on a new connection to `weston`; the caller
    /// closes the surface, then the connection.
    static func openWindow(on weston: PrivateCompositor, title: String, width: CGFloat) throws -> (WaylandConnection, WaylandSurface, Window) {
        let connection = try WaylandConnection(name: weston.socketPath)
        do {
            let surface = try WaylandSurface(
                connection: connection, title: title, appID: "org.damask.Test", size: CGSize(width: width, height: 80))
            return (connection, surface, Window(surface: surface))
        } catch {
            connection.close()
            throw error
        }
    }

    @Test("Every frame's commit is on the wire before the frame's bookkeeping runs")
    func commitIsSentBeforeTheFramesBookkeeping() async throws {
        let weston = try PrivateCompositor(.weston())
        let (connection, surface, window) = try Self.openWindow(on: weston, title: "Damask Commit Flush", width: 120)
        defer { surface.close(); connection.close() }
        let swatch = View(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        window.contentView.addSubview(swatch)
        // Bytes still waiting to be sent when each commit's report is delivered: the report
        // comes after the commit, in the same pass, so anything buffered here was held back.
        var unsentAtReport: [Int] = []
        window.onCommit = { _ in unsentAtReport.append(connection.flush()) }
        let link = DisplayLink(window: window) { link in
            swatch.backgroundColor = link.frameCount.isMultiple(of: 2) ? .black : .white
        }
        defer { link.invalidate() }
        connection.start()
        for _ in 0..<1000 where unsentAtReport.count < 8 {
            try await Task.sleep(for: .milliseconds(10))
        }
        // Commits after the first were made on Weston's frame callbacks, by the link.
        #expect(unsentAtReport.count >= 8, "only \(unsentAtReport.count) commits in 10 s")
        #expect(link.frameCount >= 7)
        #expect(unsentAtReport.allSatisfy { $0 == 0 }, "bytes held back past the commit: \(unsentAtReport)")
    }

    @Test("A typed key costs one write: the focused field's text-input batch leaves with the frame's commit")
    func typedKeyIsOneWrite() async throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/keys"
        try #require(mkfifo(fifo, 0o600) == 0, "cannot make \(fifo)")
        var environment = ProcessInfo.processInfo.environment
        environment["DAMASK_SEAT_KEYS"] = fifo
        let weston = try PrivateCompositor(.weston(seat: true), environment: environment)
        defer { weston.stop() }
        let (connection, surface, window) = try Self.openWindow(on: weston, title: "Damask One Write", width: 300)
        defer { surface.close(); connection.close() }
        let field = TextField(frame: CGRect(x: 10, y: 20, width: 280, height: 40))
        window.contentView.addSubview(field)
        #expect(field.becomeFirstResponder())
        connection.start()
        // Weston gives the new window the keyboard focus, which activates text-input v1.
        let enabled = { connection.inputSeats.values.contains { $0.textInput.binding?.isEnabled == true } }
        for _ in 0..<1000 where !enabled() || surface.commitCount < 2 || surface.isFramePending {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(enabled(), "the text input was never enabled")
        let writer = try #require(FileHandle(forWritingAtPath: fifo), "cannot open the seat's FIFO")
        defer { try? writer.close() }
        let keys = 20, codes = [30, 31, 32, 33, 34, 35, 36, 37, 38], letters = Array("asdfghjkl")
        let (writesBefore, commitsBefore) = (connection.writeCount, surface.commitCount)
        for index in 0..<keys {
            // With no frame callback outstanding, the key's commit is not held for one: the
            // batch made by the key is sent with it, not by its 20 ms timer.
            for _ in 0..<1000 where surface.isFramePending { try await Task.sleep(for: .milliseconds(1)) }
            let (code, commits) = (codes[index % codes.count], surface.commitCount)
            writer.write(Data("down \(code)\n".utf8))
            for _ in 0..<10_000 where surface.commitCount == commits { try await Task.sleep(for: .milliseconds(1)) }
            #expect(surface.commitCount > commits, "key \(index) was not committed")
            writer.write(Data("up \(code)\n".utf8))
            try await Task.sleep(for: .milliseconds(40))  // past the batch's 20 ms timer
        }
        let writes = connection.writeCount - writesBefore, commits = surface.commitCount - commitsBefore
        #expect(field.text == String((0..<keys).map { letters[$0 % letters.count] }))
        // The activation's batch, then one per key (each changed the field).
        let batches = weston.logLines(containing: "zwp_text_input_v1@").count { $0.contains(".commit_state(") }
        #expect(batches == keys + 1, "\(batches) text-input batches for \(keys) keys")
        // A blink of the caret is a commit of its own, with a write of its own.
        #expect(commits >= keys && commits <= keys + 2, "\(commits) commits for \(keys) keys")
        #expect(writes == commits, "\(writes) writes for \(commits) commits of \(keys) keys")
    }
}
