import DamaskGraphics
import Foundation

/// The values of a layer's animatable properties as one frame shows them: the model
/// values with each running animation applied (Core Animation's presentation layer,
/// reduced to what Damask animates). A value type.
struct LayerPresentationValues: Equatable {
    var bounds: CGRect
    var position: CGPoint
    var transform: CGAffineTransform
    var opacity: CGFloat
    var backgroundColor: Color?
    var cornerRadius: CGFloat

    /// The model values of `layer`.
    @MainActor init(modelOf layer: Layer) {
        bounds = layer.bounds
        position = layer.position
        transform = layer.transform
        opacity = layer.opacity
        backgroundColor = layer.backgroundColor
        cornerRadius = layer.cornerRadius
    }

    /// Whether a change from `other` to `self` only repaints the layer's own pixels in
    /// place (colour, corners), rather than moving or fading it.
    func differsOnlyInAppearance(from other: LayerPresentationValues) -> Bool {
        bounds == other.bounds && position == other.position && transform == other.transform
            && opacity == other.opacity
    }
}
