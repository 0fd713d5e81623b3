import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Where Damask's animations follow Apple's documentation rather than the simplest
/// reading: nested `UIView` animation blocks inherit (`UIView.AnimationOptions`'
/// override options), `CAKeyframeAnimation`'s discrete key times, and completion handlers
/// that never run inside another block's `animations` closure; a display link's
/// `preferredFramesPerSecond` settles on a steady rate that divides the display's.
extension ViewsTests {
    @Suite("Animations as Apple documents them: nesting, discrete keyframes, completions", .exclusive, .timeLimit(.minutes(5)))
    @MainActor struct AnimationDocumentedRules {
        /// A view of 10 × 10 points at the origin in a settled window.
        func settledView(_ h: Harness) async -> SolidView {
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            return view
        }

        @Test("A nested block inherits the outer block's duration and curve; the override options keep its own")
        func nestedBlockInheritsDurationAndCurve() async throws {
            let h = Harness()
            let view = await settledView(h)
            View.animate(withDuration: 1, options: .curveEaseIn) {
                #expect(View.inheritedAnimationDuration == 1)
                View.animate(withDuration: 0.2, options: .curveLinear) { view.alpha = 0.5 }
                View.animate(withDuration: 0.2, options: [.curveLinear, .overrideInheritedDuration]) {
                    view.center = CGPoint(x: 30, y: 30)
                }
                View.animate(withDuration: 0.2, options: [.curveLinear, .overrideInheritedCurve]) {
                    view.backgroundColor = .green
                }
            }
            #expect(View.inheritedAnimationDuration == 0)
            let opacity = try #require(view.layer.animation(forKey: "opacity"))
            #expect(opacity.duration == 1, "the outer duration")
            #expect(opacity.timingFunction == .easeIn, "the outer curve")
            let position = try #require(view.layer.animation(forKey: "position"))
            #expect(position.duration == 0.2, "overrideInheritedDuration: its own duration")
            #expect(position.timingFunction == .easeIn, "the curve is still inherited")
            let background = try #require(view.layer.animation(forKey: "backgroundColor"))
            #expect(background.duration == 1, "the duration is still inherited")
            #expect(background.timingFunction == .linear, "overrideInheritedCurve: its own curve")
            await FrameDriver(harness: h).runUntilIdle()
        }

        @Test("A nested block inherits repeat and autoreverse unless it overrides the inherited options")
        func nestedBlockInheritsOptions() async throws {
            let h = Harness()
            let view = await settledView(h)
            View.animate(withDuration: 0.1, options: [.repeat, .autoreverse]) {
                View.animate(withDuration: 0.1) { view.alpha = 0.5 }
                View.animate(withDuration: 0.1, options: .overrideInheritedOptions) { view.center = CGPoint(x: 30, y: 30) }
            }
            let inherited = try #require(view.layer.animation(forKey: "opacity"))
            #expect(inherited.repeatCount == .infinity)
            #expect(inherited.autoreverses)
            let own = try #require(view.layer.animation(forKey: "position"))
            #expect(own.repeatCount == 0)
            #expect(!own.autoreverses)
            view.layer.removeAllAnimations()
            await FrameDriver(harness: h).runUntilIdle()
        }

        @Test("A block nested in performWithoutAnimation inherits nothing: its own duration applies")
        func blockInsidePerformWithoutAnimationKeepsItsDuration() async throws {
            let h = Harness()
            let view = await settledView(h)
            View.performWithoutAnimation {
                View.animate(withDuration: 0.2) { view.alpha = 0.5 }
            }
            #expect(try #require(view.layer.animation(forKey: "opacity")).duration == 0.2)
            await FrameDriver(harness: h).runUntilIdle()
        }

        @Test("A completion whose animation is replaced inside another block runs after that block, not inside it, and its changes are not animated")
        func completionNeverRunsInsideAnotherBlock() async throws {
            let h = Harness()
            let view = await settledView(h)
            var results: [Bool] = []
            var ranInsideABlock: [Bool] = []
            View.animate(withDuration: 1, animations: { view.alpha = 0.2 }) { finished in
                results.append(finished)
                ranInsideABlock.append(View.isInsideAnimationBlock)
                view.backgroundColor = .green  // animated only if this ran inside a block
            }
            View.animate(withDuration: 0.5) {
                view.alpha = 0.8  // replaces the first block's animation
                #expect(results.isEmpty, "the completion ran inside the second block's animations")
            }
            #expect(results.isEmpty, "the completion runs on the next turn")
            await nextTurn()
            #expect(results == [false], "it ran once, unfinished")
            #expect(ranInsideABlock == [false])
            #expect(view.layer.animation(forKey: "backgroundColor") == nil, "its change was made without animation")
            #expect(view.backgroundColor == .green)
            await FrameDriver(harness: h).runUntilIdle()
        }

        @Test("Discrete keyframes: n + 1 key times for n values, each value held from its key time to the next")
        func discreteKeyframesFollowKeyTimes() async throws {
            let h = Harness()
            let view = await settledView(h)
            let steps = KeyframeAnimation(keyPath: "position")
            steps.calculationMode = .discrete
            steps.values = [CGPoint(x: 10, y: 5), CGPoint(x: 20, y: 5), CGPoint(x: 30, y: 5)]
            steps.keyTimes = [0, 0.25, 0.5, 1]
            steps.duration = 0.4  // 16 frames of 25 ms
            view.layer.add(steps, forKey: "steps")
            #expect(view.layer.animation(forKey: "steps") != nil, "accepted")
            let driver = FrameDriver(harness: h)
            var seen: [CGFloat] = []
            for _ in 0..<15 {
                await driver.run(frames: 1)
                seen.append(view.layer.presentation().position.x)
            }
            // Frame k (from 0) is at progress k / 16: value 0 below 0.25, 1 below 0.5, 2 after.
            #expect(seen == [10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30, 30, 30, 30], "\(seen)")
            await driver.runUntilIdle()
            #expect(view.layer.presentation().position == CGPoint(x: 5, y: 5), "back to the model value")
        }

