import CPixman

/// The pixel layouts a ``Bitmap`` can have; both use 4 bytes per pixel in native
/// byte order (`0xAARRGGBB` as a `UInt32`).
public enum PixelFormat: Sendable {
    /// Premultiplied alpha, red, green, blue (pixman `a8r8g8b8`, wl_shm ARGB8888).
    case argb32Premultiplied
    /// Opaque red, green, blue; the top byte is ignored (pixman `x8r8g8b8`, wl_shm XRGB8888).
    case xrgb32

    /// The number of bytes one pixel occupies.
    public var bytesPerPixel: Int { 4 }

    /// Whether pixels carry an alpha channel.
    public var hasAlpha: Bool { self == .argb32Premultiplied }

    var pixmanFormat: pixman_format_code_t {
        switch self {
        case .argb32Premultiplied: PIXMAN_a8r8g8b8
        case .xrgb32: PIXMAN_x8r8g8b8
        }
    }
}
