import DamaskGraphics

/// Something that can show the player what the compositor shows: the surface's presented
/// buffer, for `expect pixel`, `expect image` and `screenshot`.
///
/// `MemorySurface` conforms (its `presentedBitmap`); a Wayland surface can conform by keeping
/// a copy of what it last committed.
@MainActor public protocol PresentedContentProvider: AnyObject {
    /// The presented pixels (buffer pixels, premultiplied ARGB), or nil before the first
    /// commit. The player only reads the bitmap and does not keep it across commands.
    var presentedContent: Bitmap? { get }
}