        @Test("Discrete keyframes without key times hold each value for an equal share of the duration")
        func discreteKeyframesWithoutKeyTimesShareTheDuration() async throws {
            let h = Harness()
            let view = await settledView(h)
            let steps = KeyframeAnimation(keyPath: "opacity")
            steps.calculationMode = .discrete
            steps.values = [0.1, 0.4, 0.7, 1.0]
            steps.duration = 0.4
            view.layer.add(steps, forKey: "steps")
            let driver = FrameDriver(harness: h)
            var seen: [CGFloat] = []
            for _ in 0..<16 {
                await driver.run(frames: 1)
                seen.append((view.layer.presentation().opacity * 10).rounded() / 10)
            }
            #expect(seen == [0.1, 0.1, 0.1, 0.1, 0.4, 0.4, 0.4, 0.4, 0.7, 0.7, 0.7, 0.7, 1, 1, 1, 1], "\(seen)")
            await driver.runUntilIdle()
        }

        @Test("preferredFramesPerSecond 30, 20 and 15 settle on every 2nd, 3rd and 4th frame of a 60 Hz display whose frame times jitter by a millisecond", arguments: [(30, 2), (20, 3), (15, 4)])
        func preferredFramesPerSecondSettlesOnADivisor(preferred: Int, every: Int) async {
            let h = Harness()
            await h.settle()
            var stamps: [UInt32] = []
            let link = DisplayLink(window: h.window) { _, timestamp in stamps.append(timestamp) }
            link.preferredFramesPerSecond = preferred
            // 60 Hz as compositors stamp it: whole milliseconds, 16 or 17 apart, ±1 of jitter.
            let jitter = [0, 1, -1, 0, 1, 0, -1, 1, 1, -1]
            var frameAt: [UInt32: Int] = [:]
            for k in 1...60 {
                let stamp = UInt32(1000 + (k * 1000 + 30) / 60 + jitter[k % jitter.count])
                frameAt[stamp] = k
                h.surface.fireFrame(timestamp: stamp)
            }
            let delivered = stamps.compactMap { frameAt[$0] }
            let gaps = zip(delivered, delivered.dropFirst()).map { $1 - $0 }
            #expect(!gaps.isEmpty && Set(gaps) == [every], "\(preferred) per second: frames \(delivered)")
            link.invalidate()
        }

        @Test(
            "preferredFramesPerSecond that does not divide the display's rate settles on the nearest rate that does, steadily (24→20, 40→30, 45→30, 50→60 at 60 Hz; 24→24, 40→36, 45→48, 50→48 at 144 Hz)",
            arguments: [
                (24, 60, 3), (40, 60, 2), (45, 60, 2), (50, 60, 1),
                (24, 144, 6), (40, 144, 4), (45, 144, 3), (50, 144, 3),
            ])
        func preferredFramesPerSecondSettlesOnTheNearestDivisor(preferred: Int, hertz: Int, every: Int) async {
            let h = Harness()
            h.surface.refreshInterval = 1000 / Double(hertz)
            await h.settle()
            var stamps: [UInt32] = []
            let link = DisplayLink(window: h.window) { _, timestamp in stamps.append(timestamp) }
            link.preferredFramesPerSecond = preferred
            #expect(abs(link.actualFramesPerSecond - Double(hertz) / Double(every)) < 1e-9, "\(link.actualFramesPerSecond)")
            // Whole milliseconds with ±1 of jitter, as compositors stamp frames.
            let jitter = [0, 1, -1, 0, 1, 0, -1, 1, 1, -1]
            var frameAt: [UInt32: Int] = [:]
            for k in 1...(2 * hertz) {
                let stamp = UInt32(1000 + (k * 1000 + hertz / 2) / hertz + jitter[k % jitter.count])
                frameAt[stamp] = k
                h.surface.fireFrame(timestamp: stamp)
            }
            let delivered = stamps.compactMap { frameAt[$0] }
            let gaps = zip(delivered, delivered.dropFirst()).map { $1 - $0 }
            #expect(gaps.count >= 2 * hertz / every - 2, "\(delivered)")
            #expect(Set(gaps) == [every], "\(preferred) per second at \(hertz) Hz: frames \(delivered)")
            link.invalidate()
        }

        @Test("Discrete key times that break Core Animation's rules (one per value, or not from 0 to 1) are refused and reported")
        func discreteKeyTimesOutsideTheRulesAreRefused() async {
            let h = Harness()
            let view = await settledView(h)
            let before = h.window.statistics.animationProblemCount
            let onePerValue = KeyframeAnimation(keyPath: "opacity")
            onePerValue.calculationMode = .discrete
            onePerValue.values = [0.2, 0.8]
            onePerValue.keyTimes = [0, 1]
            view.layer.add(onePerValue, forKey: "a")
            let notToOne = KeyframeAnimation(keyPath: "opacity")
            notToOne.calculationMode = .discrete
            notToOne.values = [0.2, 0.8]
            notToOne.keyTimes = [0, 0.5, 0.9]
            view.layer.add(notToOne, forKey: "b")
            #expect(h.window.statistics.animationProblemCount == before + 2)
            #expect(view.layer.animationKeys() == nil)
        }
    }
}
