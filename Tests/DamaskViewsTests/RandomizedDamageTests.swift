import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskViews

/// Randomized scenes: after every commit the screen equals a fresh full render, and every
/// pixel that changed lies inside the damage sent.
extension ViewsTests {
    @Suite("Randomized damage", .shared, .timeLimit(.minutes(5))) @MainActor struct RandomizedDamage {
        /// How the surface gives buffers back.
        enum ReleasePattern: String, CaseIterable, Sendable {
            case immediate, oneFrameLate, severalLate

            var policy: MemorySurface.ReleasePolicy {
                switch self {
                case .immediate: .immediate
                case .oneFrameLate: .afterNextPresent
                case .severalLate: .afterPresents(3)
                }
            }

            var capacity: Int { self == .severalLate ? 4 : 3 }
        }

        /// A view whose drawing depends on its state (colour and a stripe), so partial
        /// redraws leave a visible seam if they are composited wrongly.
        final class PatternView: View {
            var color: Color = .red
            var stripe: CGFloat = 0
            override func draw(_ rect: CGRect) {
                let context = GraphicsContext.current!
                context.setFillColor(color)
                context.fill(bounds)
                context.setFillColor(Color(white: 0.1, alpha: 0.7))
                context.fill(CGRect(x: stripe, y: 0, width: 3, height: bounds.height))
                context.fillEllipse(in: bounds.insetBy(dx: bounds.width / 4, dy: bounds.height / 4))
            }
        }

        static let palette: [Color] = [
            .red, .green, .blue, .yellow, .orange, .gray, Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.5),
        ]

        @MainActor struct Scene {
            var rng: SeededRandom
            let harness: Harness
            var views: [View] = []
            /// The changes made since the last check, for failure messages.
            var log: [String] = []

            mutating func randomColor() -> Color {
                RandomizedDamage.palette.randomElement(using: &rng)!
            }

            mutating func randomFrame() -> CGRect {
                let size = harness.window.size
                let width = CGFloat(Int.random(in: 4...28, using: &rng))
                let height = CGFloat(Int.random(in: 4...24, using: &rng))
                let x = CGFloat(Int.random(in: -6...Int(size.width) - 4, using: &rng))
                let y = CGFloat(Int.random(in: -6...Int(size.height) - 4, using: &rng))
                let fraction: CGFloat = Bool.random(using: &rng) ? 0 : 0.5
                return CGRect(x: x + fraction, y: y, width: width, height: height)
            }

            mutating func makeView() -> View {
                let view: View
                if Bool.random(using: &rng) {
                    let pattern = PatternView(frame: randomFrame())
                    pattern.color = randomColor()
                    pattern.contentMode = [.redraw, .scaleToFill, .center, .topLeft].randomElement(using: &rng)!
                    view = pattern
                } else {
                    view = PlainView(frame: randomFrame())
                }
                if Bool.random(using: &rng) { view.backgroundColor = randomColor() }
                return view
            }

            mutating func addView() {
                let parent = ([harness.root] + views).randomElement(using: &rng)!
                let view = makeView()
                parent.addSubview(view)
                views.append(view)
            }

            mutating func removeView() {
                guard let view = views.randomElement(using: &rng) else { return }
                view.removeFromSuperview()
                views.removeAll { $0.isDescendant(of: view) }
            }

