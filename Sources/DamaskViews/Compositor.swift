import DamaskGraphics
import Foundation

/// Paints layer trees into bitmaps: the compositing step of every frame and of offscreen
/// rendering.
///
/// A layer paints its background over its bounds, then its contents, then its sublayers,
/// with opacities multiplied down the tree. With a repaint region, pixels outside it are
/// left untouched and layers whose footprint misses it are skipped without drawing. The
/// work is counted in the ``WindowStatistics`` passed in (a window's own), never in
/// process-wide state.
@MainActor enum Compositor {
    /// Repaints `region` (buffer pixels) of `root`'s tree into `bitmap` as a compositor does:
    /// layers hidden under opaque ones are not painted, opaque layers replace pixels (SRC),
    /// and only what nothing opaque covers is cleared first. Uses the presented subtree
    /// footprints to skip subtrees, so it runs right after the window's damage was
    /// collected. The pixels equal those of the plain OVER composite.
    static func repaint(_ root: Layer, into bitmap: Bitmap, scale: CGFloat, region: Region) {
        let plan = CompositingPlan(statistics: root.host?.statistics)
        repaint(root, in: GraphicsContext(bitmap: bitmap), scale: scale, region: region, plan: plan)
    }

    /// ``repaint(_:into:scale:region:)`` through a given context (in its initial state,
    /// e.g. after ``GraphicsContext/resetState()``) and a reused `plan`, as a window
    /// repaints its buffers frame after frame.
    static func repaint(
        _ root: Layer, in context: GraphicsContext, scale: CGFloat, region: Region, plan: CompositingPlan
    ) {
        context.clip(to: region)
        plan.plan(root: root, scale: scale, region: region)
        plan.paint(in: context, target: context.bitmap)
    }

    /// Paints `layer` and its sublayers into `context`, whose current transform maps the
    /// space holding `layer` (its superlayer's coordinates) to device pixels: the plain
    /// back-to-front OVER composite of the whole tree, for offscreen rendering (a window's
    /// repaint of its damage goes through a ``CompositingPlan``, which gives the same pixels).
    ///
    /// - Parameter statistics: the counters the visits and paints are added to (`nil`: none).
    static func composite(
        _ layer: Layer, in context: GraphicsContext, placement: LayerPlacement,
        statistics: WindowStatistics?
    ) {
        statistics?.visitedLayerCount += 1
        let placement = placement.descending(into: layer)
        guard placement.isVisible else { return }
        context.saveGState()
        defer { context.restoreGState() }
        context.concatenate(layer.presentedTransformToSuperlayer)

        if !placement.footprint(of: layer.paintedRect).isNull {
            statistics?.paintedLayerCount += 1
            paintOwnContent(of: layer, in: context, alpha: placement.alpha, visibleClip: placement.clip)
        }
        guard !layer.sublayers.isEmpty else { return }
        var inner = placement
        if layer.masksToBounds {
            inner.clip = placement.sublayerClip(of: layer)
            if inner.clip.isNull || inner.clip.isEmpty { return }
            clip(context, toShapeOf: layer)
        }
        for sublayer in layer.sublayers {
            composite(sublayer, in: context, placement: inner, statistics: statistics)
        }
    }

    /// Paints the layer's background and contents (not its sublayers); `visibleClip` is the
    /// clip of its masking ancestors in device pixels (a tiled store keeps the tiles near it).
    private static func paintOwnContent(
        of layer: Layer, in context: GraphicsContext, alpha: CGFloat, visibleClip: CGRect
    ) {
        let masks = layer.masksToBounds
        if masks {
            context.saveGState()
            clip(context, toShapeOf: layer)
        }
        paintBackground(of: layer, in: context, alpha: alpha)
        paintContents(of: layer, in: context, alpha: alpha, visibleClip: visibleClip)
        if masks { context.restoreGState() }
    }

    /// Fills the layer's presented bounds (with its rounded corners) with its background
    /// colour times `alpha`, with the context's blend mode.
    static func paintBackground(of layer: Layer, in context: GraphicsContext, alpha: CGFloat) {
        if let color = layer.presentedBackgroundColor, color.alpha > 0 {
            context.setFillColor(color.withAlphaComponent(color.alpha * alpha))
            let bounds = layer.presentedBounds
            let radius = min(layer.presentedCornerRadius, bounds.width / 2, bounds.height / 2)
            if radius > 0 {
                context.fill(Path(roundedRect: bounds, cornerRadius: radius))
            } else {
                context.fill(bounds)
            }
        }
    }

    /// Draws the layer's contents (times `alpha`) with the context's blend mode.
    /// `visibleClip` is the clip of the layer's masking ancestors in device pixels: a tiled
    /// store draws the missing tiles the context's clip needs and keeps only the tiles near
    /// `visibleClip`.
    static func paintContents(
        of layer: Layer, in context: GraphicsContext, alpha: CGFloat, visibleClip: CGRect
    ) {
        if let contents = layer.contents {
            let frame = layer.contentsFrame
            let interpolation: InterpolationQuality =
                PixelGeometry.mapsPixelForPixel(contents, into: frame, by: context.ctm) ? .none : .default
            context.draw(contents, in: frame, alpha: alpha, interpolation: interpolation)
        }
        layer.paintTiles(in: context, visibleClip: visibleClip, alpha: alpha)
    }

    /// Clips `context` to the layer's presented bounds, with its rounded corners.
    static func clip(_ context: GraphicsContext, toShapeOf layer: Layer) {
        let bounds = layer.presentedBounds
        let radius = min(layer.presentedCornerRadius, bounds.width / 2, bounds.height / 2)
        if radius > 0 {
            context.clip(to: Path(roundedRect: bounds, cornerRadius: radius))
        } else {
            context.clip(to: bounds)
        }
    }

    /// Paints `layer`'s tree into a new bitmap of its bounds at `scale`, as seen from the
    /// layer itself (its own position and transform are ignored).
    static func image(of layer: Layer, scale: CGFloat) throws -> Bitmap {
        let bounds = layer.presentedBounds
        let width = max(1, Int((bounds.width * scale).rounded(.up)))
        let height = max(1, Int((bounds.height * scale).rounded(.up)))
        let bitmap = try Bitmap(width: width, height: height)
        let context = GraphicsContext(bitmap: bitmap)
        render(layer, in: context, scale: scale)
        return bitmap
    }

    /// Paints `layer`'s tree into `context` in the layer's own coordinates (bounds origin at
    /// the context's current origin), at `scale` device pixels per point.
    static func render(_ layer: Layer, in context: GraphicsContext, scale: CGFloat) {
        context.saveGState()
        defer { context.restoreGState() }
        context.scaleBy(x: scale, y: scale)
        // Undo the layer's own placement so that its bounds land at the origin.
        let bounds = layer.presentedBounds
        let undo = layer.presentedTransformToSuperlayer.inverted()
            .concatenating(CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY))
        context.concatenate(undo)
        var placement = LayerPlacement.root(scale: scale)
        placement.transform = context.ctm
        composite(layer, in: context, placement: placement, statistics: layer.host?.statistics)
    }
}
