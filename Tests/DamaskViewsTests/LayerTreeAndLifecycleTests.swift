import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// A layer kind of its own, for `layerClass`.
final class MarkedLayer: Layer {}

/// A view whose layer is a ``MarkedLayer``.
final class MarkedView: View {
    override class var layerClass: Layer.Type { MarkedLayer.self }
}

/// A view that records its lifecycle calls, in order.
final class LifecycleView: View {
    var calls: [String] = []

    override func didAddSubview(_ subview: View) { calls.append("didAddSubview") }
    override func willRemoveSubview(_ subview: View) { calls.append("willRemoveSubview") }
    override func didMoveToSuperview() { calls.append("didMoveToSuperview \(superview == nil ? "nil" : "view")") }
    override func didMoveToWindow() { calls.append("didMoveToWindow \(window == nil ? "nil" : "window")") }
}

/// Public tree API no other test reached (found by scripts/coverage): layer insertion by
/// index and sibling, removal from the superlayer, the view lifecycle hooks, `layerClass`
/// and the options of an animation block.
extension ViewsTests {
    @Suite("Layer tree, view lifecycle and animation options", .exclusive, .timeLimit(.minutes(5))) @MainActor struct LayerTreeAndLifecycle {
        func ids(_ layers: [Layer]) -> [ObjectIdentifier] { layers.map(ObjectIdentifier.init) }

        @Test("insertSublayer at an index (clamped), below and above a sibling (appending for a stranger), and reordering")
        func insertSublayerPlacesLayers() {
            let parent = Layer(), a = Layer(), b = Layer(), c = Layer(), d = Layer(), stranger = Layer()
            parent.insertSublayer(a, at: 0)
            parent.insertSublayer(b, at: 99)
            parent.insertSublayer(c, at: -5)
            #expect(ids(parent.sublayers) == ids([c, a, b]))
            parent.insertSublayer(d, below: a)
            #expect(ids(parent.sublayers) == ids([c, d, a, b]))
            parent.insertSublayer(d, above: b)
            #expect(ids(parent.sublayers) == ids([c, a, b, d]), "a sublayer inserted again moves, it is not duplicated")
            let e = Layer()
            parent.insertSublayer(e, below: stranger)
            #expect(parent.sublayers.last === e, "below a layer that is not a sublayer: appended")
            #expect([a, b, c, d, e].allSatisfy { $0.superlayer === parent })
        }

        @Test("removeFromSuperlayer detaches the layer once; inserting into another parent moves it")
        func removeFromSuperlayerDetaches() {
            let first = Layer(), second = Layer(), child = Layer(), grandchild = Layer()
            first.addSublayer(child)
            child.addSublayer(grandchild)
            second.insertSublayer(child, at: 0)
            #expect(first.sublayers.isEmpty && child.superlayer === second)
            child.removeFromSuperlayer()
            #expect(child.superlayer == nil && second.sublayers.isEmpty)
            #expect(grandchild.superlayer === child, "the subtree stays together")
            child.removeFromSuperlayer()
            #expect(child.superlayer == nil, "a second removal does nothing")
        }

        @Test("A removed layer's area is repainted and redrawn nowhere else")
        func removedLayerIsRepainted() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .red)
            h.root.addSubview(view)
            await h.settle()
            let sublayer = Layer()
            sublayer.frame = CGRect(x: 40, y: 30, width: 10, height: 10)
            sublayer.backgroundColor = .blue
            h.root.layer.insertSublayer(sublayer, below: view.layer)
            await h.settle()
            #expect(h.surface.presentedBitmap?.pixel(x: 45, y: 35) == Color.blue.premultipliedARGB32)
            sublayer.removeFromSuperlayer()
            await h.settle()
            #expect(h.lastDamage == Region(CGRect(x: 40, y: 30, width: 10, height: 10)), "\(h.lastDamage)")
            #expect(h.surface.presentedBitmap?.pixel(x: 45, y: 35) != Color.blue.premultipliedARGB32)
        }

        @Test("didAddSubview, willRemoveSubview, didMoveToSuperview and didMoveToWindow come in UIKit's order")
        func lifecycleHooksInOrder() async {
            let h = Harness()
            let parent = LifecycleView(), child = LifecycleView()
            parent.addSubview(child)
            #expect(parent.calls == ["didAddSubview"])
            #expect(child.calls == ["didMoveToSuperview view"], "no window yet: no didMoveToWindow")
            child.calls = []
            h.root.addSubview(parent)
            #expect(parent.calls.contains("didMoveToWindow window"))
            #expect(child.calls == ["didMoveToWindow window"], "the subtree enters the window too")
            parent.calls = []
            child.calls = []
            child.removeFromSuperview()
            #expect(parent.calls == ["willRemoveSubview"])
            #expect(child.calls == ["didMoveToWindow nil", "didMoveToSuperview nil"] || child.calls == ["didMoveToSuperview nil", "didMoveToWindow nil"], "\(child.calls)")
            #expect(child.window == nil && child.superview == nil)
        }

        @Test("Links to a superview, superlayer, owning view or window freed first read nil, not a freed object")
        func linksToFreedObjectsReadNil() {
            let child = View(), sublayer = Layer(), viewLayer: Layer, inWindow = View()
            let surface: MemorySurface, timer: FrameTimer, link: DisplayLink
            weak var freedWindow: Window?
            do {
                let parent = View(), parentLayer = Layer(), owner = View(), h = Harness()
                parent.addSubview(child)
                parentLayer.addSublayer(sublayer)
                viewLayer = owner.layer
                h.root.addSubview(inWindow)
                (surface, freedWindow) = (h.surface, h.window)
                timer = FrameTimer(window: h.window, interval: 500, repeats: true) { _ in }
                link = DisplayLink(window: h.window) { _ in }
                #expect(child.superview === parent && sublayer.superlayer === parentLayer)
                #expect(viewLayer.delegate === owner && inWindow.window === h.window)
                #expect(surface.delegate === h.window && timer.window === h.window && link.window === h.window)
                #expect(WindowRegistry.openWindows.contains { $0 === h.window })
            }
            #expect(freedWindow == nil, "the window is freed with its harness")
            #expect(surface.delegate == nil && timer.window == nil && link.window == nil)
            #expect(WindowRegistry.openWindows.allSatisfy { $0.surface !== surface }, "unregistered")
            #expect(child.superview == nil && child.next == nil)
            #expect(sublayer.superlayer == nil && viewLayer.delegate == nil)
            #expect(inWindow.window == nil && inWindow.layer.window == nil, "the window cleared its tree's pointers")
            #expect(inWindow.superview == nil, "its superview, the content view, was freed with the window")
            let drawer = PlainView()
            viewLayer.delegate = drawer
            #expect(viewLayer.delegate === drawer, "another delegate is held weakly")
        }

        @Test("layerClass chooses the class of the view's layer")
        func layerClassChoosesTheLayer() {
            #expect(MarkedView().layer is MarkedLayer)
            #expect(!(PlainView().layer is MarkedLayer))
            #expect(MarkedView.layerClass == MarkedLayer.self && View.layerClass == Layer.self)
        }

        @Test("Animation options set the curve, repeat, autoreverse and the backwards fill of a delayed animation")
        func animationOptionsReachTheAnimation() {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .red)
            h.root.addSubview(view)
            let cases: [(View.AnimationOptions, TimingFunction)] = [
                (.curveEaseIn, .easeIn), (.curveEaseOut, .easeOut), (.curveLinear, .linear), ([], .easeInEaseOut),
            ]
            for (options, curve) in cases {
                View.animate(withDuration: 1, options: options) { view.alpha = view.alpha == 1 ? 0.5 : 1 }
                let animation = view.layer.animationKeys()?.compactMap { view.layer.animation(forKey: $0) }.last
                #expect(animation?.timingFunction == curve, "\(options)")
                #expect(animation?.repeatCount == 0 && animation?.autoreverses == false)
            }
            View.animate(withDuration: 1, delay: 0.5, options: [.repeat, .autoreverse]) { view.alpha = 0.25 }
            let repeating = view.layer.animationKeys()?.compactMap { view.layer.animation(forKey: $0) }.last
            #expect(repeating?.repeatCount == .infinity)
            #expect(repeating?.autoreverses == true)
            #expect(repeating?.delay == 0.5 && repeating?.fillMode == .backwards)
            view.layer.removeAllAnimations()
        }
    }
}
