import DamaskGraphics
import Foundation

/// Finds the part of a window known to be opaque, for the compositor
/// (``Surface/setOpaqueRegion(_:)``): what it need not blend with what lies beneath.
///
/// A layer counts when it is visible, not animating, fully opaque along its whole chain of
/// superlayers, has square corners and is placed without rotation or skew; then its bounds
/// are opaque when its background is, and its contents' frame when every pixel of its
/// contents has full alpha (``Layer/contentsAreOpaque``, checked once per change), each
/// clipped by every ancestor that masks to its bounds and rounded inwards to whole points. Anything less
/// certain (a rounded corner, a shadow, a translucent parent, a rotated layer) is left out:
/// a smaller region only costs the compositor blending, a larger one would show garbage.
/// The walk is breadth-first and stops after ``maximumVisitedLayers`` layers, or as soon as
/// the whole window is covered, so its cost does not grow with the tree. Main-actor.
@MainActor enum OpaqueArea {
    /// How many layers one search visits at most.
    static let maximumVisitedLayers = 64

    /// The opaque part of the tree under `root`, in `root`'s coordinates (window points),
    /// within `bounds`.
    static func region(of root: Layer, in bounds: CGRect) -> Region {
        var region = Region()
        let whole = Region(bounds)
        var queue: [(layer: Layer, toRoot: CGAffineTransform, clip: CGRect)] = [(root, .identity, bounds)]
        var index = 0
        while index < queue.count, index < maximumVisitedLayers {
            let (layer, parentToRoot, clip) = queue[index]
            index += 1
            guard !layer.isHidden, layer.opacity >= 1, layer.presentationValues == nil else { continue }
            let toRoot = layer === root ? CGAffineTransform.identity : layer.transformToSuperlayer.concatenating(parentToRoot)
            let axisAligned = toRoot.b == 0 && toRoot.c == 0 && toRoot.a > 0 && toRoot.d > 0
            let rect = layer.bounds.applying(toRoot).intersection(clip)
            if axisAligned, PixelGeometry.isCertainlyOpaque(background: layer.backgroundColor, cornerRadius: layer.cornerRadius) {
                let inner = PixelGeometry.innerPixels(of: rect)
                if !inner.isNull {
                    region.formUnion(Region(inner))
                    if whole.subtracting(region).isEmpty { return whole }
                }
            }
            // Drawn contents every pixel of which has full alpha (checked once per change, as
            // the compositor checks them) are opaque where they are placed.
            if axisAligned, layer.cornerRadius == 0, layer.contents != nil, layer.contentsAreOpaque {
                let inner = PixelGeometry.innerPixels(of: layer.contentsFrame.applying(toRoot).intersection(clip))
                if !inner.isNull {
                    region.formUnion(Region(inner))
                    if whole.subtracting(region).isEmpty { return whole }
                }
            }
            // A rotated or rounded mask is no rectangle: nothing beneath it is certain.
            if layer.masksToBounds && (!axisAligned || layer.cornerRadius > 0) { continue }
            let childClip = layer.masksToBounds ? rect : clip
            guard !childClip.isEmpty else { continue }
            for sublayer in layer.sublayers {
                queue.append((sublayer, toRoot, childClip))
            }
        }
        return region
    }
}
