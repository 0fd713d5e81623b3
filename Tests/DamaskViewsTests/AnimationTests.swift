import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Drives a harness's frames on a 40 Hz clock (25 ms apart) by hand, so that every
/// animation test sees the same frame times.
@MainActor struct FrameDriver {
    let harness: Harness
    var interval: UInt32 = 25

    /// Lets queued passes run, then fires frames `interval` apart for as long as the
    /// window asks for them (at most `limit`); returns how many fired.
    @discardableResult
    func runUntilIdle(limit: Int = 400) async -> Int {
        var fired = 0
        while fired < limit {
            await nextTurn()
            guard harness.surface.hasPendingFrameRequest else {
                await nextTurn()
                if harness.surface.hasPendingFrameRequest { continue }
                return fired
            }
            harness.surface.fireFrame(timestamp: harness.surface.clock &+ interval)
            fired += 1
        }
        return fired
    }

    /// Lets queued passes run, then fires exactly `count` frames.
    func run(frames count: Int) async {
        for _ in 0..<count {
            await nextTurn()
            harness.surface.fireFrame(timestamp: harness.surface.clock &+ interval)
        }
    }
}

/// The pixels a layer's presented frame covers (window points at scale 1).
@MainActor private func footprint(of view: View) -> CGRect {
    let presented = view.layer.presentation()
    return presented.frame.roundedOutward
}

