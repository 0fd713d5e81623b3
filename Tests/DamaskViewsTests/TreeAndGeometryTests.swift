import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The view and layer trees, geometry, conversion and layout.
extension ViewsTests {
    @Suite("Tree and geometry", .exclusive, .timeLimit(.minutes(5))) @MainActor struct TreeAndGeometry {
        @Test("Subview operations keep subviews and sublayers in the same order")
        func subviewOperationsKeepLayerOrder() {
            let parent = PlainView()
            let a = PlainView(), b = PlainView(), c = PlainView()
            parent.addSubview(a)
            parent.addSubview(b)
            parent.insertSubview(c, at: 0)
            #expect(parent.subviews.map(ObjectIdentifier.init) == [c, a, b].map(ObjectIdentifier.init))
            parent.bringSubviewToFront(c)
            #expect(parent.subviews.last === c)
            parent.sendSubviewToBack(b)
            #expect(parent.subviews.first === b)
            parent.insertSubview(a, aboveSubview: c)
            #expect(parent.subviews.map(ObjectIdentifier.init) == [b, c, a].map(ObjectIdentifier.init))
            parent.insertSubview(a, belowSubview: b)
            #expect(parent.subviews.map(ObjectIdentifier.init) == [a, b, c].map(ObjectIdentifier.init))
            #expect(parent.layer.sublayers.map(ObjectIdentifier.init) == parent.subviews.map { ObjectIdentifier($0.layer) })
            b.removeFromSuperview()
            #expect(b.superview == nil && b.layer.superlayer == nil)
            #expect(parent.subviews.count == 2 && parent.layer.sublayers.count == 2)
        }

        @Test("Adding a view to a new parent removes it from the old one")
        func addingToNewParentMovesTheView() {
            let first = PlainView(), second = PlainView(), child = PlainView()
            first.addSubview(child)
            second.addSubview(child)
            #expect(first.subviews.isEmpty && first.layer.sublayers.isEmpty)
            #expect(child.superview === second)
            #expect(child.isDescendant(of: second) && !child.isDescendant(of: first))
        }

        @Test("Frame, center and bounds follow Core Animation's geometry")
        func frameCenterAndBoundsAgree() {
            let view = PlainView(frame: CGRect(x: 10, y: 20, width: 40, height: 30))
            #expect(view.center == CGPoint(x: 30, y: 35))
            #expect(view.bounds == CGRect(x: 0, y: 0, width: 40, height: 30))
            view.transform = CGAffineTransform(scaleX: 2, y: 2)
            #expect(view.frame == CGRect(x: -10, y: 5, width: 80, height: 60))
            view.transform = .identity
            view.layer.anchorPoint = .zero
            view.center = CGPoint(x: 5, y: 5)
            #expect(view.frame.origin == CGPoint(x: 5, y: 5))
        }

        @Test("Points convert between views through bounds origins and transforms")
        func pointsConvertBetweenViews() {
            let h = Harness()
            let outer = PlainView(frame: CGRect(x: 10, y: 10, width: 50, height: 50))
            let inner = PlainView(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
            outer.addSubview(inner)
            h.root.addSubview(outer)
            #expect(inner.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 16, y: 17))
            #expect(inner.convert(CGPoint(x: 16, y: 17), from: nil) == CGPoint(x: 1, y: 2))
            outer.bounds.origin = CGPoint(x: 5, y: 0)
            #expect(inner.convert(CGPoint.zero, to: outer) == CGPoint(x: 5, y: 5))
            #expect(inner.convert(CGPoint.zero, to: nil) == CGPoint(x: 10, y: 15))
            #expect(inner.convert(CGRect(x: 0, y: 0, width: 2, height: 2), to: h.root) == CGRect(x: 10, y: 15, width: 2, height: 2))
        }

        @Test("setNeedsLayout runs layoutSubviews once, parents before children")
        func setNeedsLayoutRunsLayoutOnceParentsFirst() {
            final class Logger: View {
                var log: [String]
                let name: String
                init(_ name: String, log: [String] = []) {
                    self.name = name
                    self.log = log
                    super.init(frame: .zero)
                }
                var onLayout: ((String) -> Void)?
                override func layoutSubviews() { onLayout?(name) }
            }
            var order: [String] = []
            let parent = Logger("parent")
            let child = Logger("child")
            parent.addSubview(child)
            parent.onLayout = { order.append($0) }
            child.onLayout = { order.append($0) }
            parent.layoutIfNeeded()
            #expect(order == ["parent", "child"])
            parent.layoutIfNeeded()
            #expect(order == ["parent", "child"])
            child.setNeedsLayout()
            parent.setNeedsLayout()
            parent.layoutIfNeeded()
            #expect(order == ["parent", "child", "parent", "child"])
            parent.frame.size = CGSize(width: 5, height: 5)
            parent.layoutIfNeeded()
            #expect(order.count == 5)
        }

        @Test("Contents gravity places contents of a given size inside the bounds")
        func contentsGravityPlacesContents() {
            let bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
            let size = CGSize(width: 20, height: 10)
            #expect(ContentsGravity.resize.rect(forContentsOfSize: size, in: bounds) == bounds)
            #expect(ContentsGravity.center.rect(forContentsOfSize: size, in: bounds) == CGRect(x: 40, y: 20, width: 20, height: 10))
            #expect(ContentsGravity.topLeft.rect(forContentsOfSize: size, in: bounds) == CGRect(x: 0, y: 0, width: 20, height: 10))
            #expect(ContentsGravity.bottomRight.rect(forContentsOfSize: size, in: bounds) == CGRect(x: 80, y: 40, width: 20, height: 10))
            #expect(ContentsGravity.resizeAspect.rect(forContentsOfSize: size, in: bounds) == CGRect(x: 0, y: 0, width: 100, height: 50))
            #expect(
                ContentsGravity.resizeAspect.rect(forContentsOfSize: CGSize(width: 10, height: 10), in: bounds)
                    == CGRect(x: 25, y: 0, width: 50, height: 50))
        }

        @Test("A layer's contents set directly are shown without drawing")
        func directlySetContentsAreShown() async throws {
            let h = Harness()
            let bitmap = try Bitmap(width: 10, height: 10)
            bitmap.fill(.green)
            let layer = Layer()
            layer.frame = CGRect(x: 20, y: 20, width: 10, height: 10)
            layer.contents = bitmap
            h.root.layer.addSublayer(layer)
            await nextTurn()
            #expect(Color.green.matches(h.screenColor(25, 25)))
            #expect(layer.displayCount == 0)
            // A standalone layer animates a bounds change implicitly (Core Animation's
            // rule); this test is about gravity, so the change is made at once.
            Transaction.begin()
            Transaction.setDisableActions(true)
            layer.contentsGravity = .topLeft
            layer.bounds.size = CGSize(width: 20, height: 20)
            Transaction.commit()
            await h.step()
            #expect(Color.green.matches(h.screenColor(16, 16)))
            #expect(!Color.green.matches(h.screenColor(34, 34)))
        }

        @Test("A layer subclass can draw by overriding draw(in:)")
        func layerSubclassDrawsByOverriding() throws {
            final class Striped: Layer {
                override func draw(in context: GraphicsContext) {
                    context.setFillColor(.blue)
                    context.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
                }
            }
            let layer = Striped()
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            layer.setNeedsDisplay()
            layer.displayIfNeeded()
            let contents = try #require(layer.contents)
            #expect(Color.blue.matches(contents.color(x: 2, y: 2)))
            #expect(contents.color(x: 7, y: 2).alpha == 0)
        }

        @Test("Replacing the content view repaints the window with the new one")
        func replacingContentViewRepaints() async {
            let h = Harness()
            let old = h.window.contentView
            await h.settle()
            let replacement = SolidView(frame: .zero, color: .blue)
            h.window.contentView = replacement
            await h.step()
            #expect(replacement.frame == h.window.bounds)
            #expect(old.window == nil)
            #expect(replacement.window === h.window)
            #expect(replacement.next === h.window)
            #expect(Color.blue.matches(h.screenColor(50, 40)))
        }
    }

