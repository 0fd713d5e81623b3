import DamaskGraphics
import Foundation

/// What the window last composited for one layer, kept to find what a change repaints.
struct PresentedLayerState: Equatable {
    /// The buffer pixels the layer's own painting covered (integral; `.null` for none).
    var footprint: CGRect
    /// The layer-to-buffer-pixel transform it was composited with.
    var transform: CGAffineTransform
    /// The effective opacity it was composited with.
    var alpha: CGFloat
}
