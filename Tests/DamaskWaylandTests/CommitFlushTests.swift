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
/// (docs/architecture.md, "One wake-up per event").
@Suite("Commits leave at once", .serialized, .exclusive, .integration, .timeLimit(.minutes(10))) @MainActor
struct CommitFlushTests {
    @Test("Every frame's commit is on the wire before the frame's bookkeeping runs")
    func commitIsSentBeforeTheFramesBookkeeping() async throws {
        let weston = try PrivateCompositor(.weston())
        let connection = try WaylandConnection(name: weston.socketPath)
        defer { connection.close() }
        let surface = try WaylandSurface(
            connection: connection, title: "Damask Commit Flush", appID: "org.damask.Test",
            size: CGSize(width: 120, height: 80))
        defer { surface.close() }
        let window = Window(surface: surface)
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
}
