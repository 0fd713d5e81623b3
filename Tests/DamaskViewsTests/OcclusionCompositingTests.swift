import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Compositing like a compositor: opaque layers replace pixels, what they hide is not
/// painted, only what nothing opaque covers is cleared, and the pixels always equal the
/// plain back-to-front OVER composite (`Window.render(to:)`).
extension ViewsTests {
    @Suite("Occlusion compositing", .shared, .timeLimit(.minutes(5))) @MainActor struct OcclusionCompositing {
        /// A view whose drawing covers its bounds with `color` and draws a translucent mark.
        final class OpaqueDrawingView: View {
            var color: Color = .blue
            override func draw(_ rect: CGRect) {
                let context = GraphicsContext.current!
                context.setFillColor(color)
                context.fill(bounds)
                context.setFillColor(Color(white: 1, alpha: 0.4))
                context.fillEllipse(in: bounds.insetBy(dx: 2, dy: 2))
            }
        }

        @Test(
            "Randomized trees with large opaque views: every commit equals the OVER composite, changes stay inside damage, and occlusion and SRC are used",
            arguments: [1.0, 2.0, 1.5] as [CGFloat])
        func randomizedOpaqueTreesMatchTheOverComposite(scale: CGFloat) async throws {
            let harness = Harness(width: 64, height: 48, scale: scale, capacity: 3, release: .afterNextPresent)
            var scene = RandomizedDamage.Scene(
                rng: SeededGenerator(seed: 0x0C_C1_0D + UInt64(scale * 10)), harness: harness)
            for index in 0..<8 {
                let frame = CGRect(
                    x: Int.random(in: -8...40, using: &scene.rng), y: Int.random(in: -8...30, using: &scene.rng),
                    width: Int.random(in: 16...40, using: &scene.rng), height: Int.random(in: 16...30, using: &scene.rng))
                let view: View
                if index.isMultiple(of: 2) {
                    let drawing = OpaqueDrawingView(frame: frame)
                    drawing.color = [.blue, .green, Color(red: 1, green: 0, blue: 0, alpha: 0.6)][index % 3]
                    view = drawing
                } else {
                    view = PlainView(frame: frame)
                    view.backgroundColor = [.yellow, .gray, Color(white: 0, alpha: 0.5)][index % 3]
                }
                (index < 5 ? harness.root : scene.views.randomElement(using: &scene.rng) ?? harness.root).addSubview(view)
                scene.views.append(view)
            }
            for _ in 0..<4 { scene.addView() }
            await nextTurn()
            let surface = harness.surface
            var previousScreen = try #require(surface.presentedBitmap).copy()
            let occludedBefore = harness.window.statistics.occludedLayerCount
            let replacedBefore = harness.window.statistics.replacedLayerCount
            var checkedCommits = 0
            for frame in 0..<250 {
                scene.log.removeAll()
                for _ in 0..<Int.random(in: 1...2, using: &scene.rng) { scene.mutate() }
                if frame.isMultiple(of: 17) { harness.window.setNeedsDisplay() }  // a full repaint now and then
                let commitsBefore = surface.commits.count
                if !harness.frame() { harness.window.flush() }
                let fresh = try harness.window.renderImage()
                let screen = try #require(surface.presentedBitmap)
                let differences = differingPixels(screen, fresh)
                #expect(
                    differences.isEmpty,
                    "frame \(frame): screen differs from the OVER composite at \(differences.prefix(5)) after \(scene.log)")
                for commit in surface.commits[commitsBefore...] {
                    checkedCommits += 1
                    let snapshot = try #require(commit.snapshot)
                    let outside = differingPixels(previousScreen, snapshot).filter {
                        !commit.damage.contains(CGPoint(x: CGFloat($0.0) + 0.5, y: CGFloat($0.1) + 0.5))
                    }
                    #expect(outside.isEmpty, "frame \(frame): changed outside damage at \(outside.prefix(5))")
                    previousScreen = snapshot
                }
                if !differences.isEmpty { break }
            }
            #expect(checkedCommits > 60)
            #expect(harness.window.statistics.occludedLayerCount > occludedBefore, "no layer was ever hidden under an opaque one")
            #expect(harness.window.statistics.replacedLayerCount > replacedBefore, "no opaque layer ever replaced pixels")
        }

