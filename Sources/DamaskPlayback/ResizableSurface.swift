import Foundation

/// A surface the player can resize for `size` and `scale` commands.
///
/// `MemorySurface` conforms. A surface that cannot change its scale (a real output decides
/// it) throws for a `scale` argument.
@MainActor public protocol ResizableSurface: AnyObject {
    /// Resizes to `size` points; changes the scale too when `scale` is non-nil.
    func resize(to size: CGSize, scale: CGFloat?) throws
}
