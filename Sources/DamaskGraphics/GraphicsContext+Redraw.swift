import CPixman
import Foundation

extension GraphicsContext {
    /// What a context knows about the pixels of one redraw of a retained store (a layer's
    /// backing store redrawing its dirty rects): whether they still owe the clear that comes
    /// before drawing, and whether the drawing has made every one of them opaque.
    ///
    /// A redraw usually starts with a fill that covers all of it in an opaque colour (a
    /// view's background, a document's tile). Such a fill writes every pixel whatever was
    /// there, so the clear before it is deferred until something else paints, and skipped
    /// when that fill comes first; and since no later drawing in a mode that keeps opaque
    /// pixels opaque can make them translucent, the store's opacity need not be read back
    /// afterwards. docs/performance.md ("6 December 22:10: the clear and the opacity check a
    /// fill makes pointless") has the measurements.
    struct Redraw {
        /// The redrawn device pixels: the clip when the redraw began (whole pixels).
        let region: Region
        /// The bounding box of `region`.
        let extents: pixman_box32_t
        /// Whether `region` must still be made transparent before anything paints into it
        /// other than a fill that covers it opaquely.
        var owesClear: Bool
        /// Whether every pixel of `region` is certainly opaque now.
        var isKnownOpaque = false
    }

    /// Begins a redraw of the clip (a layer's dirty rect, or its separate dirty rects);
    /// with `clearing`, its pixels are made transparent before anything draws over them, as
    /// `clear(_:)` of each of its rects would, unless the first drawing covers them all
    /// opaquely. Returns `false`, changing nothing, when the clip has a mask (it does not
    /// fall on whole pixels) or is empty: the caller clears, if it must.
    ///
    /// Every redraw begun must be ended (``endRedraw()``) before the context is reset or
    /// another one begins.
    package func beginRedraw(clearing: Bool) -> Bool {
        assert(redraw == nil, "a redraw begins only after the previous one ended")
        guard state.clipMask == nil, !state.clipRegion.isEmpty else { return false }
        redraw = Redraw(region: state.clipRegion, extents: state.clipRegion.extents, owesClear: clearing)
        return true
    }

    /// Ends the redraw begun last: makes its pixels transparent if a clear is still owed
    /// (nothing painted them), and returns whether every one of them is certainly opaque.
    /// `false` when no redraw was begun.
    package func endRedraw() -> Bool {
        guard let ended = redraw else { return false }
        redraw = nil
        if ended.owesClear { clearPixels(in: ended.region) }
        return ended.isKnownOpaque
    }

    /// Called before anything writes pixels within the clip: `box` is the device box a
    /// solid `opaque` colour is about to fill in `mode` with no mask, if that is what
    /// happens (`nil` for any other drawing). Pays a clear still owed unless this fill
    /// covers the whole redraw opaquely, and keeps ``Redraw/isKnownOpaque`` true.
    func willPaint(filling box: pixman_box32_t?, opaquely opaque: Bool, mode: BlendMode) {
        guard var current = redraw else { return }
        // The fill paints the box within the clip: all of the redraw when the box holds its
        // extents and the clip is still all of it (the same region, or one holding its
        // extents).
        if opaque, let box, mode == .normal || mode == .copy, state.clipMask == nil,
            Region.contains(box, current.extents),
            state.clipRegion == current.region || state.clipRegion.contains(current.extents)
        {
            current.owesClear = false  // every pixel of the redraw is written anew
            current.isKnownOpaque = true
        } else {
            if current.owesClear {
                clearPixels(in: current.region)
                current.owesClear = false
            }
            if !mode.keepsOpaquePixelsOpaque { current.isKnownOpaque = false }
        }
        redraw = current
    }

    /// Called when the bitmap is handed out while a redraw runs: anything may now happen to
    /// its pixels, so a clear still owed is paid and nothing is known of their opacity.
    func redrawLosesTrack() {
        guard redraw != nil else { return }
        willPaint(filling: nil, opaquely: false, mode: .clear)
    }

    /// Makes `rect` (user space) transparent within the clip, as ``clear(_:)`` does, but
    /// when it lands on whole device pixels inside the clip (the usual case for a redraw)
    /// by zeroing its rows in place (``clearPixels(in:)``).
    package func clearWholePixels(_ rect: CGRect) {
        guard let valid = GraphicsContext.validRect(rect), let box = deviceBox(for: valid),
            state.clipMask == nil, state.clipRegion.contains(box)
        else { return clear(rect) }
        if redraw != nil { willPaint(filling: nil, opaquely: false, mode: .clear) }
        clearPixels(in: box)
    }

    /// Makes every rectangle of `region` (device pixels) transparent (``clearPixels(in:)``).
    func clearPixels(in region: Region) {
        for index in 0..<region.rectCount { clearPixels(in: region.box(at: index)) }
    }

    /// Makes `box` (device pixels inside the bitmap) transparent by zeroing its rows in
    /// place. pixman has no fast path for a solid CLEAR: it runs its general combiner through
    /// a 24 KiB scanline buffer on the stack, which a cold frame pays in stack pages and in
    /// misses on pixman's general code (`damask-bench --pages`).
    package func clearPixels(in box: pixman_box32_t) {
        let left = max(0, Int(box.x1)), right = min(destination.width, Int(box.x2))
        let top = max(0, Int(box.y1)), bottom = min(destination.height, Int(box.y2))
        guard left < right, top < bottom else { return }
        assert(destination.format.bytesPerPixel == 4, "contexts draw into 4-byte pixels")
        for row in top..<bottom {
            memset(destination.bytes + row * destination.bytesPerRow + left * 4, 0, (right - left) * 4)
        }
    }
}
