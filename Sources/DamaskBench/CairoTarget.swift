import CCairo
import Foundation

/// A cairo image surface (ARGB32) and a context drawing into it, for the baseline figures.
///
/// Ownership: holds one reference to each of `surface` and `cr`; ``destroy()`` drops them
/// and must be called exactly once (the owner does it in a `defer`).
struct CairoTarget {
    /// The image surface.
    let surface: OpaquePointer
    /// The drawing context on it.
    let cr: OpaquePointer

    /// Creates a `size`×`size` target.
    init(size: Int) throws {
        try self.init(width: size, height: size)
    }

    /// Creates a `width`×`height` target, antialiased by cairo's default.
    init(width: Int, height: Int) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface),
            cairo_status(cr) == CAIRO_STATUS_SUCCESS
        else {
            cairo_surface_destroy(surface)
            throw BenchError.helper("cairo could not make a \(width)x\(height) image surface")
        }
        self.surface = surface
        self.cr = cr
    }

    /// Drops the context and the surface.
    func destroy() {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }
}
