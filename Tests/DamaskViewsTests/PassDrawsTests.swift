import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The draws a commit reports: those of the passes since the last commit that reached the
/// screen, never those of a pass that presented nothing.
extension ViewsTests {
    @Suite("Pass draws", .shared, .timeLimit(.minutes(5))) @MainActor struct PassDrawsTests {
        @Test("A draw in a pass that presented nothing is not counted in the next commit's report")
        func drawOfAPassThatPresentedNothingDoesNotLeak() async {
            let h = Harness(width: 40, height: 30)
            let visible = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .blue)
            let outside = SolidView(frame: CGRect(x: 200, y: 200, width: 10, height: 10), color: .red)
            h.root.addSubview(visible)
            h.root.addSubview(outside)
            await h.settle()
            let commits = h.commitCount
            let draws = h.window.drawCount
            outside.setNeedsDisplay()
            h.window.flush()
            #expect(h.window.drawCount == draws + 1, "the view outside the window drew")
            #expect(h.commitCount == commits, "a pass whose only draw shows nowhere commits nothing")
            visible.color = .green
            visible.setNeedsDisplay()
            h.window.flush()
            #expect(h.commitCount == commits + 1)
            #expect(h.window.lastCommitReport?.drawCount == 1, "only the visible view's draw is in this commit")
            #expect(Color.green.matches(h.screenColor(5, 5)))
        }

        @Test("Draws made between passes are reported by the next commit")
        func drawsBetweenPassesAreReported() async {
            let h = Harness(width: 40, height: 30)
            let first = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .blue)
            let second = SolidView(frame: CGRect(x: 20, y: 0, width: 10, height: 10), color: .blue)
            h.root.addSubview(first)
            h.root.addSubview(second)
            await h.settle()
            first.displayNow()  // drawn now, presented by the next commit
            second.setNeedsDisplay()
            h.window.flush()
            #expect(h.window.lastCommitReport?.drawCount == 2)
        }
    }
}
