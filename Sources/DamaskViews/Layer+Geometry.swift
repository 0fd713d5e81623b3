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
        CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY)
            .concatenating(transformToSuperlayerFromUnitOrigin)
    }

    var transformToSuperlayerFromUnitOrigin: CGAffineTransform {
        CGAffineTransform(
            translationX: -anchorPoint.x * bounds.width, y: -anchorPoint.y * bounds.height
        )
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
        let fromRoot = layer?.transformToRoot ?? .identity
        return point.applying(fromRoot).applying(transformToRoot.inverted())
    }

    /// Converts `point` from this layer's coordinates to `layer`'s (the root's when `nil`).
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        let toRoot = layer?.transformToRoot ?? .identity
        return point.applying(transformToRoot).applying(toRoot.inverted())
    }

    /// Converts `rect` from this layer's coordinates to `layer`'s (bounding box).
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        let toRoot = layer?.transformToRoot ?? .identity
        return rect.applying(transformToRoot.concatenating(toRoot.inverted()))
    }

    /// Converts `rect` from `layer`'s coordinates to this layer's (bounding box).
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        let fromRoot = layer?.transformToRoot ?? .identity
        return rect.applying(fromRoot.concatenating(transformToRoot.inverted()))
    }
}
