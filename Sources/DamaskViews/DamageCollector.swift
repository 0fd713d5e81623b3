import DamaskGraphics
import Foundation

/// Collects what a window's next frame must repaint, in buffer pixels: the areas layers
/// drew, and the old and new footprints of layers whose compositing changed.
///
/// A layer's compositing state is compared with what was last composited
/// (``Layer/renderRecord``) only along the paths the layers marked (see
/// ``Layer/needsCompositingWalk``); a layer whose placement changed takes its whole subtree
/// with it. Main-actor isolated; owned by its window.
@MainActor final class DamageCollector {
    /// The damage gathered since the last commit.
    @exclusivity(unchecked) private(set) var pending = Region()
    /// Whether some layer's compositing state changed since the last collection.
    var compositingChanged = true
    /// Whether the next frame repaints the whole buffer.
    var needsFullRepaint = true
    /// The area tinted by the damage flash in the frame on screen (repainted clean next).
    var flashed = Region()
    /// How many layers the last compositing walk visited (a debug counter for tests).
    private(set) var lastWalkVisitCount = 0

    /// Adds `rect` (buffer pixels) to the damage.
    func add(_ rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty else { return }
        pending.formUnion(rect)
    }

    /// Forgets the gathered damage (it was committed).
    func clear() {
        pending = Region()
    }

    /// Compares the marked layers' placements with what was last composited and adds the
    /// old and new footprints of whatever changed.
    func collect(root: Layer, scale: CGFloat) {
        lastWalkVisitCount = 0
        guard compositingChanged else { return }
        compositingChanged = false
        walk(root, parent: .root(scale: scale), forced: false, visitAll: false)
    }

    /// The damage of the next frame in `bufferRect`: the tree's changes, and those plus
    /// the flash to remove.
    func takeFrameDamage(in bufferRect: CGRect) -> (changes: Region, damage: Region) {
        if needsFullRepaint {
            needsFullRepaint = false
            pending = Region(bufferRect)
        }
        let bounds = Region(bufferRect)
        let changes = pending.intersection(bounds)
        return (changes, changes.union(flashed.intersection(bounds)))
    }

    /// Visits `layer`: compares its state with what was last composited and adds the
    /// difference. `forced` repaints unconditionally (a subtree added or reordered);
    /// `visitAll` visits every descendant (an ancestor's placement changed, so theirs may
    /// have); otherwise only marked sublayers are visited, and the subtree's footprint only
    /// grows (a conservative bound is still a correct one for skipping).
    private func walk(_ layer: Layer, parent: LayerPlacement, forced: Bool, visitAll: Bool) {
        lastWalkVisitCount += 1
        let placement = parent.descending(into: layer)
        let state = PresentedLayerState(
            footprint: placement.footprint(of: layer.paintedRect),
            transform: placement.transform, alpha: placement.alpha)
        let forced = forced || layer.subtreeNeedsRepaint
        let visitAll = visitAll || forced || layer.placementChanged
        if let old = layer.renderRecord.presented {
            if forced || layer.appearanceChanged || old != state {
                add(old.footprint)
                add(state.footprint)
            }
        } else {
            add(state.footprint)
        }
        layer.renderRecord.presented = state
        layer.renderRecord.placement = placement
        layer.appearanceChanged = false
        layer.subtreeNeedsRepaint = false
        layer.placementChanged = false
        var inner = placement
        inner.clip = placement.sublayerClip(of: layer)
        var subtreeFootprint = state.footprint
        if visitAll {
            layer.clearCompositingMarks()
            for sublayer in layer.sublayers {
                walk(sublayer, parent: inner, forced: forced, visitAll: true)
                subtreeFootprint = subtreeFootprint.union(sublayer.renderRecord.subtreeFootprint)
            }
        } else {
            subtreeFootprint = subtreeFootprint.union(layer.renderRecord.subtreeFootprint)
            for sublayer in layer.takeSublayersNeedingCompositingWalk()
            where sublayer.needsCompositingWalk {
                walk(sublayer, parent: inner, forced: false, visitAll: false)
                subtreeFootprint = subtreeFootprint.union(sublayer.renderRecord.subtreeFootprint)
            }
        }
        layer.renderRecord.subtreeFootprint = subtreeFootprint
    }

    /// Adds the footprints `layer`'s subtree was last composited at, and forgets them: the
    /// subtree is leaving the window.
    func forgetPresentedState(of layer: Layer) {
        if let presented = layer.renderRecord.presented { add(presented.footprint) }
        layer.renderRecord.presented = nil
        layer.renderRecord.placement = nil
        layer.renderRecord.subtreeFootprint = .null
        for sublayer in layer.sublayers { forgetPresentedState(of: sublayer) }
    }
}
