import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The frame engine's rules: work proportional to what changed, one pass per drawing
/// frame, commits only for frames that change something.
extension ViewsTests {
    @Suite("Frame engine", .shared, .timeLimit(.minutes(5))) @MainActor struct FrameEngine {
        /// A window holding `rows` rows of `columns` 8×8 drawing views, each row in its own
        /// container view.
        @MainActor struct Grid {
            let harness: Harness
            var views: [[SolidView]] = []

            init(rows: Int, columns: Int) {
                harness = Harness(width: CGFloat(columns * 8), height: CGFloat(rows * 8))
                for row in 0..<rows {
                    let container = PlainView(frame: CGRect(x: 0, y: row * 8, width: columns * 8, height: 8))
                    harness.root.addSubview(container)
                    var line: [SolidView] = []
                    for column in 0..<columns {
                        let view = SolidView(frame: CGRect(x: column * 8, y: 0, width: 8, height: 8), color: .blue)
                        container.addSubview(view)
                        line.append(view)
                    }
                    views.append(line)
                }
            }
        }

        @Test("A drawing frame is exactly one pass: drawing does not queue another")
        func drawingFrameIsOnePass() async {
            let h = Harness()
            let views = (0..<5).map { SolidView(frame: CGRect(x: $0 * 12, y: 0, width: 10, height: 10)) }
            for view in views { h.root.addSubview(view) }
            await nextTurn()
            #expect(h.commitCount == 1)
            #expect(h.window.passCount == 1)
            h.frame()
            #expect(h.window.passCount == 1, "the frame callback found nothing to do")
            for round in 1...10 {
                views[round % 5].color = round % 2 == 0 ? .green : .red
                views[round % 5].setNeedsDisplay()
                views[(round + 2) % 5].center.y += 1
                await nextTurn()
                h.frame()
                for _ in 0..<3 { await nextTurn() }
                #expect(h.commitCount == 1 + round)
                #expect(h.window.passCount == 1 + round, "round \(round): one pass per drawing frame")
            }
        }

        @Test("A display link that changes nothing asks the compositor for a frame once a second and ticks no further until it answers")
        func idleLinkProbesVisibilityOncePerInterval() async {
            let h = Harness()
            h.root.addSubview(SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
            await h.settle()
            let (commits, requests) = (h.commitCount, h.surface.frameRequestCount)
            var ticks = 0
            let link = DisplayLink(window: h.window) { _, _ in ticks += 1 }
            var time = h.surface.clock
            // 62 idle frames, 992 ms: ticks that cost the compositor nothing.
            for _ in 0..<62 {
                time &+= 16
                #expect(h.surface.fireFrame(timestamp: time))
            }
            #expect(ticks == 62)
            #expect(h.surface.frameRequestCount == requests, "under a second of idle frames: no frame request")
            let idleRequests = h.surface.idleFrameRequestCount
            // The 63rd frame ends the second: the next tick is asked of the compositor.
            time &+= 16
            #expect(h.surface.fireFrame(timestamp: time))
            #expect(h.surface.frameRequestCount == requests + 1, "one frame request after a second of idle frames")
            #expect(h.surface.idleFrameRequestCount == idleRequests, "no idle frame alongside the probe")
            #expect(h.window.scheduler.state == .waitingForFrame, "a hidden window waits here, ticking nothing")
            #expect(h.window.scheduler.visibilityProbeCount == 1)
            // Answered (the window is shown): ticks go on on idle frames for another second.
            time &+= 16
            #expect(h.surface.fireFrame(timestamp: time))
            #expect(ticks == 64)
            #expect(h.surface.idleFrameRequestCount == idleRequests + 1)
            for _ in 0..<62 {
                time &+= 16
                #expect(h.surface.fireFrame(timestamp: time))
            }
            #expect(h.window.scheduler.visibilityProbeCount == 1)
            time &+= 16
            #expect(h.surface.fireFrame(timestamp: time))
            #expect(h.window.scheduler.visibilityProbeCount == 2)
            #expect(h.surface.frameRequestCount == requests + 2)
            #expect(h.commitCount == commits, "probes present nothing")
            link.invalidate()
        }

        @Test("A display link that changes nothing makes no commit and requests no frame callback")
        func linkThatChangesNothingMakesNoCommit() async {
            let h = Harness()
            h.root.addSubview(SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
            await h.settle()
            let (commits, requests, passes) = (h.commitCount, h.surface.frameRequestCount, h.window.passCount)
            var ticks = 0
            let link = DisplayLink(window: h.window) { _, _ in ticks += 1 }
            for step in 1...20 {
                #expect(h.surface.fireFrame(timestamp: UInt32(step * 16)), "the link keeps a tick requested")
            }
            #expect(ticks == 20)
            #expect(h.commitCount == commits)
            #expect(h.surface.frameRequestCount == requests, "no frame callback, so no bare commit")
            #expect(h.surface.idleFrameRequestCount >= 20)
            #expect(h.window.passCount == passes, "nothing changed, so no pass ran")
            link.invalidate()
            h.frame()
            #expect(!h.surface.hasPendingFrameRequest)
        }

        @Test("A display link commits exactly the frames in which it changes something")
        func linkCommitsOnlyFramesThatChange() async {
            let h = Harness()
            let spinner = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(spinner)
            await h.settle()
            let commits = h.commitCount
            var changed = 0
            let link = DisplayLink(window: h.window) { link, _ in
                guard link.frameCount % 5 == 0 else { return }
                changed += 1
                spinner.color = changed % 2 == 0 ? .red : .blue
                spinner.setNeedsDisplay()
            }
            for step in 1...50 { h.surface.fireFrame(timestamp: UInt32(step * 16)) }
            #expect(changed == 10)
            #expect(h.commitCount == commits + 10)
            link.invalidate()
        }

        @Test("preferredFramesPerSecond skips frame callbacks")
        func preferredFramesPerSecondSkipsCallbacks() async {
            let h = Harness()
            await h.settle()
            var stamps: [UInt32] = []
            let link = DisplayLink(window: h.window) { _, timestamp in stamps.append(timestamp) }
            link.preferredFramesPerSecond = 20
            for step in 1...12 { h.surface.fireFrame(timestamp: UInt32(step) * 16 + 1000) }
            // 50 ms apart at most one frame early: every third 16 ms frame.
            #expect(stamps == [1016, 1064, 1112, 1160])
            link.invalidate()
        }

        @Test("Layout, display and compositing visit only the paths to what changed")
        func cleanSubtreesAreNotVisited() async {
            let grid = Grid(rows: 20, columns: 50)
            let h = grid.harness
            await h.settle()
            #expect(h.commitCount == 1)
            let target = grid.views[7][23]
            h.window.statistics.layoutWalkVisitCount = 0
            h.window.statistics.displayWalkVisitCount = 0
            h.window.statistics.visitedLayerCount = 0
            target.color = .red
            target.setNeedsDisplay()
            await nextTurn()
            #expect(h.commitCount == 2)
            #expect(h.lastDamage == Region(CGRect(x: 23 * 8, y: 7 * 8, width: 8, height: 8)))
            #expect(h.window.statistics.layoutWalkVisitCount == 0, "nothing needed layout")
            // root layer → content view → row container → the view
            #expect(h.window.statistics.displayWalkVisitCount == 4)
            #expect(h.window.damage.lastWalkVisitCount == 0, "redrawing moves nothing")
            // The same path, without the 999 other views and 19 other rows.
            #expect(h.window.statistics.visitedLayerCount == 4)
            #expect(Color.red.matches(h.screenColor(23 * 8 + 4, 7 * 8 + 4)))
            #expect(Color.blue.matches(h.screenColor(22 * 8 + 4, 7 * 8 + 4)))

            // A changed background walks the path to the view.
            h.frame()
            target.backgroundColor = .green
            await nextTurn()
            #expect(h.window.damage.lastWalkVisitCount == 4)

            // A moved container takes its whole row into the compositing walk, and nothing else.
            guard let container = target.superview else {
                Issue.record("the view lost its container")
                return
            }
            container.center.x += 1
            await nextTurn()
            h.frame()
            #expect(h.window.damage.lastWalkVisitCount == 3 + 50)
        }

        @Test("A view hidden while marked draws and lays out when shown again")
        func marksWaitWhileHidden() async {
            let h = Harness()
            let parent = PlainView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            let child = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .blue)
            parent.addSubview(child)
            h.root.addSubview(parent)
            await h.settle()
            parent.isHidden = true
            child.color = .green
            child.setNeedsDisplay()
            await nextTurn()
            h.frame()
            #expect(child.drawCount == 1)
            parent.isHidden = false
            await nextTurn()
            #expect(child.drawCount == 2)
            #expect(Color.green.matches(h.screenColor(5, 5)))
        }

        @Test("A pass with nothing changed does not run, however many turns and frames pass")
        func nothingChangedRunsNoPass() async {
            let grid = Grid(rows: 10, columns: 10)
            let h = grid.harness
            await h.settle()
            let passes = h.window.passCount
            for _ in 0..<10 {
                await nextTurn()
                h.frame()
            }
            #expect(h.window.passCount == passes)
            #expect(!h.surface.hasPendingFrameRequest)
        }

        @Test("A repeating timer fires once per interval on the frame clock, asks to sleep until then, and commits only its changes")
        func timerFiresPerIntervalAndSleepsUntilThen() async {
            let h = Harness()
            let caret = SolidView(frame: CGRect(x: 0, y: 0, width: 2, height: 10), color: .blue)
            h.root.addSubview(caret)
            await nextTurn()
            h.surface.fireFrame(timestamp: 1000)
            let commits = h.commitCount
            var fired: [UInt32] = []
            let timer = FrameTimer(window: h.window, interval: 500, repeats: true) { _ in
                fired.append(h.surface.clock)
                caret.color = fired.count % 2 == 0 ? .blue : .green
                caret.setNeedsDisplay()
            }
            #expect(timer.fireTimestamp == 1500)
            #expect(h.surface.lastIdleFrameTarget == 1500, "the window sleeps until the timer is due")
            for step in 1...125 { h.surface.fireFrame(timestamp: 1000 + UInt32(step) * 16) }
            // 16 ms frames: the first frame at or after each due time less 8 ms.
            #expect(fired == [1496, 1992, 2504, 3000])
            #expect(h.commitCount == commits + 4)
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 2, height: 10)))
            h.surface.fireFrame(timestamp: 3016)  // the last commit's callback: nothing to do
            #expect(h.surface.lastIdleFrameTarget == 3500, "no drift: due times stay 500 ms apart")
            timer.invalidate()
            h.frame()
            #expect(!h.surface.hasPendingFrameRequest, "an invalidated timer wants no frames")
        }

        @Test("A one-shot timer fires once and lets the window idle")
        func oneShotTimerFiresOnce() async {
            let h = Harness()
            await h.settle()
            var count = 0
            let timer = FrameTimer(window: h.window, interval: 100, repeats: false) { _ in count += 1 }
            for _ in 0..<20 { h.frame() }
            #expect(count == 1)
            #expect(!timer.isValid)
            #expect(!h.surface.hasPendingFrameRequest)
        }
    }
}
