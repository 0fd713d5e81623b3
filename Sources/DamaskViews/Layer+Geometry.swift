import DamaskGraphics
import Foundation

extension Layer {
    /// Whether `ancestor` is this layer or one of its superlayers.
    public func isDescendant(of ancestor: Layer) -> Bool {
        var layer: Layer? = self
        while let current = layer {
            if current === ancestor { return true }
            layer = current.superlayer
        }
        return false
    }

    /// Maps the layer's coordinates (its bounds) to its superlayer's coordinates.
    public var transformToSuperlayer: CGAffineTransform {
        let fromOrigin = transformToSuperlayerFromUnitOrigin
        guard bounds.minX != 0 || bounds.minY != 0 else { return fromOrigin }  // most layers
        return CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY).concatenating(fromOrigin)
    }

    /// The anchor's offset, the ``transform``, then the ``position``. Without a transform
    /// (most layers, and every frame's walks ask), the sum of the two translations: the
    /// numbers the products would give, with the identity's ones and zeros left out.
    var transformToSuperlayerFromUnitOrigin: CGAffineTransform {
        let anchorX = -anchorPoint.x * bounds.width, anchorY = -anchorPoint.y * bounds.height
        if transform.isIdentity {
            return CGAffineTransform(translationX: anchorX + position.x, y: anchorY + position.y)
        }
        return CGAffineTransform(translationX: anchorX, y: anchorY)
            .concatenating(transform)
            .concatenating(CGAffineTransform(translationX: position.x, y: position.y))
    }

    /// Maps the layer's coordinates to those of the root of its tree (window points when
    /// the tree is in a window).
    public var transformToRoot: CGAffineTransform {
        var result = transformToSuperlayer
        var layer = self
        while let parent = layer.superlayer {
            result = result.concatenating(parent.transformToSuperlayer)
            layer = parent
        }
        return result
    }

    /// Converts `point` from `layer`'s coordinates (the root's when `nil`) to this layer's.
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint {
        guard let layer else { return point.applying(transformToRoot.inverted()) }
        return point.applying(layer.transformToRoot).applying(transformToRoot.inverted())
    }

    /// Converts `point` from this layer's coordinates to `layer`'s (the root's when `nil`).
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        guard let layer else { return point.applying(transformToRoot) }
        return point.applying(transformToRoot).applying(layer.transformToRoot.inverted())
    }

    /// Converts `rect` from this layer's coordinates to `layer`'s (bounding box).
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        guard let layer else { return rect.applying(transformToRoot) }
        return rect.applying(transformToRoot.concatenating(layer.transformToRoot.inverted()))
    }

    /// Converts `rect` from `layer`'s coordinates to this layer's (bounding box).
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        guard let layer else { return rect.applying(transformToRoot.inverted()) }
        return rect.applying(layer.transformToRoot.concatenating(transformToRoot.inverted()))
    }
}