        @Test("A view under an opaque view is not painted; under a translucent one it is")
        func hiddenViewIsNotPainted() async throws {
            let harness = Harness(width: 60, height: 40)
            harness.root.backgroundColor = .white
            let below = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .red)
            let cover = PlainView(frame: CGRect(x: 5, y: 5, width: 40, height: 30))
            cover.backgroundColor = .green
            harness.root.addSubview(below)
            harness.root.addSubview(cover)
            await harness.settle()
            let painted = harness.window.statistics.paintedLayerCount
            let occluded = harness.window.statistics.occludedLayerCount
            harness.window.setNeedsDisplay()
            harness.window.flush()
            // The content view (outside the cover) and the cover paint; the red view does not.
            #expect(harness.window.statistics.paintedLayerCount - painted == 2)
            #expect(harness.window.statistics.occludedLayerCount - occluded >= 1)
            #expect(harness.screenColor(20, 20) == .green)

            cover.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
            harness.window.setNeedsDisplay()
            harness.window.flush()
            let screen = try #require(harness.surface.presentedBitmap)
            #expect(differingPixels(screen, try harness.window.renderImage()).isEmpty)
            let mixed = try #require(harness.screenColor(20, 20))
            #expect(mixed.red > 0.4 && mixed.green > 0.4, "the red view shows through: \(mixed)")
        }

        @Test("Contents with one translucent pixel are not trusted as opaque")
        func translucentPixelKeepsWhatIsBeneath() async throws {
            let harness = Harness(width: 40, height: 30)
            let below = PlainView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
            below.backgroundColor = .red
            harness.root.addSubview(below)
            let image = try Bitmap(width: 20, height: 20)
            image.fill(.blue)
            image.setPixel(x: 7, y: 9, to: 0)  // one clear pixel
            let holder = PlainView(frame: CGRect(x: 10, y: 5, width: 20, height: 20))
            holder.layer.contents = image
            harness.root.addSubview(holder)
            await harness.settle()
            harness.window.setNeedsDisplay()
            harness.window.flush()
            #expect(harness.screenColor(17, 14) == .red)
            #expect(harness.screenColor(18, 14) == .blue)
            // Made opaque and set again: now it replaces what is beneath.
            image.setPixel(x: 7, y: 9, to: 0xFF00_00FF)
            holder.layer.contents = image
            let replaced = harness.window.statistics.replacedLayerCount
            harness.window.setNeedsDisplay()
            harness.window.flush()
            #expect(harness.screenColor(17, 14) == .blue)
            #expect(harness.window.statistics.replacedLayerCount > replaced)
        }
    
        @Test("A repaint among 2,000 siblings visits only those near the change, and stays exact after siblings move")
        func wideTreeRepaintVisitsOnlyNearbySiblings() async throws {
            let harness = Harness(width: 400, height: 200)
            var views: [SolidView] = []
            for index in 0..<2000 {
                let view = SolidView(
                    frame: CGRect(x: (index % 50) * 8, y: (index / 50) * 5, width: 8, height: 5),
                    color: index.isMultiple(of: 3) ? .blue : Color(red: 1, green: 0, blue: 0, alpha: 0.5))
                harness.root.addSubview(view)
                views.append(view)
            }
            await harness.settle()
            let visited = harness.window.statistics.visitedLayerCount
            let examined = harness.window.statistics.examinedSublayerCount
            views[1234].color = .green
            views[1234].setNeedsDisplay()
            harness.window.flush()
            let visits = harness.window.statistics.visitedLayerCount - visited
            let looks = harness.window.statistics.examinedSublayerCount - examined
            #expect(visits > 0 && visits < 20, "visited \(visits) layers for one changed view among 2,000")
            #expect(looks > 0 && looks < 200, "looked at \(looks) of 2,000 siblings for one changed view")
            // Move siblings around (their footprints change, so the grid is rebuilt) and
            // change views at their new places: the screen stays equal to the OVER composite.
            for step in 0..<20 {
                let moving = views[(step * 97) % views.count]
                moving.center = CGPoint(x: CGFloat((step * 53) % 390) + 4, y: CGFloat((step * 31) % 190) + 3)
                harness.window.flush()
                let changed = views[(step * 211) % views.count]
                changed.color = step.isMultiple(of: 2) ? .yellow : .gray
                changed.setNeedsDisplay()
                if step.isMultiple(of: 5) { views[step].removeFromSuperview() }
                harness.window.flush()
                let screen = try #require(harness.surface.presentedBitmap)
                #expect(differingPixels(screen, try harness.window.renderImage()).isEmpty, "step \(step)")
            }
        }
    }
}