extension ViewsTests {
    @Suite("Animations: Core Animation's model", .exclusive, .timeLimit(.minutes(5))) @MainActor struct Animations {
        @Test("animate over 0.25 s at 40 Hz: ~10 commits, 0 draws, damage within old ∪ new footprints, completion once")
        func animateRecompositesOnly() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .blue)
            h.root.addSubview(view)
            await h.settle()
            let commitsBefore = h.commitCount
            let drawsBefore = h.window.drawCount
            var footprints = [footprint(of: view)]
            var damages: [Region] = []
            h.window.onCommit = { _ in
                footprints.append(footprint(of: view))
                damages.append(h.lastDamage)
            }
            var completions: [Bool] = []
            View.animate(withDuration: 0.25, delay: 0, options: .curveEaseInOut) {
                view.center = CGPoint(x: 60, y: 20)
            } completion: { finished in
                completions.append(finished)
            }
            #expect(view.center == CGPoint(x: 60, y: 20), "the model value is set at once")
            #expect(view.layer.presentation().position == CGPoint(x: 20, y: 20))
            let frames = await FrameDriver(harness: h).runUntilIdle()
            let commits = h.commitCount - commitsBefore
            #expect((9...11).contains(commits), "commits: \(commits)")
            #expect(h.window.drawCount == drawsBefore, "an animated frame only recomposites")
            #expect(view.drawCount == 1)
            #expect(completions == [true])
            #expect(frames <= 13, "frames stop once the animation ends (fired \(frames))")
            #expect(damages.count == commits)
            for (index, damage) in damages.enumerated() {
                let allowed = Region(footprints[index]).union(footprints[index + 1])
                #expect(damage.subtracting(allowed).isEmpty, "commit \(index): \(damage) ⊄ \(allowed)")
                #expect(!damage.isEmpty)
            }
            #expect(Color.blue.matches(h.screenColor(55, 20)))
            #expect(Color.white.matches(h.screenColor(15, 20)))
            // Nothing more is committed, and no frame is asked for.
            let settled = h.commitCount
            await nextTurn()
            await nextTurn()
            #expect(!h.surface.hasPendingFrameRequest)
            #expect(h.commitCount == settled)
            #expect(view.layer.animationKeys() == nil)
        }

        /// A red 20×20 view at the origin of `h`'s settled window, sliding right to x = 90
        /// (center) over 0.2 s on a linear curve from the next frame.
        private func slidingView(in h: Harness) async -> SolidView {
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: .red)
            h.root.addSubview(view)
            await h.settle()
            View.animate(withDuration: 0.2, options: .curveLinear) {
                view.center = CGPoint(x: 90, y: 10)
            }
            return view
        }

        @Test("Presentation values are interpolated per frame along the timing curve; pixels follow")
        func presentationFollowsCurve() async throws {
            let h = Harness()
            let view = await slidingView(in: h)
            let driver = FrameDriver(harness: h)
            // The first frame starts the animation; four more are 100 ms into it.
            await driver.run(frames: 5)
            let presented = view.layer.presentation().position
            #expect(abs(presented.x - 50) < 0.001, "linear, half-way: \(presented.x)")
            #expect(view.center.x == 90)
            #expect(Color.red.matches(h.screenColor(50, 10)))
            #expect(Color.white.matches(h.screenColor(5, 10)))
            #expect(Color.white.matches(h.screenColor(75, 10)))
            await driver.runUntilIdle()
            #expect(Color.red.matches(h.screenColor(95, 10)))
            #expect(Color.white.matches(h.screenColor(50, 10)))
        }

        @Test("A frame stamped before the previous one holds an animation still instead of ending it")
        func frameClockSteppingBackHoldsAnimation() async throws {
            // Idle frames are stamped on the surface's clock, the others by the compositor;
            // the two can disagree by a few milliseconds. A step back used to wrap into a
            // jump of 49 days, which ended every running animation at once.
            let h = Harness()
            let view = await slidingView(in: h)
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 1)  // starts the animation
            await nextTurn()
            h.surface.fireFrame(timestamp: h.surface.clock &- 5)
            let held = view.layer.presentation().position.x
            #expect(abs(held - 10) < 0.001, "still at the start: \(held)")
            #expect(!view.layer.runningAnimations.isEmpty)
            // Four frames of 25 ms from there: 100 ms in, as if the step back had not been.
            await driver.run(frames: 4)
            let presented = view.layer.presentation().position.x
            #expect(abs(presented - 50) < 0.001, "linear, half-way: \(presented)")
            await driver.runUntilIdle()
            #expect(view.layer.runningAnimations.isEmpty)
            #expect(view.layer.presentation().position.x == 90)
        }

        @Test("A display link's time does not jump when a frame is stamped before the previous one")
        func displayLinkTimeDoesNotJumpBack() async {
            let h = Harness()
            await h.settle()
            var times: [Double] = []
            let link = DisplayLink(window: h.window) { link, _ in times.append(link.timestamp) }
            h.surface.fireFrame(timestamp: 1000)
            await nextTurn()
            h.surface.fireFrame(timestamp: 1016)
            await nextTurn()
            h.surface.fireFrame(timestamp: 1012)
            await nextTurn()
            h.surface.fireFrame(timestamp: 1028)
            let expected = [1.0, 1.016, 1.016, 1.032]
            #expect(times.count == expected.count)
            #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
            link.invalidate()
        }

        @Test("A view-backed layer does not animate outside an animation block")
        func viewChangesOutsideBlockAreImmediate() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .blue)
            h.root.addSubview(view)
            await h.settle()
            let before = h.commitCount
            view.alpha = 0.5
            view.center = CGPoint(x: 50, y: 40)
            #expect(view.layer.animationKeys() == nil)
            await FrameDriver(harness: h).runUntilIdle()
            #expect(h.commitCount == before + 1)
            #expect(view.layer.presentation().opacity == 0.5)
        }

        @Test("A standalone layer animates property changes implicitly over 0.25 s")
        func standaloneLayerAnimatesImplicitly() async throws {
            let h = Harness()
            let layer = Layer()
            layer.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
            layer.backgroundColor = .green
            h.root.layer.addSublayer(layer)
            await h.settle()
            #expect(layer.animationKeys() == nil, "adding a layer runs no action")
            let before = h.commitCount
            let draws = h.window.drawCount
            layer.opacity = 0.2
            #expect(layer.opacity == 0.2)
            #expect(layer.animationKeys() == ["opacity"])
            let animation = try #require(layer.animation(forKey: "opacity"))
            #expect(animation.duration == 0.25)
            #expect(layer.presentation().opacity == 1)
            var opacities: [CGFloat] = []
            h.window.onCommit = { _ in opacities.append(layer.presentation().opacity) }
            await FrameDriver(harness: h).runUntilIdle()
            #expect((9...11).contains(h.commitCount - before))
            #expect(h.window.drawCount == draws)
            #expect(opacities == opacities.sorted(by: >), "fades monotonically: \(opacities)")
            #expect(opacities.last == 0.2)
            #expect(Set(opacities).count == opacities.count, "no commit repeats a frame")
            #expect(layer.animationKeys() == nil)
        }

        @Test("setDisableActions(true) makes standalone layer changes immediate")
        func disableActionsStopsImplicitAnimation() async {
            let h = Harness()
            let layer = Layer()
            layer.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
            layer.backgroundColor = .green
            h.root.layer.addSublayer(layer)
            await h.settle()
            let before = h.commitCount
            Transaction.begin()
            Transaction.setDisableActions(true)
            #expect(Transaction.disableActions())
            layer.position = CGPoint(x: 60, y: 40)
            Transaction.commit()
            #expect(!Transaction.disableActions())
            #expect(layer.animationKeys() == nil)
            await FrameDriver(harness: h).runUntilIdle()
            #expect(h.commitCount == before + 1)
            #expect(Color.green.matches(h.screenColor(60, 40)))
            // Outside begin/commit the setting holds for the rest of the turn only.
            Transaction.setDisableActions(true)
            layer.opacity = 0.5
            #expect(layer.animationKeys() == nil)
            await nextTurn()
            #expect(!Transaction.disableActions())
            layer.opacity = 1
            #expect(layer.animationKeys() == ["opacity"])
            await FrameDriver(harness: h).runUntilIdle()
        }

        @Test("Transaction duration, timing function and completion apply to implicit animations; nesting inherits")
        func transactionSettings() async throws {
            let h = Harness()
            let layer = Layer()
            layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            layer.backgroundColor = .red
            h.root.layer.addSublayer(layer)
            await h.settle()
            var completed = 0
            Transaction.begin()
            Transaction.setAnimationDuration(0.5)
            Transaction.setAnimationTimingFunction(.linear)
            Transaction.setCompletionBlock { completed += 1 }
            Transaction.begin()
            #expect(Transaction.animationDuration() == 0.5, "a nested transaction inherits")
            Transaction.setAnimationDuration(0.1)
            layer.opacity = 0.5
            Transaction.commit()
            #expect(Transaction.animationDuration() == 0.5, "the inner setting ends with it")
            layer.position = CGPoint(x: 85, y: 5)
            Transaction.commit()
            #expect(Transaction.animationDuration() == 0.25)
            #expect(Transaction.animationTimingFunction() == .default)
            let opacity = try #require(layer.animation(forKey: "opacity"))
            let position = try #require(layer.animation(forKey: "position"))
            #expect(opacity.duration == 0.1)
            #expect(position.duration == 0.5)
            #expect(position.timingFunction == .linear)
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 11)  // 250 ms after the start: half-way
            #expect(abs(layer.presentation().position.x - 45) < 0.001)
            #expect(layer.animation(forKey: "opacity") == nil, "the 0.1 s animation ended")
            #expect(completed == 0, "the block waits for every animation of the transaction")
            await driver.runUntilIdle()
            #expect(completed == 1)
        }

        @Test("A completion block with no animation runs on the next turn, once")
        func completionWithoutAnimations() async {
            var finished: [Bool] = []
            View.animate(withDuration: 0.3) {} completion: { finished.append($0) }
            #expect(finished.isEmpty)
            await nextTurn()
            #expect(finished == [true])
            var zero: [Bool] = []
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            View.animate(withDuration: 0) { view.alpha = 0.3 } completion: { zero.append($0) }
            #expect(view.layer.animationKeys() == nil, "duration 0 changes at once")
            await nextTurn()
            #expect(zero == [true])
        }

        @Test("An explicit BasicAnimation runs for its key; removing it ends it unfinished")
        func explicitBasicAnimation() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .blue)
            h.root.addSubview(view)
            await h.settle()
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 0
            fade.toValue = 1
            fade.duration = 1
            var finished: [Bool] = []
            Transaction.begin()
            Transaction.setCompletionBlock { finished.append(true) }
            view.layer.add(fade, forKey: "fade")
            Transaction.commit()
            fade.toValue = 0.5  // the layer keeps its own copy
            #expect(view.layer.animationKeys() == ["fade"])
            #expect(view.layer.presentation().opacity == 0)
            #expect(view.layer.opacity == 1)
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 21)  // 0.5 s
            #expect(abs(view.layer.presentation().opacity - 0.5) < 0.001)
            view.layer.removeAnimation(forKey: "fade")
            #expect(view.layer.presentation().opacity == 1)
            #expect(finished == [true], "the transaction's block runs when its animation is removed")
            let frames = await driver.runUntilIdle()
            #expect(frames <= 2)
            #expect(Color.blue.matches(h.screenColor(20, 20)))
        }

        @Test("A BasicAnimation's byValue follows Core Animation's rules: from+by, to−by, and by alone from the value shown", arguments: ["from+by", "to+by", "by"])
        func basicAnimationByValue(_ combination: String) async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .blue)
            h.root.addSubview(view)
            await h.settle()
            let move = BasicAnimation(keyPath: "position")
            move.byValue = CGPoint(x: 40, y: -8)
            switch combination {
            case "from+by": move.fromValue = CGPoint(x: 100, y: 50)  // 100,50 → 140,42
            case "to+by": move.toValue = CGPoint(x: 100, y: 50)  // 60,58 → 100,50
            default: break  // the shown 20,20 → 60,12
            }
            move.duration = 1
            view.layer.add(move, forKey: "move")
            let expectedStart: CGPoint = switch combination {
            case "from+by": CGPoint(x: 100, y: 50)
            case "to+by": CGPoint(x: 60, y: 58)
            default: CGPoint(x: 20, y: 20)
            }
            #expect(view.layer.presentation().position == expectedStart)
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 21)  // 0.5 s: halfway along the path
            let halfway = view.layer.presentation().position
            #expect(abs(halfway.x - (expectedStart.x + 20)) < 0.01 && abs(halfway.y - (expectedStart.y - 4)) < 0.01, "\(halfway)")
            _ = await driver.runUntilIdle()
            #expect(view.layer.presentation().position == CGPoint(x: 20, y: 20), "the model value shows once it ends")
        }

        @Test("A KeyframeAnimation passes through its values at its key times")
        func keyframeAnimation() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .red)
            h.root.addSubview(view)
            await h.settle()
            let path = KeyframeAnimation(keyPath: "position")
            path.values = [CGPoint(x: 5, y: 5), CGPoint(x: 85, y: 5), CGPoint(x: 85, y: 65)]
            path.keyTimes = [0, 0.5, 1]
            path.duration = 0.4
            view.layer.add(path, forKey: "path")
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 5)  // 0.1 s: a quarter
            let quarter = view.layer.presentation().position
            #expect(abs(quarter.x - 45) < 0.001 && quarter.y == 5, "\(quarter)")
            await driver.run(frames: 6)  // 0.25 s
            let position = view.layer.presentation().position
            #expect(abs(position.x - 85) < 0.001 && abs(position.y - 20) < 0.001, "\(position)")
            await driver.runUntilIdle()
            #expect(view.layer.presentation().position == CGPoint(x: 5, y: 5), "back to the model value")
        }

        @Test("An animation Damask cannot run is reported and not added, never a trap")
        func unsupportedAnimationsAreReported() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            let before = h.window.statistics.animationProblemCount
            view.layer.add(BasicAnimation(keyPath: "shadowOpacity"), forKey: "a")
            let wrongType = BasicAnimation(keyPath: "position")
            wrongType.toValue = 3.0
            view.layer.add(wrongType, forKey: "b")
            let noValues = KeyframeAnimation(keyPath: "opacity")
            view.layer.add(noValues, forKey: "c")
            let badTimes = KeyframeAnimation(keyPath: "opacity")
            badTimes.values = [0, 1]
            badTimes.keyTimes = [0]
            view.layer.add(badTimes, forKey: "d")
            #expect(h.window.statistics.animationProblemCount == before + 4)
            #expect(view.layer.animationKeys() == nil)
        }

        @Test("Timing functions have Core Animation's control points")
        func timingFunctions() {
            #expect(TimingFunction.linear.progress(atTime: 0.3) == 0.3)
            #expect(abs(TimingFunction.easeInEaseOut.progress(atTime: 0.5) - 0.5) < 1e-6)
            #expect(TimingFunction.easeIn.progress(atTime: 0.5) < 0.4)
            #expect(TimingFunction.easeOut.progress(atTime: 0.5) > 0.6)
            // The CSS `ease` curve is Core Animation's default: 0.5 → 0.8024 (to 4 places).
            #expect(abs(TimingFunction.default.progress(atTime: 0.5) - 0.8024) < 0.0005)
            let custom = TimingFunction(controlPoints: 0.1, 0.7, 0.1, 1)
            #expect(custom.controlPoint1 == CGPoint(x: CGFloat(Float(0.1)), y: CGFloat(Float(0.7))))
            #expect(custom.progress(atTime: 0) == 0 && custom.progress(atTime: 1) == 1)
            var last = 0.0
            for step in 1...100 {
                let value = TimingFunction.easeInEaseOut.progress(atTime: Double(step) / 100)
                #expect(value >= last)
                last = value
            }
        }

        @Test("A transform animation rotates (interpolated as a rotation) and scales, only recompositing")
        func transformAnimation() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 30, y: 20, width: 40, height: 40), color: .blue)
            h.root.addSubview(view)
            await h.settle()
            let draws = h.window.drawCount
            View.animate(withDuration: 0.2, options: .curveLinear) {
                view.transform = CGAffineTransform(rotationAngle: .pi / 2).scaledBy(x: 0.5, y: 0.5)
            }
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 5)
            let parts = try #require(TransformComponents(view.layer.presentation().transform))
            #expect(abs(parts.rotation - .pi / 4) < 1e-6)
            #expect(abs(parts.scaleX - 0.75) < 1e-6 && abs(parts.scaleY - 0.75) < 1e-6)
            await driver.runUntilIdle()
            #expect(h.window.drawCount == draws)
            #expect(Color.blue.matches(h.screenColor(50, 40)))
            #expect(Color.white.matches(h.screenColor(33, 23)), "scaled to half")
        }

        @Test("backgroundColor and cornerRadius animate on a standalone layer")
        func colorAndCornerRadiusAnimate() async throws {
            let h = Harness()
            let layer = Layer()
            layer.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
            layer.backgroundColor = .red
            h.root.layer.addSublayer(layer)
            await h.settle()
            Transaction.begin()
            Transaction.setAnimationTimingFunction(.linear)
            Transaction.setAnimationDuration(0.2)
            layer.backgroundColor = .blue
            layer.cornerRadius = 20
            Transaction.commit()
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 5)
            let mid = try #require(layer.presentation().backgroundColor)
            #expect(abs(mid.red - 0.5) < 0.001 && abs(mid.blue - 0.5) < 0.001)
            #expect(abs(layer.presentation().cornerRadius - 10) < 0.001)
            let damage = h.lastDamage
            #expect(damage.subtracting(Region(CGRect(x: 10, y: 10, width: 40, height: 40))).isEmpty)
            await driver.runUntilIdle()
            #expect(Color.blue.matches(h.screenColor(30, 30)))
            #expect(Color.white.matches(h.screenColor(11, 11)), "a round corner")
        }

        @Test("Repeat and autoreverse: an autoreversing animation ends where it began")
        func autoreverse() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            let bounce = BasicAnimation(keyPath: "position.x")
            bounce.fromValue = 5
            bounce.toValue = 45
            bounce.duration = 0.1
            bounce.autoreverses = true
            bounce.repeatCount = 2
            view.layer.add(bounce, forKey: "bounce")
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 5)  // 0.1 s: the far end
            #expect(abs(view.layer.presentation().position.x - 45) < 0.001)
            await driver.run(frames: 4)  // 0.2 s: back
            #expect(abs(view.layer.presentation().position.x - 5) < 0.001)
            let frames = await driver.runUntilIdle()
            #expect((8...12).contains(frames), "the second cycle, then no frames: \(frames)")
        }

        @Test("A layer that leaves the window ends its animations unfinished")
        func leavingTheWindowEndsAnimations() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            var finished: [Bool] = []
            View.animate(withDuration: 1) { view.center = CGPoint(x: 50, y: 50) } completion: {
                finished.append($0)
            }
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 3)
            view.removeFromSuperview()
            let frames = await driver.runUntilIdle()
            #expect(frames <= 3)
            #expect(finished == [false])
            #expect(view.layer.animationKeys() == nil)
        }

        @Test("A new animation for the same key begins from the value shown, and the old one ends unfinished")
        func interruptionBeginsFromCurrentState() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            var first: [Bool] = []
            View.animate(withDuration: 0.2, options: .curveLinear) { view.center = CGPoint(x: 85, y: 5) } completion: {
                first.append($0)
            }
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 5)
            let shown = view.layer.presentation().position
            #expect(abs(shown.x - 45) < 0.001)
            View.animate(withDuration: 0.2) { view.center = CGPoint(x: 5, y: 5) }
            #expect(view.layer.presentation().position == shown, "no jump")
            #expect(first.isEmpty, "the completion waits for the end of the block that replaced its animation")
            await nextTurn()
            #expect(first == [false])
            await driver.runUntilIdle()
        }
    }
}

