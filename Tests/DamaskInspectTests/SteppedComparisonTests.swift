@testable import DamaskInspect
import Foundation
import Testing

/// The tracker comparing a commit's pixels in steps (`comparisonStepRows`, as the proxy does),
/// so that messages pass between the steps: what may pass, what finishes the comparison
/// first, and that every check stays exact. Counted, not timed.
@Suite("Stepped comparison", .timeLimit(.minutes(5)))
struct SteppedComparisonTests {
    typealias Fixture = DamageTrackerTests.Fixture

    /// A fixture whose tracker compares 2 of the 8 rows per step (4 steps per commit).
    func stepped() throws -> Fixture {
        let f = try Fixture()
        f.tracker.comparisonStepRows = 2
        return f
    }

    @Test("A frame callback's done passes a comparison under way; the buffer's release finishes it first")
    func eventsPassAndReleaseFinishes() throws {
        let f = try stepped()
        f.commitWhole(7)
        #expect(f.tracker.hasPendingComparison, "one step of four done")
        #expect(f.records.isEmpty)
        f.tracker.event(objectID: 20, interface: "wl_callback", message: "done", values: [.uint(1)])
        f.tracker.request(objectID: 1, interface: "wl_display", message: "sync", values: [.newID(21, interface: "wl_callback", version: 1)])
        #expect(f.tracker.hasPendingComparison, "neither an event nor a request the tracker ignores waits for it")
        #expect(f.records.isEmpty)
        f.tracker.continueComparison()
        #expect(f.tracker.hasPendingComparison, "two steps of four done")
        f.release(7)
        #expect(!f.tracker.hasPendingComparison)
        #expect(f.records.count == 1, "the commit's record, made before the release's check")
        #expect(f.records.first?.kind == .buffer)
        #expect(f.tracker.steppedComparisons == 1)
    }

    @Test("A tracker dropped while a comparison is under way is freed (its pending job holds it unowned)")
    func droppedTrackerWithPendingComparisonIsFreed() throws {
        weak var dropped: DamageTracker?
        do {
            let f = try stepped()
            f.commitWhole(7)
            f.commitWhole(8)
            #expect(f.tracker.hasPendingComparison, "the second commit's comparison under way")
            dropped = f.tracker
        }
        #expect(dropped == nil)
    }

    @Test("A round trip's done (wl_display.sync) finishes the comparisons of the commits before it; a frame callback's does not")
    func syncDoneFinishesComparison() throws {
        let f = try stepped()
        f.commitWhole(7)
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "frame", values: [.newID(30, interface: "wl_callback", version: 1)])
        f.tracker.request(objectID: 1, interface: "wl_display", message: "sync", values: [.newID(31, interface: "wl_callback", version: 1)])
        f.tracker.event(objectID: 30, interface: "wl_callback", message: "done", values: [.uint(5)])
        #expect(f.tracker.hasPendingComparison)
        #expect(f.records.isEmpty)
        f.tracker.event(objectID: 31, interface: "wl_callback", message: "done", values: [.uint(6)])
        #expect(!f.tracker.hasPendingComparison)
        #expect(f.records.count == 1)
        // The id, reused for a frame callback after the round trip, no longer finishes one.
        f.commitWhole(8)
        f.tracker.event(objectID: 31, interface: "wl_callback", message: "done", values: [.uint(7)])
        #expect(f.tracker.hasPendingComparison)
    }

    @Test("The next frame's attach and damage pass a comparison under way; its commit finishes the earlier one first")
    func nextCommitFinishesEarlierComparison() throws {
        let f = try stepped()
        f.commitWhole(7)
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "attach", values: [.object(8), .int(0), .int(0)])
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "damage_buffer", values: [.int(0), .int(0), .int(16), .int(8)])
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "frame", values: [.newID(22, interface: "wl_callback", version: 1)])
        #expect(f.records.isEmpty)
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "commit", values: [])
        #expect(f.records.count == 1, "the first commit measured before the second starts")
        #expect(f.tracker.hasPendingComparison, "the second commit's comparison under way")
        f.tracker.finishComparisons()
        #expect(f.records.map(\.commit) == [1, 2])
        #expect(f.records.last?.content == .compared)
    }

    @Test("A write into a row the comparison has read, before the release, is a held write; every record equals the one-step tracker's")
    func heldWriteAfterReadRowIsCaught() throws {
        let f = try stepped()
        f.commitBaseline()
        f.write(buffer: 7, x: 3, y: 6, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 3, y: 6, width: 1, height: 1)])
        f.tracker.continueComparison()  // rows 0–3 read
        f.write(buffer: 7, x: 1, y: 0, 0x0000ff)  // row 0: read already, the compositor holds the buffer
        f.release(7)
        let kinds = f.records.map(\.kind)
        #expect(kinds == [.buffer, .buffer, .heldWrite])
        #expect(f.records[1].changedPixels == 1)
        #expect(f.records[1].underDamagePixels == 0)
        #expect(f.records[2].changedPixels == 1)
        #expect(f.records[2].changedBounds == PixelRect(x: 1, y: 0, width: 1, height: 1))

        // The same messages through a tracker that compares each commit at once.
        let g = try Fixture()
        g.commitBaseline()
        g.write(buffer: 7, x: 3, y: 6, 0x00ff00)
        g.commit(buffer: 7, damage: [PixelRect(x: 3, y: 6, width: 1, height: 1)])
        g.write(buffer: 7, x: 1, y: 0, 0x0000ff)
        g.release(7)
        #expect(g.records.map(\.kind) == kinds)
        #expect(g.records.map(\.changedPixels) == f.records.map(\.changedPixels))
        #expect(g.records.map(\.underDamagePixels) == f.records.map(\.underDamagePixels))
    }

    @Test("A parent's commit that applies a synchronized sub-surface measures both, in order, across steps")
    func subsurfaceMeasuresWaitInOrder() throws {
        let f = try stepped()
        f.makeSubsurface()
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 16, height: 8)])
        #expect(f.records.isEmpty, "cached until the parent's commit")
        f.commitParent()
        #expect(f.tracker.hasPendingComparison)
        var steps = 0
        while f.tracker.hasPendingComparison && steps < 100 {
            f.tracker.continueComparison()
            steps += 1
        }
        #expect(!f.tracker.hasPendingComparison)
        #expect(f.records.map(\.surface) == [11, 10])
        #expect(f.records.last?.content == .new)
    }

    @Test("A client re-committing one buffer copies only the rows that changed into the inspector's copy")
    func oneBufferClientCopiesOnlyChangedRows() throws {
        let f = try Fixture()
        f.commitBaseline()
        let afterFirst = f.tracker.rowsCopiedWhole
        #expect(afterFirst == 8)
        for frame in 0..<4 {
            f.write(buffer: 7, x: frame, y: 5, UInt32(0x10 + frame))
            f.commit(buffer: 7, damage: [PixelRect(x: frame, y: 5, width: 1, height: 1)])
            f.release(7)
        }
        #expect(f.records.allSatisfy { !$0.isOffending })
        #expect(f.records.dropFirst().allSatisfy { $0.changedPixels == 1 })
        // The second commit writes a spare store from scratch (8 rows); from the third on the
        // spare is known equal to the previous content except in row 5.
        #expect(f.tracker.rowsCopiedWhole - afterFirst <= 8 + 3)
    }
}