            /// Applies one random change.
            mutating func mutate() {
                guard let view = views.randomElement(using: &rng) else { return addView() }
                let operation = Int.random(in: 0..<13, using: &rng)
                log.append("op \(operation) on \(type(of: view)) \(view.frame) mode \(view.contentMode)")
                switch operation {
                case 0:
                    (view as? PatternView)?.color = randomColor()
                    view.setNeedsDisplay()
                case 1:
                    if let pattern = view as? PatternView {
                        pattern.stripe = CGFloat(Int.random(in: 0..<Int(max(1, view.bounds.width)), using: &rng))
                        pattern.color = randomColor()
                        let x = CGFloat(Int.random(in: 0..<Int(max(1, view.bounds.width)), using: &rng))
                        pattern.setNeedsDisplay(CGRect(x: x, y: 2, width: 5, height: 7))
                    }
                case 2:
                    view.center.x += CGFloat(Int.random(in: -5...5, using: &rng))
                    view.center.y += CGFloat(Int.random(in: -5...5, using: &rng))
                case 3:
                    view.frame.size = randomFrame().size
                case 4:
                    view.isHidden.toggle()
                case 5:
                    view.alpha = [1, 0.5, 0, 0.25].randomElement(using: &rng)!
                case 6:
                    addView()
                case 7:
                    removeView()
                case 8:
                    if Bool.random(using: &rng) {
                        view.superview?.bringSubviewToFront(view)
                    } else {
                        view.superview?.sendSubviewToBack(view)
                    }
                case 9:
                    view.transform = [
                        .identity, CGAffineTransform(scaleX: 1.5, y: 0.5), CGAffineTransform(rotationAngle: 0.3),
                        CGAffineTransform(translationX: 2, y: -3),
                    ].randomElement(using: &rng)!
                case 10:
                    view.backgroundColor = Bool.random(using: &rng) ? nil : randomColor()
                case 11:
                    view.clipsToBounds.toggle()
                default:
                    view.bounds.origin.x += 1
                }
            }
        }

        @Test(
            "After every commit the screen equals a fresh render and changes lie inside damage",
            arguments: ReleasePattern.allCases, [1.0, 1.5] as [CGFloat])
        func screenMatchesFreshRenderAndChangesLieInsideDamage(
            pattern: ReleasePattern, scale: CGFloat
        ) async throws {
            let harness = Harness(
                width: 48, height: 40, scale: scale, capacity: pattern.capacity, release: pattern.policy)
            var scene = Scene(
                rng: SeededRandom(seed: 0xDA3A5C + UInt64(scale * 10) + UInt64(pattern.rawValue.count)),
                harness: harness)
            for _ in 0..<6 { scene.addView() }
            await nextTurn()
            let surface = harness.surface
            var previousScreen = try #require(surface.presentedBitmap).copy()
            var checkedCommits = 0
            let frames = 350
            for frame in 0..<frames {
                scene.log.removeAll()
                for _ in 0..<Int.random(in: 1...3, using: &scene.rng) { scene.mutate() }
                let commitsBefore = surface.commits.count
                switch Int.random(in: 0..<4, using: &scene.rng) {
                case 0: await harness.step()
                case 1: harness.window.flush()
                default:
                    if !harness.frame() { harness.window.flush() }
                }
                if surface.commits.count == commitsBefore, harness.window.passCount > 0 {
                    // Nothing was committed yet: the pass may wait for a frame callback.
                    if !harness.frame() { harness.window.flush() }
                }
                let fresh = try harness.window.renderImage()
                let screen = try #require(surface.presentedBitmap)
                let differences = differingPixels(screen, fresh)
                #expect(
                    differences.isEmpty,
                    "frame \(frame): screen differs from a fresh render at \(differences.prefix(5)) after \(scene.log)")
                if surface.commits.count > commitsBefore {
                    for commit in surface.commits[commitsBefore...] {
                        checkedCommits += 1
                        let snapshot = try #require(commit.snapshot)
                        let changed = differingPixels(previousScreen, snapshot)
                        let outside = changed.filter {
                            !commit.damage.contains(CGPoint(x: CGFloat($0.0) + 0.5, y: CGFloat($0.1) + 0.5))
                        }
                        #expect(outside.isEmpty, "frame \(frame): changed outside damage at \(outside.prefix(5))")
                        previousScreen = snapshot
                    }
                }
                if !differences.isEmpty { break }
            }
            #expect(checkedCommits > frames / 4)
        }
    }
}
