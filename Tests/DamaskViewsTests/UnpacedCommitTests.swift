import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskViews

/// Commits without a frame request after a quiet spell (``Surface/allowsUnpacedCommits``):
/// when they are made, and every case in which a commit still asks for a frame.
extension ViewsTests {
    @Suite("Unpaced commits", .shared, .timeLimit(.minutes(5))) @MainActor struct UnpacedCommits {
        /// A window whose surface allows unpaced commits, settled: its first commit asked for
        /// a frame (no answer yet proved the window shown) and the compositor answered.
        private func settledHarness() async -> (Harness, SolidView) {
            let h = Harness()
            h.surface.allowsUnpacedCommits = true
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await nextTurn()
            #expect(h.commitCount == 1)
            #expect(h.surface.frameRequestCount == 1, "the first commit asks: nothing has been answered yet")
            #expect(h.frame())
            #expect(h.window.scheduler.state == .idle)
            return (h, view)
        }

        @Test("A change after a quiet spell commits without a frame request, and the window is idle at once")
        func quietChangeCommitsUnpaced() async {
            let (h, view) = await settledHarness()
            h.surface.advanceClock(by: 200)
            view.color = .blue
            view.setNeedsDisplay()
            await nextTurn()
            #expect(h.commitCount == 2)
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 10, height: 10)))
            #expect(h.surface.frameRequestCount == 1, "no frame request with the commit")
            #expect(!h.surface.hasPendingFrameRequest)
            #expect(h.window.scheduler.state == .idle)
            #expect(h.window.scheduler.unpacedCommitCount == 1)
            #expect(Color.blue.matches(h.screenColor(5, 5)))
        }

        @Test("A surface that does not allow them asks for a frame with every commit")
        func surfaceThatDoesNotAllowThemPacesEveryCommit() async {
            let h = Harness()
            #expect(!h.surface.allowsUnpacedCommits, "off unless asked for")
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            for step in 1...3 {
                h.surface.advanceClock(by: 200)
                view.center.x += 1
                await nextTurn()
                #expect(h.commitCount == step + 1)
                #expect(h.surface.frameRequestCount == step + 1)
                #expect(h.window.scheduler.state == .waitingForFrame)
                h.frame()
            }
            #expect(h.window.scheduler.unpacedCommitCount == 0)
        }

        @Test("A change less than a refresh interval after an unpaced commit waits for a frame asked with a bare commit, and that frame's commit is paced")
        func changeSoonAfterUnpacedCommitWaitsForAFrame() async {
            let (h, view) = await settledHarness()
            h.surface.advanceClock(by: 200)
            view.center.x += 1
            await nextTurn()
            #expect(h.window.scheduler.unpacedCommitCount == 1)
            h.surface.advanceClock(by: 5)
            view.center.x += 1
            await nextTurn()
            #expect(h.commitCount == 2, "no second buffer within the refresh interval")
            #expect(h.surface.frameRequestCount == 2, "the frame is asked for without a buffer")
            #expect(h.window.scheduler.state == .waitingForFrame)
            for _ in 0..<5 { await nextTurn() }
            #expect(h.commitCount == 2, "turns alone do not run the pass")
            #expect(h.frame())
            #expect(h.commitCount == 3)
            #expect(h.surface.frameRequestCount == 3, "a commit that answers a frame asks for the next")
            #expect(h.window.scheduler.state == .waitingForFrame)
            #expect(h.window.scheduler.unpacedCommitCount == 1)
        }

        @Test("An unanswered unpaced commit can be asked a frame for; once it is answered a change commits at once, even within the refresh interval")
        func unansweredCommitAskedAFrameFor() async {
            let (h, view) = await settledHarness()
            #expect(!h.window.hasUnansweredCommit, "the first commit asked for its frame")
            h.surface.advanceClock(by: 200)
            view.center.x += 1
            await nextTurn()
            #expect(h.window.hasUnansweredCommit)
            h.window.requestFrameForUnansweredCommit()
            #expect(h.surface.frameRequestCount == 2)
            #expect(h.window.scheduler.state == .waitingForFrame)
            h.window.requestFrameForUnansweredCommit()
            #expect(h.surface.frameRequestCount == 2, "one request is enough")
            #expect(h.surface.fireFrame(timestamp: h.surface.clock &+ 4))
            #expect(!h.window.hasUnansweredCommit)
            #expect(h.window.scheduler.state == .idle)
            h.window.requestFrameForUnansweredCommit()
            #expect(h.surface.frameRequestCount == 2, "nothing to ask once answered")
            view.center.x += 1
            await nextTurn()
            #expect(h.commitCount == 3, "the refresh that answered showed the last commit: no wait")
            #expect(h.surface.frameRequestCount == 3, "4 ms after the last commit: this one is paced")
        }

        @Test("Changes coming frame after frame stay paced: each commit asks for the next frame")
        func changesEveryFrameStayPaced() async {
            let (h, view) = await settledHarness()
            h.surface.advanceClock(by: 200)
            view.center.x += 1
            await nextTurn()
            let requests = h.surface.frameRequestCount
            for step in 1...10 {
                view.center.x += 1
                await nextTurn()
                #expect(h.frame())
                #expect(h.surface.frameRequestCount == requests + step + 1)
            }
            #expect(h.window.scheduler.unpacedCommitCount == 1, "only the first change after the quiet spell")
            #expect(h.commitCount == 12)
        }

        @Test("A display link keeps every commit paced; a timer's change after a quiet spell commits unpaced")
        func displayLinkPacesTimerDoesNot() async {
            let (h, view) = await settledHarness()
            var ticks = 0
            let link = DisplayLink(window: h.window) { _, _ in ticks += 1 }
            h.surface.advanceClock(by: 200)
            view.center.x += 1
            await nextTurn()
            #expect(h.window.scheduler.unpacedCommitCount == 0, "a link wants the very next frame")
            #expect(h.surface.hasPendingFrameRequest)
            #expect(h.frame())
            #expect(ticks == 1)
            link.invalidate()
            h.frame()  // the idle frame asked for after the tick, if any

            let start = h.surface.clock
            var fired = 0
            let timer = FrameTimer(window: h.window, interval: 500, repeats: true) { _ in
                fired += 1
                view.color = fired % 2 == 0 ? .red : .blue
                view.setNeedsDisplay()
            }
            let commits = h.commitCount
            let requests = h.surface.frameRequestCount
            // The timer is due 500 ms on: one idle frame at that time.
            #expect(h.surface.fireFrame(timestamp: start &+ 500))
            #expect(fired == 1)
            #expect(h.commitCount == commits + 1)
            #expect(h.surface.frameRequestCount == requests, "the blink's commit asks for no frame")
            #expect(h.window.scheduler.unpacedCommitCount == 1)
            #expect(h.surface.lastIdleFrameTarget == start &+ 1000, "the window sleeps until the next blink")
            timer.invalidate()
        }

        @Test("With no frame answered for a second (a hidden window) a commit asks for a frame again, and nothing more is presented until it comes")
        func unansweredForASecondPacesAgain() async {
            let (h, view) = await settledHarness()
            h.surface.advanceClock(by: 500)
            view.center.x += 1
            await nextTurn()
            #expect(h.window.scheduler.unpacedCommitCount == 1)
            h.surface.advanceClock(by: 600)  // 1,100 ms since the compositor last answered
            view.center.x += 1
            await nextTurn()
            #expect(h.commitCount == 3)
            #expect(h.surface.frameRequestCount == 2, "this commit asks whether the window is shown")
            #expect(h.window.scheduler.state == .waitingForFrame)
            for _ in 0..<10 {
                h.surface.advanceClock(by: 100)
                view.center.x += 1
                await nextTurn()
            }
            #expect(h.commitCount == 3, "unanswered: nothing more is committed")
            #expect(h.frame(), "shown again")
            #expect(h.commitCount == 4)
            #expect(Color.red.matches(h.screenColor(17, 5)))
            h.frame()
            h.surface.advanceClock(by: 200)
            view.center.x += 1
            await nextTurn()
            #expect(h.window.scheduler.unpacedCommitCount == 2, "answered again: unpaced again")
        }

        @Test("flush() commits at once, unpaced after a quiet spell")
        func flushAfterQuietSpell() async {
            let (h, view) = await settledHarness()
            h.surface.advanceClock(by: 200)
            view.center.x += 1
            h.window.flush()
            #expect(h.commitCount == 2)
            #expect(h.window.scheduler.unpacedCommitCount == 1)
            #expect(h.window.scheduler.state == .idle)
            await nextTurn()
            #expect(h.commitCount == 2, "the queued pass finds nothing left")
        }
    }
}