extension ViewsTests {
    @Suite("Animations: timing details", .exclusive, .timeLimit(.minutes(5))) @MainActor struct AnimationTiming {
        @Test("fillMode .forwards with isRemovedOnCompletion false holds the end value, and asks for no more frames")
        func fillForwardsHoldsTheEnd() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            let fade = BasicAnimation(keyPath: "opacity")
            fade.toValue = 0.25
            fade.duration = 0.1
            fade.fillMode = .forwards
            fade.isRemovedOnCompletion = false
            var finished: [Bool] = []
            Transaction.begin()
            Transaction.setCompletionBlock { finished.append(true) }
            view.layer.add(fade, forKey: "hold")
            Transaction.commit()
            let frames = await FrameDriver(harness: h).runUntilIdle()
            #expect(frames <= 8, "frames stop although the animation stays: \(frames)")
            #expect(view.layer.animationKeys() == ["hold"])
            #expect(view.layer.presentation().opacity == 0.25)
            #expect(view.layer.opacity == 1)
            #expect(finished == [true])
            view.layer.removeAllAnimations()
            #expect(view.layer.presentation().opacity == 1)
        }

        @Test("A delayed block shows the old value until it starts (fillMode .backwards)")
        func delayedBlockHoldsTheStart() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            View.animate(withDuration: 0.1, delay: 0.1, options: .curveLinear) {
                view.center = CGPoint(x: 45, y: 5)
            }
            let driver = FrameDriver(harness: h)
            await driver.run(frames: 4)  // 75 ms after the start: still waiting
            #expect(view.layer.presentation().position == CGPoint(x: 5, y: 5))
            await driver.run(frames: 3)  // 150 ms: half-way through the animation
            #expect(abs(view.layer.presentation().position.x - 25) < 0.001)
            await driver.runUntilIdle()
            #expect(view.layer.presentation().position == CGPoint(x: 45, y: 5))
        }

        @Test("performWithoutAnimation and a zero duration inside a block change at once; a nested block with overrideInheritedDuration uses its own duration")
        func nestedBlocks() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            View.animate(withDuration: 1) {
                view.alpha = 0.5
                View.performWithoutAnimation { view.center = CGPoint(x: 30, y: 30) }
                View.animate(withDuration: 0.2, options: .overrideInheritedDuration) {
                    view.transform = CGAffineTransform(scaleX: 2, y: 2)
                }
            }
            #expect(view.layer.animationKeys() == ["opacity", "transform"])
            #expect(view.layer.presentation().position == CGPoint(x: 30, y: 30))
            #expect(try #require(view.layer.animation(forKey: "opacity")).duration == 1)
            #expect(try #require(view.layer.animation(forKey: "transform")).duration == 0.2)
            #expect(!View.isInsideAnimationBlock)
            await FrameDriver(harness: h).runUntilIdle()
        }

        @Test("An animation added to a layer outside any window starts when the layer joins one")
        func animationStartsWhenLayerJoinsWindow() async {
            let h = Harness()
            await h.settle()
            let layer = Layer()
            layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            layer.backgroundColor = .red
            let slide = BasicAnimation(keyPath: "position.x")
            slide.fromValue = 5
            slide.toValue = 85
            slide.duration = 0.2
            layer.add(slide, forKey: "slide")
            #expect(layer.presentation().position.x == 5)
            let before = h.commitCount
            h.root.layer.addSublayer(layer)
            let frames = await FrameDriver(harness: h).runUntilIdle()
            #expect((8...12).contains(frames))
            #expect(h.commitCount - before >= 8)
            #expect(layer.animationKeys() == nil)
            #expect(Color.red.matches(h.screenColor(5, 5)))
        }

        @Test("Transaction.commit() without begin() is reported and ignored, not a trap")
        func unbalancedCommitIsIgnored() {
            let depth = Transaction.depth
            Transaction.commit()
            #expect(Transaction.depth == depth)
        }
    }
}

extension ViewsTests.AnimationTiming {
    @Test("A view moved to another window keeps animating there")
    func animationFollowsViewToAnotherWindow() async {
        let first = Harness()
        let second = Harness()
        let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        first.root.addSubview(view)
        await first.settle()
        await second.settle()
        View.animate(withDuration: 0.2) { view.center = CGPoint(x: 45, y: 5) }
        await FrameDriver(harness: first).run(frames: 3)
        second.root.addSubview(view)
        await FrameDriver(harness: first).runUntilIdle()
        #expect(view.layer.animationKeys() == ["position"], "the first window's frames leave it alone")
        await FrameDriver(harness: second).runUntilIdle()
        #expect(view.layer.animationKeys() == nil)
        #expect(view.layer.presentation().position == CGPoint(x: 45, y: 5))
    }
}