    @Suite("Offscreen rendering", .shared, .timeLimit(.minutes(5))) @MainActor struct OffscreenRendering {
        @Test("A view tree renders to a bitmap without any window")
        func viewTreeRendersWithoutWindow() throws {
            let root = PlainView(frame: CGRect(x: 0, y: 0, width: 30, height: 20))
            root.backgroundColor = .white
            let child = SolidView(frame: CGRect(x: 10, y: 5, width: 10, height: 10), color: .blue)
            root.addSubview(child)
            let image = try root.renderImage(scale: 2)
            #expect(image.width == 60 && image.height == 40)
            #expect(Color.blue.matches(image.color(x: 30, y: 20)))
            #expect(Color.white.matches(image.color(x: 2, y: 2)))
            #expect(child.drawCount == 1)
        }

        @Test("A rendered view writes a PNG that reads back identical")
        func renderedViewRoundTripsThroughPNG() throws {
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 12, height: 8), color: .orange)
            let path = NSTemporaryDirectory() + "damask-views-\(UUID().uuidString).png"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try view.writePNG(to: path)
            let read = try Bitmap(contentsOfPNGFile: path)
            #expect(pixelsEqual(read, try view.renderImage()))
        }

        @Test("A window renders offscreen exactly what it presented")
        func windowRenderMatchesPresentedScreen() async throws {
            let h = Harness(width: 40, height: 30, scale: 1.5)
            let view = SolidView(frame: CGRect(x: 3.5, y: 4, width: 20, height: 10), color: .red)
            view.transform = CGAffineTransform(rotationAngle: 0.2)
            view.alpha = 0.6
            h.root.addSubview(view)
            await nextTurn()
            let screen = try #require(h.surface.presentedBitmap)
            #expect(pixelsEqual(screen, try h.window.renderImage()))
        }
    }
}
