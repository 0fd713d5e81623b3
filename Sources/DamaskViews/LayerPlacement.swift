import DamaskGraphics
import Foundation

/// Where a layer lands in buffer pixels: its transform, the clip of its masking
/// ancestors, its effective opacity and visibility. Computed top-down while walking a tree.
struct LayerPlacement {
    /// Maps the layer's coordinates to buffer pixels.
    var transform: CGAffineTransform
    /// The clip its masking ancestors impose, in buffer pixels (`.infinite` for none).
    var clip: CGRect
    /// The product of the opacities down to and including the layer.
    var alpha: CGFloat
    /// Whether the layer and all its ancestors are shown.
    var isVisible: Bool

    /// The placement of the space that holds a root layer, at `scale` pixels per point.
    static func root(scale: CGFloat) -> LayerPlacement {
        LayerPlacement(
            transform: CGAffineTransform(scaleX: scale, y: scale), clip: .infinite, alpha: 1,
            isVisible: true)
    }

    /// The placement of `layer` inside a superlayer placed at `self`.
    @MainActor func descending(into layer: Layer) -> LayerPlacement {
        let transform = layer.presentedTransformToSuperlayer.concatenating(self.transform)
        let alpha = self.alpha * min(max(layer.presentedOpacity, 0), 1)
        return LayerPlacement(
            transform: transform, clip: clip, alpha: alpha,
            isVisible: isVisible && !layer.isHidden && alpha > 0)
    }

    /// The clip for `layer`'s sublayers (narrowed to its bounds when it masks).
    @MainActor func sublayerClip(of layer: Layer) -> CGRect {
        guard layer.masksToBounds else { return clip }
        return clip.intersection(pixelRect(layer.presentedBounds))
    }

    /// The buffer pixels that painting `rect` (layer coordinates) can touch: its bounding
    /// box rounded outwards (fills and bitmap draws never paint outside their shape's
    /// device bounding box, antialiased edges included).
    func pixelRect(_ rect: CGRect) -> CGRect {
        guard !rect.isNull, !rect.isEmpty else { return .null }
        return rect.applying(transform).roundedOutward
    }

    /// The buffer pixels the layer's own painting (`painted`) covers, clipped.
    func footprint(of painted: CGRect) -> CGRect {
        guard isVisible else { return .null }
        let rect = pixelRect(painted).intersection(clip)
        return rect.isEmpty ? .null : rect
    }

    /// The buffer pixels that change when `rect` (layer coordinates) of `layer`'s contents
    /// changes. When the contents are resampled, each contents pixel reaches its
    /// neighbours' device pixels, so the rect first grows by one contents pixel.
    @MainActor func footprint(ofContentRect rect: CGRect, in layer: Layer) -> CGRect {
        if let tiled = layer.tiledBackingStore {
            // Tiles lie on the store's pixel grid: exact when that grid is the device's,
            // one device pixel wider otherwise (resampling reaches the neighbours).
            var result = footprint(of: rect)
            let exact = transform.isPositiveAxisAligned && transform.a == tiled.scale
                && transform.d == tiled.scale && transform.tx == transform.tx.rounded()
                && transform.ty == transform.ty.rounded()
            if !exact, !result.isNull { result = result.insetBy(dx: -1, dy: -1).intersection(clip) }
            if layer.masksToBounds { result = result.intersection(pixelRect(layer.bounds)) }
            return result.isEmpty ? .null : result
        }
        guard let contents = layer.contents else { return .null }
        let frame = layer.contentsFrame
        var changed = rect
        if !PixelGeometry.mapsPixelForPixel(contents, into: frame, by: transform) {
            let onePixel = frame.width / CGFloat(max(1, contents.width))
            changed = rect.insetBy(dx: -onePixel, dy: -onePixel).intersection(frame)
        }
        var result = footprint(of: changed)
        if layer.masksToBounds { result = result.intersection(pixelRect(layer.presentedBounds)) }
        return result.isEmpty ? .null : result
    }

    /// The placement of `layer` in its tree, computed by walking up from it (recursively,
    /// so that no array of ancestors is allocated per drawn layer).
    @MainActor static func of(_ layer: Layer, scale: CGFloat) -> LayerPlacement {
        guard let parent = layer.superlayer else { return root(scale: scale).descending(into: layer) }
        var placement = of(parent, scale: scale)
        placement.clip = placement.sublayerClip(of: parent)
        return placement.descending(into: layer)
    }
}

extension CGRect {
    /// The smallest rect with whole-number edges that contains this one.
    var roundedOutward: CGRect {
        // The null rect (infinite origin) and the infinite one (greatest-magnitude size) stay
        // as they are. Tested on the stored fields, not with `isNull`/`isInfinite`, which
        // compare with lazily made statics: a `swift_once` per call, a miss in a cold frame.
        guard origin.x.isFinite, origin.y.isFinite,
            size.width < .greatestFiniteMagnitude, size.height < .greatestFiniteMagnitude
        else { return self }
        let minX = self.minX.rounded(.down)
        let minY = self.minY.rounded(.down)
        return CGRect(
            x: minX, y: minY, width: self.maxX.rounded(.up) - minX,
            height: self.maxY.rounded(.up) - minY)
    }
}
