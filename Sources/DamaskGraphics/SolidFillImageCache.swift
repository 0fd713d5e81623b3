import CPixman

/// The pixman solid-fill image of the last colour a ``GraphicsContext`` composited with,
/// kept for the next draw in that colour: translucent fills, and text in a blend mode
/// other than normal, drawn in one colour again and again into the same reused context
/// (a layer's backing store), make one pixman image, not one per draw.
///
/// Owns one reference to its image (released when another colour replaces it, and in
/// `deinit`); pixman's compositing does not keep its source, so a caller uses the image
/// for its composites and never unrefs it. Not thread-safe: it belongs to its context,
/// which is used from one thread at a time.
final class SolidFillImageCache {
    /// The colour of `image` (premultiplied, 16 bits a channel).
    private var color = pixman_color_t()
    /// The solid-fill image of `color`, nil before the first call or when pixman could not
    /// allocate; owned.
    private var image: OpaquePointer?

    deinit {
        if let image { pixman_image_unref(image) }
    }

    /// A solid-fill image of `color` (premultiplied), valid until the next call with
    /// another colour or the cache's end; nil when pixman cannot allocate one.
    func image(of color: pixman_color_t) -> OpaquePointer? {
        if let image, color.red == self.color.red, color.green == self.color.green, color.blue == self.color.blue,
            color.alpha == self.color.alpha
        {
            return image
        }
        if let image { pixman_image_unref(image) }
        var wanted = color
        image = pixman_image_create_solid_fill(&wanted)
        self.color = color
        return image
    }
}
