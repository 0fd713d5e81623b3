import DamaskGraphics
import DamaskViews
import Foundation

/// The offscreen surface serves playback directly: its screen is the presented content, and
/// it can change size and scale at will.
extension MemorySurface: PresentedContentProvider, ResizableSurface, FrameRequestReporting {
    /// The surface's `presentedBitmap`.
    public var presentedContent: Bitmap? { presentedBitmap }
}
