import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Frame pacing, buffers running out, commit reports and the damage flash.
extension ViewsTests {
    @Suite("Pacing", .exclusive, .timeLimit(.minutes(5))) @MainActor struct Pacing {
        @Test("At most one commit per frame callback, however many turns pass")
        func atMostOneCommitPerFrameCallback() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await nextTurn()
            #expect(h.commitCount == 1)
            for step in 0..<5 {
                view.center.x += 1
                view.color = step % 2 == 0 ? .blue : .green
                view.setNeedsDisplay()
                await nextTurn()
            }
            #expect(h.commitCount == 1)
            h.frame()
            #expect(h.commitCount == 2)
            #expect(view.drawCount == 2)
        }

        @Test("A window that never gets frame callbacks neither spins nor blocks, and flush still commits")
        func windowWithoutFrameCallbacksNeitherSpinsNorBlocks() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await nextTurn()
            let passes = h.window.passCount
            for _ in 0..<20 {
                view.center.x += 1
                await nextTurn()
            }
            #expect(h.window.passCount == passes)
            #expect(h.surface.frameRequestCount == 1)
            h.window.flush()
            #expect(h.commitCount == 2)
            #expect(
                h.lastDamage
                    == Region(rects: [
                        CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 20, y: 0, width: 10, height: 10),
                    ]))
        }

        @Test("Running out of buffers waits for a release without spinning")
        func runningOutOfBuffersWaitsForRelease() async {
            let h = Harness(capacity: 2, release: .never)
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await nextTurn()
            view.center.x += 1
            h.frame()
            #expect(h.commitCount == 2)
            view.center.x += 1
            h.frame()
            #expect(h.commitCount == 2)  // both buffers held by the compositor
            let passes = h.window.passCount
            for _ in 0..<10 { await nextTurn() }
            #expect(h.window.passCount == passes)
            h.surface.releaseAllBuffers()
            await nextTurn()
            #expect(h.commitCount == 3)
            #expect(Color.red.matches(h.screenColor(11, 5)))
            #expect(!Color.red.matches(h.screenColor(1, 5)))
        }

        @Test("A reused buffer copies forward what it missed earlier frames, repainting only the damage")
        func reusedBufferCopiesForwardWhatItMissed() async throws {
            let h = Harness(capacity: 2, release: .afterNextPresent)
            let a = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .red)
            let b = SolidView(frame: CGRect(x: 50, y: 0, width: 10, height: 10), color: .red)
            h.root.addSubview(a)
            h.root.addSubview(b)
            var reports: [CommitReport] = []
            h.window.onCommit = { reports.append($0) }
            await nextTurn()  // buffer 1, full
            a.backgroundColor = .blue
            a.color = .blue
            a.setNeedsDisplay()
            h.frame()  // buffer 2 (1 is still held)
            b.color = .green
            b.setNeedsDisplay()
            h.frame()  // buffer 1 again: a's change is copied from buffer 2, not composited
            #expect(reports.count == 3)
            let last = try #require(reports.last)
            #expect(last.damageRects == [CGRect(x: 50, y: 0, width: 10, height: 10)])
            #expect(last.repaintedRects == [CGRect(x: 50, y: 0, width: 10, height: 10)])
            #expect(Color.blue.matches(h.screenColor(5, 5)))
            let snapshot = try #require(h.surface.commits.last?.snapshot)
            #expect(Color.blue.matches(snapshot.color(x: 5, y: 5)))
        }

        @Test("Each commit reports its frame number, buffer size, damage and draws")
        func commitReportDescribesTheCommit() async throws {
            let h = Harness(width: 50, height: 40, scale: 2)
            let view = SolidView(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
            h.root.addSubview(view)
            var reports: [CommitReport] = []
            h.window.onCommit = { reports.append($0) }
            await nextTurn()
            view.setNeedsDisplay()
            let wallStart = DispatchTime.now()
            h.frame()
            let wallMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - wallStart.uptimeNanoseconds) / 1e6
            #expect(reports.map(\.frameNumber) == [1, 2])
            let last = try #require(reports.last)
            #expect(last.bufferWidth == 100 && last.bufferHeight == 80)
            #expect(last.scale == 2)
            #expect(last.damageRects == [CGRect(x: 10, y: 10, width: 20, height: 20)])
            #expect(last.drawCount == 1)
            // The pass's own CPU time: some, and no more than the wall time around it.
            #expect(last.cpuMilliseconds > 0 && last.cpuMilliseconds <= wallMilliseconds, "\(last.cpuMilliseconds) ms CPU in \(wallMilliseconds) ms")
            #expect(last.logLine.hasPrefix("frame 2 100x80@2.0 damage [10,10,20,20]"))
            #expect(h.window.frameCount == 2)
            #expect(h.window.lastCommitReport == last)
        }

        @Test("A window told not to measure commit CPU time reports 0 ms, and measures again when told to")
        func commitCPUTimeIsMeasuredOnlyWhenWanted() async throws {
            let h = Harness(width: 50, height: 40, scale: 1)
            let view = SolidView(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
            h.root.addSubview(view)
            var reports: [CommitReport] = []
            h.window.onCommit = { reports.append($0) }
            h.window.measuresCommitCPUTime = false
            await nextTurn()
            view.setNeedsDisplay()
            h.frame()
            #expect(reports.count == 2 && reports.allSatisfy { $0.cpuMilliseconds == 0 })
            h.window.measuresCommitCPUTime = true
            view.setNeedsDisplay()
            h.frame()
            #expect(reports.count == 3 && reports[2].cpuMilliseconds > 0)
        }

        @Test("Damage with more than 16 rects is sent as 16, merging the nearest: not as its bounding box")
        func manyDamageRectsAreMerged() async throws {
            let h = Harness(width: 200, height: 20)
            let views = (0..<20).map { SolidView(frame: CGRect(x: $0 * 10, y: 0, width: 4, height: 4)) }
            views.forEach(h.root.addSubview)
            await h.settle()
            for view in views { view.backgroundColor = .blue }
            await h.step()
            #expect(h.lastDamage.rects.count == 16)
            for view in views { #expect(h.lastDamage.intersection(Region(view.frame)) == Region(view.frame)) }
            // Four neighbouring pairs merged, each taking in the 6×4 gap between them.
            #expect(h.lastDamage.area == 20 * 16 + 4 * 24)
            #expect(h.lastDamage.boundingBox == CGRect(x: 0, y: 0, width: 194, height: 4))
            for view in views.prefix(3) { view.backgroundColor = .green }
            await h.step()
            #expect(h.lastDamage.rects.count == 3)
        }

        @Test("flashesDamage tints a frame's damage for one frame, then restores it")
        func flashingDamageTintsForOneFrame() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .white)
            h.root.addSubview(view)
            await h.settle()
            h.window.flashesDamage = true
            view.backgroundColor = .black
            await h.step()
            let tinted = try #require(h.screenColor(5, 5))
            #expect(!Color.white.matches(tinted))
            #expect(Color.white.matches(h.screenColor(50, 50)))
            h.frame()  // the follow-up frame removes the tint
            #expect(Color.white.matches(h.screenColor(5, 5)))
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 10, height: 10)))
            let commits = h.commitCount
            h.frame()
            #expect(h.commitCount == commits)
        }

        @Test("A resize commits without waiting for the outstanding frame callback")
        func resizeCommitsWithoutWaitingForFrame() async {
            let h = Harness()
            await nextTurn()
            #expect(h.surface.hasPendingFrameRequest)
            h.surface.resize(to: CGSize(width: 60, height: 30))
            await nextTurn()
            #expect(h.commitCount == 2)
            #expect(h.surface.commits.last?.width == 60)
        }

        @Test("A scale change redraws drawing views at the new scale and repaints everything")
        func scaleChangeRedrawsAtNewScale() async throws {
            let h = Harness(width: 40, height: 30)
            let view = SolidView(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
            let plain = PlainView(frame: CGRect(x: 20, y: 5, width: 10, height: 10))
            plain.backgroundColor = .green
            h.root.addSubview(view)
            h.root.addSubview(plain)
            await h.settle()
            h.surface.resize(to: CGSize(width: 40, height: 30), scale: 2)
            await h.step()
            #expect(view.drawCount == 2)
            #expect(view.layer.contents?.width == 20)
            #expect(plain.layer.backingStoreByteCount == 0)
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 80, height: 60)))
            #expect(Color.red.matches(h.screenColor(11, 11)))
            #expect(Color.green.matches(h.screenColor(41, 11)))
        }

        @Test("Transaction.perform batches the changes made in its body")
        func transactionPerformBatches() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            let commits = h.commitCount
            let result = Transaction.perform { () -> Int in
                view.center.x += 10
                view.alpha = 0.5
                #expect(Transaction.isOpen)
                return 7
            }
            #expect(result == 7)
            #expect(!Transaction.isOpen)
            await h.step()
            #expect(h.commitCount == commits + 1)
        }
    }
}
