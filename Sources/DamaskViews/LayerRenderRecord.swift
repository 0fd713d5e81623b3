import DamaskGraphics
import Foundation

/// What a window last composited for one layer and its subtree, kept to find what a change
/// repaints and to skip what a repaint region misses.
///
/// Stored on each layer (``Layer/renderRecord``) so that a walk reads it without a lookup,
/// but owned by the window's ``DamageCollector``: it alone writes it, in its compaction walk
/// and when a subtree leaves the window; the compositor, the opaque-contents repaint and the
/// window read it.
struct LayerRenderRecord {
    /// The layer's own painting as last composited, or `nil` (never composited, or left).
    var presented: PresentedLayerState?
    /// The placement the last damage walk computed for the layer (`nil` before the first,
    /// or after the layer left the window). Current for every layer of the tree as long as
    /// no compositing change was recorded since that walk.
    var placement: LayerPlacement?
    /// The union of the buffer pixels the subtree was last composited at (may be larger,
    /// never smaller): the compositor skips the subtree when it misses the repaint region.
    var subtreeFootprint: CGRect = .null
}

/// What the window last composited for one layer's own painting.
struct PresentedLayerState: Equatable {
    /// The buffer pixels the layer's own painting covered (integral; `.null` for none).
    var footprint: CGRect
    /// The layer-to-buffer-pixel transform it was composited with.
    var transform: CGAffineTransform
    /// The effective opacity it was composited with.
    var alpha: CGFloat
}
