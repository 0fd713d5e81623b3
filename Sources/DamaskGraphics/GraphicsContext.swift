import CPixman
import Foundation

/// A Core-Graphics-shaped drawing context over a ``Bitmap``, rasterizing with pixman.
///
/// User space starts equal to device space (pixels, y down, origin top-left); the
/// current transform (``ctm``), clip, colours and line settings form the graphics
/// state, saved and restored with ``saveGState()`` / ``restoreGState()``. Everything
/// is antialiased unless ``setShouldAntialias(_:)`` turns it off. No operation writes
/// outside the clip or the bitmap, whatever its input (NaN, infinite or huge values
/// draw nothing or are clamped).
///
/// The context keeps the bitmap alive and draws through its own pixman image over the
/// bitmap's memory, so clips set here never leak into ``Bitmap/image``.
///
/// Threading: not thread-safe; use a context from one thread at a time (the main actor
/// in practice). The state, read by every drawing call, skips the runtime's exclusivity
/// checks (docs/performance.md, "Exclusivity"): it is never passed `inout` out of the class.
public final class GraphicsContext {
    /// The bitmap drawn into; kept alive by the context.
    ///
    /// Handing it out during a layer's redraw (see ``beginRedraw(clearing:)``) makes
    /// the context assume anything may happen to its pixels: a clear it deferred is done
    /// first, and their opacity is read back afterwards.
    public var bitmap: Bitmap {
        if redraw != nil { redrawLosesTrack() }
        return destination
    }
    /// The bitmap drawn into (``bitmap`` without its effect on a redraw).
    let destination: Bitmap
    /// The redraw in progress, if any (``beginRedraw(clearing:)``).
    @exclusivity(unchecked) var redraw: Redraw?

    /// The pixman image over the bitmap's memory used as the destination; owned here.
    let target: OpaquePointer
    @exclusivity(unchecked) var state: GraphicsState
    @exclusivity(unchecked) private var savedStates: [GraphicsState] = []
    /// The region currently installed as the target's pixman clip.
    @exclusivity(unchecked) private var appliedClip: Region?
    /// The current path, in device space (points are mapped by the CTM when added).
    @exclusivity(unchecked) var currentPath = Path()
    /// How many glyph images this context's text drawing has looked up in the glyph cache
    /// (a per-context statistic: the cache itself is shared by the whole process).
    var glyphLookupCount = 0

    /// Creates a context drawing into `bitmap`, with identity transform, the whole
    /// bitmap as clip, black fill and stroke, line width 1 and antialiasing on.
    public init(bitmap: Bitmap) {
        destination = bitmap
        target = pixman_image_create_bits(
            bitmap.format.pixmanFormat, Int32(bitmap.width), Int32(bitmap.height),
            bitmap.bytes.assumingMemoryBound(to: UInt32.self), Int32(bitmap.bytesPerRow))!
        state = GraphicsState(clipRegion: Region(bitmap.bounds))
    }

    deinit {
        pixman_image_unref(target)
    }

    /// Returns the context to the state ``init(bitmap:)`` gives it — identity transform,
    /// the whole bitmap as clip, default colours and line settings, no saved states, an
    /// empty current path, no drawing call — keeping its pixman image, so that
    /// a caller drawing into the same bitmap again and again (a window's buffers, a layer's
    /// backing store) does not create a context each time.
    public func resetState() {
        assert(redraw == nil, "a redraw ends before its context is reset")
        savedStates.removeAll(keepingCapacity: true)
        state = GraphicsState(clipRegion: wholeBitmap)
        if !currentPath.isEmpty { currentPath = Path() }
        currentDrawingRect = .null
        defaultDrawingReached = false
    }

    /// The whole bitmap as a region, built once (a reset shares its storage).
    private lazy var wholeBitmap = Region(destination.bounds)

    /// The solid colour × coverage table the direct span painter reads (see
    /// ``SolidSpanPainter``), kept for the last colour painted; owned by the context.
    lazy var solidSources = SolidSourceTable()

    /// The solid-fill image of the last colour composited, kept for the next draw in it;
    /// owned by the context.
    lazy var solidFills = SolidFillImageCache()

    // MARK: - Graphics state

    /// Pushes a copy of the graphics state (transform, clip, colours, line settings,
    /// alpha, antialiasing, blend mode). The current path is not part of it.
    public func saveGState() {
        savedStates.append(state)
    }

    /// Pops the state saved by the matching ``saveGState()``; an unbalanced call is
    /// ignored.
    public func restoreGState() {
        guard let saved = savedStates.popLast() else { return }
        state = saved
    }

    /// How many states ``saveGState()`` has pushed and not yet popped.
    public var savedStateCount: Int { savedStates.count }

    // MARK: - Transform

    /// The current transformation matrix, user space → device pixels.
    public var ctm: CGAffineTransform { state.ctm }

    /// Moves the user-space origin by `(x, y)` user units.
    public func translateBy(x: CGFloat, y: CGFloat) {
        state.ctm = state.ctm.translatedBy(x: x, y: y)
    }

    /// Scales user space by `(sx, sy)`.
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) {
        state.ctm = state.ctm.scaledBy(x: sx, y: sy)
    }

    /// Rotates user space by `angle` radians (clockwise on screen for positive angles).
    public func rotate(by angle: CGFloat) {
        state.ctm = state.ctm.rotated(by: angle)
    }

    /// Applies `transform` to user space before the current transform.
    public func concatenate(_ transform: CGAffineTransform) {
        state.ctm = transform.concatenating(state.ctm)
    }

    // MARK: - Drawing attributes

    /// Sets the colour used by fills (text takes its colour as an argument instead).
    public func setFillColor(_ color: Color) { state.fillColor = color }
    /// Sets the colour used by strokes.
    public func setStrokeColor(_ color: Color) { state.strokeColor = color }
    /// Sets a global opacity (0…1) multiplied into everything drawn.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = Color.clampUnit(alpha) }
    /// Sets the stroke width in user units; 0 strokes a one-device-pixel hairline,
    /// negative or non-finite widths stroke nothing.
    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }
    /// Sets the cap style for open subpath ends.
    public func setLineCap(_ cap: LineCap) { state.lineCap = cap }
    /// Sets the corner style.
    public func setLineJoin(_ join: LineJoin) { state.lineJoin = join }
    /// Sets the miter limit (miter length / line width above which miters are bevelled).
    public func setMiterLimit(_ limit: CGFloat) { state.miterLimit = limit }
    /// Sets a dash pattern of alternating on/off lengths in user units, starting
    /// `phase` units into the pattern; an empty or invalid pattern strokes solid.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.dashPhase = phase
        state.dashLengths = lengths
    }
    /// Turns antialiasing of shapes and clips on (default) or off.
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }
    /// Sets how drawing combines with existing pixels.
    public func setBlendMode(_ mode: BlendMode) { state.blendMode = mode }
    /// Sets the default sampling for bitmaps drawn with `interpolation: .default`.
    public func setInterpolationQuality(_ quality: InterpolationQuality) { state.interpolationQuality = quality }

    /// The current fill colour.
    public var fillColor: Color { state.fillColor }
    /// The current stroke colour.
    public var strokeColor: Color { state.strokeColor }
    /// The current line width.
    public var lineWidth: CGFloat { state.lineWidth }
    /// The current global alpha.
    public var alpha: CGFloat { state.alpha }
    /// The current blend mode.
    public var blendMode: BlendMode { state.blendMode }
    /// Whether shapes are antialiased.
    public var shouldAntialias: Bool { state.shouldAntialias }

    // MARK: - Rectangles

    /// Fills `rect` with the fill colour. An integer-aligned rect under a translation
    /// or positive scale is a direct pixman fill touching exactly its pixels.
    public func fill(_ rect: CGRect) {
        paintRect(rect, color: state.fillColor, mode: state.blendMode)
    }

    /// Fills each of `rects` with the fill colour.
    public func fill(_ rects: [CGRect]) {
        for rect in rects { fill(rect) }
    }

    /// Strokes the outline of `rect` with the stroke colour and line settings.
    public func stroke(_ rect: CGRect) {
        stroke(Path(rect: rect))
    }

    /// Makes `rect` transparent (within the clip), whatever the blend mode.
    public func clear(_ rect: CGRect) {
        paintRect(rect, color: .clear, mode: .clear)
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        fill(Path(ellipseIn: rect))
    }

    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        stroke(Path(ellipseIn: rect))
    }

    /// Strokes separate segments between consecutive pairs of `points` (an odd last
    /// point is ignored), as `CGContext.strokeLineSegments(between:)`.
    public func strokeLineSegments(between points: [CGPoint]) {
        var path = Path()
        var index = 0
        while index + 1 < points.count {
            path.move(to: points[index])
            path.addLine(to: points[index + 1])
            index += 2
        }
        stroke(path)
    }

    // MARK: - Clipping

    /// Intersects the clip with `rect` (user space). Integer-aligned rects under an
    /// axis-aligned transform clip exactly; others clip with antialiased edges.
    public func clip(to rect: CGRect) {
        guard let rect = GraphicsContext.validRect(rect) else { return clipToNothing() }
        if let box = deviceBox(for: rect) {
            if box.x1 < box.x2, box.y1 < box.y2 {
                // Whole pixels: no region is built when the clip already lies inside.
                state.clipRegion = state.clipRegion.intersection(
                    CGRect(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2) - Int(box.x1), height: Int(box.y2) - Int(box.y1)))
            } else {
                state.clipRegion = Region()
            }
            trimClipMask()
        } else {
            clip(toDevicePolygons: [deviceCorners(of: rect)], rule: .winding)
        }
    }

    /// Intersects the clip with the union of `rects` (user space).
    public func clip(to rects: [CGRect]) {
        // One array, built in a loop: a redraw of several dirty pieces clips through here.
        var boxes: [pixman_box32_t] = []
        boxes.reserveCapacity(rects.count)
        for rect in rects {
            guard let valid = GraphicsContext.validRect(rect) else { continue }
            guard let box = deviceBox(for: valid) else {
                // Some rect does not fall on whole device pixels: all are clipped as polygons.
                let polygons = rects.compactMap(GraphicsContext.validRect).map(deviceCorners(of:))
                return clip(toDevicePolygons: polygons, rule: .winding)
            }
            boxes.append(box)
        }
        guard !boxes.isEmpty else { return clipToNothing() }
        state.clipRegion.formIntersection(Region(boxes: boxes))
        trimClipMask()
    }

    /// Intersects the clip with `region`, given in device pixels (not transformed).
    public func clip(to region: Region) {
        state.clipRegion.formIntersection(region)
        trimClipMask()
    }

    /// Intersects the clip with the current path, which is consumed.
    public func clip(using rule: FillRule = .winding) {
        let path = currentPath
        currentPath = Path()
        clip(toDevicePolygons: path.flattened(tolerance: GraphicsContext.deviceTolerance).map(\.points), rule: rule)
    }

    /// Intersects the clip with `path` (user space).
    public func clip(to path: Path, using rule: FillRule = .winding) {
        clip(toDevicePolygons: devicePolygons(filling: path), rule: rule)
    }

    /// The bounding box of the clip in user space.
    public var boundingBoxOfClipPath: CGRect {
        let box = state.clipRegion.boundingBox
        guard !box.isEmpty, state.ctm.isInvertible else { return .zero }
        return box.applying(state.ctm.inverted())
    }

    /// The clip in device pixels: every pixel drawing may touch (path clips may cover
    /// parts of it only partially).
    public var clipRegion: Region { state.clipRegion }

    private func clipToNothing() {
        state.clipRegion = Region()
        state.clipMask = nil
    }

    func clip(toDevicePolygons polygons: [[CGPoint]], rule: FillRule) {
        guard let bounds = clipBounds,
            let mask = Rasterizer.mask(polygons: polygons, rule: rule, antialias: state.shouldAntialias, bounds: bounds)
        else { return clipToNothing() }
        if let existing = state.clipMask { mask.intersect(with: existing) }
        state.clipMask = mask
        state.clipRegion.formIntersection(Region(boxes: [mask.box]))
    }

    /// Drops a clip mask that no longer overlaps the clip region.
    private func trimClipMask() {
        if state.clipRegion.isEmpty { state.clipMask = nil }
    }

    /// The clip region's extents as an integer box, or nil when nothing can be drawn.
    var clipBounds: (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let box = state.clipRegion.boundingBox
        guard !box.isEmpty else { return nil }
        return (Int(box.minX), Int(box.minY), Int(box.maxX), Int(box.maxY))
    }

    // MARK: - The current context

    /// The context views draw into (UIKit's `UIGraphicsGetCurrentContext()`): the top of
    /// this thread's context stack, or nil when the stack is empty.
    public static var current: GraphicsContext? {
        let stack = ContextStack.forCurrentThread
        guard let top = stack.entries.indices.last else { return nil }
        stack.entries[top].requests += 1
        return stack.entries[top].context
    }

    // MARK: - The drawing call (for the view system of this package)

    /// Runs `body` with `context` current on this thread and returns whether `body` asked
    /// for ``current`` while it was on top: the view system tells a `draw(_:)` that asked
    /// for the context (and so may draw) from one that cannot have drawn. The answer is
    /// counted in this call's own stack entry, not on the context.
    package static func requestsCurrent(whileCurrent context: GraphicsContext, _ body: () -> Void) -> Bool {
        // One look-up of the stack for the push and the pop (the slot is this thread's for
        // its whole life, so the stack cannot change under `body`).
        let stack = ContextStack.forCurrentThread
        stack.entries.append(ContextStack.Entry(context: context))
        body()
        assert(stack.entries.last?.context === context, "a drawing call left its own pushes on the context stack")
        let entry = stack.entries.popLast()
        return (entry?.requests ?? 0) > 0
    }

    /// The area a drawing call with this context redraws (user space), set by the view
    /// system around the call (``beginDrawingCall(in:)``): the `rect` a view's `draw(_:)`
    /// receives. `.null` outside one.
    package var drawingRect: CGRect { currentDrawingRect }

    /// Begins a drawing call for `rect` (see ``drawingRect``).
    ///
    /// The drawing-call state is stored behind these methods, not in properties the view
    /// system sets: a stored property of this module written from another one is checked
    /// for exclusive access there (`swift_beginAccess`) even when it is marked unchecked
    /// here, and this runs for every layer that draws.
    package func beginDrawingCall(in rect: CGRect) {
        currentDrawingRect = rect
        defaultDrawingReached = false
    }

    /// Ends the drawing call; returns whether a default drawing implementation ran in it.
    package func endDrawingCall() -> Bool {
        currentDrawingRect = .null
        return defaultDrawingReached
    }

    /// Records that a default drawing implementation (one that draws nothing) ran in the
    /// current drawing call.
    package func noteDefaultDrawing() {
        defaultDrawingReached = true
    }

    @exclusivity(unchecked) private var currentDrawingRect: CGRect = .null
    @exclusivity(unchecked) private var defaultDrawingReached = false

    /// The context on top of this thread's stack, without counting a request (for a
    /// default drawing implementation to mark it).
    package static var top: GraphicsContext? { ContextStack.forCurrentThread.entries.last?.context }

    /// Makes `context` current on this thread until the matching ``pop()``.
    public static func push(_ context: GraphicsContext) {
        ContextStack.forCurrentThread.entries.append(ContextStack.Entry(context: context))
    }

    /// Removes the context pushed last on this thread; ignored when the stack is empty.
    public static func pop() {
        _ = ContextStack.forCurrentThread.entries.popLast()
    }

    // MARK: - Compositing core

    /// Where a drawing operation puts paint: an antialiased mask or a whole device box.
    enum Coverage {
        case mask(CoverageMask)
        case box(pixman_box32_t)
    }

    /// Device-space flattening tolerance in pixels.
    static let deviceTolerance: CGFloat = 0.1

    /// Paints `rect` with a solid colour, using the exact-box fast path when possible.
    func paintRect(_ rect: CGRect, color: Color, mode: BlendMode) {
        guard let rect = GraphicsContext.validRect(rect) else { return }
        if let box = deviceBox(for: rect) {
            paintSolid(color, coverage: .box(box), mode: mode)
        } else if state.ctm.b == 0, state.ctm.c == 0 {
            paintAxisAlignedRect(rect.applying(state.ctm), color: color, mode: mode)
        } else {
            guard let mask = rasterize([deviceCorners(of: rect)], rule: .winding) else { return }
            paintSolid(color, coverage: .mask(mask), mode: mode)
        }
    }

    /// Paints an axis-aligned device rect with fractional edges: the whole pixels inside
    /// as one direct fill, the partly covered border pixels through small masks with
    /// exact (analytic) coverage.
    private func paintAxisAlignedRect(_ rect: CGRect, color: Color, mode: BlendMode) {
        guard let bounds = clipBounds, rect.minX.isFinite, rect.maxX.isFinite,
            rect.minY.isFinite, rect.maxY.isFinite
        else { return }
        // Clamp to one pixel around the clip so nothing below loops over absurd sizes.
        let x0 = max(Double(rect.minX), Double(bounds.x0 - 1)), x1 = min(Double(rect.maxX), Double(bounds.x1 + 1))
        let y0 = max(Double(rect.minY), Double(bounds.y0 - 1)), y1 = min(Double(rect.maxY), Double(bounds.y1 + 1))
        guard x0 < x1, y0 < y1 else { return }
        let outerX0 = Int(x0.rounded(.down)), outerX1 = Int(x1.rounded(.up))
        let outerY0 = Int(y0.rounded(.down)), outerY1 = Int(y1.rounded(.up))
        var innerX0 = Int(x0.rounded(.up)), innerX1 = Int(x1.rounded(.down))
        var innerY0 = Int(y0.rounded(.up)), innerY1 = Int(y1.rounded(.down))
        if innerX0 >= innerX1 || innerY0 >= innerY1 {
            // Thinner than a pixel somewhere: everything is border.
            (innerX0, innerX1, innerY0, innerY1) = (outerX0, outerX0, outerY0, outerY0)
        }
        func overlap(_ pixel: Int, _ low: Double, _ high: Double) -> Double {
            max(0, min(Double(pixel + 1), high) - max(Double(pixel), low))
        }
        /// A mask over a device box with coverage = column overlap × row overlap.
        func strip(_ sx0: Int, _ sy0: Int, _ sx1: Int, _ sy1: Int) {
            guard sx0 < sx1, sy0 < sy1,
                let mask = CoverageMask(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0)
            else { return }
            let columns = (sx0..<sx1).map { overlap($0, x0, x1) }
            for row in sy0..<sy1 {
                let rowCoverage = overlap(row, y0, y1)
                let out = mask.bytes + (row - sy0) * mask.bytesPerRow
                for (index, columnCoverage) in columns.enumerated() {
                    out[index] = UInt8(min(255, (rowCoverage * columnCoverage * 255).rounded()))
                }
            }
            paintSolid(color, coverage: .mask(mask), mode: mode)
        }
        if innerX0 < innerX1 {
            paintSolid(color, coverage: .box(pixman_box32_t(
                x1: Int32(innerX0), y1: Int32(innerY0), x2: Int32(innerX1), y2: Int32(innerY1))), mode: mode)
        }
        strip(outerX0, outerY0, outerX1, innerY0)  // top rows, corners included
        strip(outerX0, innerY1, outerX1, outerY1)  // bottom rows, corners included
        strip(outerX0, innerY0, innerX0, innerY1)  // left columns
        strip(innerX1, innerY0, outerX1, innerY1)  // right columns
    }

    /// Paints a solid colour (times the global alpha) through `coverage`.
    func paintSolid(_ color: Color, coverage: Coverage, mode: BlendMode) {
        let pixmanColor = color.pixmanColor(premultiplied: true, alphaScale: state.alpha)
        if case .box(let box) = coverage, fillOpaqueBox(box, color: pixmanColor, mode: mode) { return }
        guard let solid = solidFills.image(of: pixmanColor) else { return }
        composite(solid, coverage: coverage, alpha: 1, mode: mode, isOpaque: pixmanColor.alpha == 0xffff)
    }

    /// Rasterizes device polygons within the clip bounds.
    func rasterize(_ polygons: [[CGPoint]], rule: FillRule) -> CoverageMask? {
        guard let bounds = clipBounds else { return nil }
        return Rasterizer.mask(polygons: polygons, rule: rule, antialias: state.shouldAntialias, bounds: bounds)
    }

    /// Composites `source` (a pixman image in device coordinates) onto the bitmap
    /// through `coverage`, the clip and `alpha`, with `mode`'s operator.
    ///
    /// Operators that would touch pixels where coverage is zero (copy, clear, source
    /// in/out, destination in) are applied as `coverage·(S op D) + (1−coverage)·D`, so
    /// like every other mode they change nothing outside the drawn shape.
    ///
    /// The source pixel for device `(x, y)` is read at `(x + sourceOffset.x, y + sourceOffset.y)`.
    /// `isOpaque` says that `source` is a solid opaque colour.
    func composite(
        _ source: OpaquePointer, coverage: Coverage, alpha: CGFloat, mode: BlendMode,
        sourceOffset: (x: Int32, y: Int32) = (0, 0), isOpaque: Bool = false
    ) {
        guard let bounds = clipBounds else { return }
        if redraw != nil {
            if case .box(let box) = coverage, alpha >= 1 {
                willPaint(filling: box, opaquely: isOpaque, mode: mode)
            } else {
                willPaint(filling: nil, opaquely: false, mode: mode)
            }
        }
        let clip = pixman_box32_t(x1: Int32(bounds.x0), y1: Int32(bounds.y0), x2: Int32(bounds.x1), y2: Int32(bounds.y1))
        var mask: CoverageMask?
        var box: pixman_box32_t
        switch coverage {
        case .mask(let shape):
            box = GraphicsContext.intersect(shape.box, clip)
            if let clipMask = state.clipMask { shape.intersect(with: clipMask) }
            shape.scale(by: Double(alpha))
            mask = shape
        case .box(let area):
            box = GraphicsContext.intersect(area, clip)
            guard box.x1 < box.x2, box.y1 < box.y2 else { return }
            if state.clipMask != nil || alpha < 1 {
                guard let fresh = CoverageMask(
                    x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))
                else { return }
                if let clipMask = state.clipMask {
                    pixman_image_composite32(
                        PIXMAN_OP_SRC, clipMask.image, nil, fresh.image,
                        box.x1 - Int32(clipMask.x), box.y1 - Int32(clipMask.y), 0, 0, 0, 0,
                        box.x2 - box.x1, box.y2 - box.y1)
                } else {
                    fresh.fillOpaque()
                }
                fresh.scale(by: Double(alpha))
                mask = fresh
            }
        }
        guard box.x1 < box.x2, box.y1 < box.y2 else { return }
        applyClipRegion()
        let x = box.x1, y = box.y1, w = box.x2 - box.x1, h = box.y2 - box.y1
        let sx = x &+ sourceOffset.x, sy = y &+ sourceOffset.y
        guard let mask else {
            pixman_image_composite32(mode.pixmanOperator, source, nil, target, sx, sy, 0, 0, x, y, w, h)
            return
        }
        let mx = x - Int32(mask.x), my = y - Int32(mask.y)
        switch mode {
        case .normal, .sourceAtop, .destinationOver, .destinationOut, .xor, .plusLighter, .multiply,
            .screen, .overlay, .darken, .lighten, .difference:
            pixman_image_composite32(mode.pixmanOperator, source, mask.image, target, sx, sy, mx, my, x, y, w, h)
        case .clear:
            pixman_image_composite32(PIXMAN_OP_OUT_REVERSE, mask.image, nil, target, mx, my, 0, 0, x, y, w, h)
        case .copy:
            pixman_image_composite32(PIXMAN_OP_OUT_REVERSE, mask.image, nil, target, mx, my, 0, 0, x, y, w, h)
            pixman_image_composite32(PIXMAN_OP_ADD, source, mask.image, target, sx, sy, mx, my, x, y, w, h)
        case .sourceIn, .sourceOut, .destinationIn:
            guard let scratch = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, nil, 0) else { return }
            defer { pixman_image_unref(scratch) }
            pixman_image_composite32(PIXMAN_OP_SRC, target, nil, scratch, x, y, 0, 0, 0, 0, w, h)
            pixman_image_composite32(mode.pixmanOperator, source, nil, scratch, sx, sy, 0, 0, 0, 0, w, h)
            pixman_image_composite32(PIXMAN_OP_OUT_REVERSE, mask.image, nil, target, mx, my, 0, 0, x, y, w, h)
            pixman_image_composite32(PIXMAN_OP_ADD, scratch, mask.image, target, 0, 0, mx, my, x, y, w, h)
        }
    }

    /// Installs the clip region on the target image if it changed.
    func applyClipRegion() {
        if let appliedClip, appliedClip == state.clipRegion { return }
        state.clipRegion.withPixmanRegion { region in
            _ = pixman_image_set_clip_region32(target, region)
        }
        appliedClip = state.clipRegion
    }

    // MARK: - Geometry helpers

    /// `rect` standardized, or nil when it is null, empty or not finite.
    static func validRect(_ rect: CGRect) -> CGRect? {
        guard !rect.isNull, rect.origin.x.isFinite, rect.origin.y.isFinite,
            rect.width.isFinite, rect.height.isFinite
        else { return nil }
        let r = rect.standardized
        return r.width > 0 && r.height > 0 ? r : nil
    }

    /// The exact device box `rect` covers when the CTM keeps it axis-aligned and its
    /// edges land on whole pixels (or antialiasing is off, when edges snap to pixel
    /// centres); nil otherwise.
    func deviceBox(for rect: CGRect) -> pixman_box32_t? {
        let t = state.ctm
        guard t.b == 0, t.c == 0, t.a != 0, t.d != 0 else { return nil }
        let d = rect.applying(t)
        let limit = Rasterizer.coordinateLimit
        guard d.minX.isFinite, d.maxX.isFinite, d.minY.isFinite, d.maxY.isFinite else { return nil }
        // Per edge, no arrays: every rect fill and clip comes through here.
        let antialias = state.shouldAntialias
        func snapped(_ edge: CGFloat) -> Double? {
            let clamped = min(max(Double(edge), -limit), limit)
            if antialias { return abs(clamped - clamped.rounded()) < 1e-9 ? clamped.rounded() : nil }
            return (clamped - 0.5).rounded(.up)
        }
        guard let x1 = snapped(d.minX), let y1 = snapped(d.minY), let x2 = snapped(d.maxX), let y2 = snapped(d.maxY)
        else { return nil }
        return pixman_box32_t(x1: Int32(x1), y1: Int32(y1), x2: Int32(x2), y2: Int32(y2))
    }

    /// The four corners of `rect` in device space.
    func deviceCorners(of rect: CGRect) -> [CGPoint] {
        [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
         CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)].map { $0.applying(state.ctm) }
    }

    /// `path` (user space) flattened to device-space polygons.
    func devicePolygons(filling path: Path) -> [[CGPoint]] {
        path.applying(state.ctm).flattened(tolerance: GraphicsContext.deviceTolerance).map(\.points)
    }

    static func intersect(_ a: pixman_box32_t, _ b: pixman_box32_t) -> pixman_box32_t {
        pixman_box32_t(x1: max(a.x1, b.x1), y1: max(a.y1, b.y1), x2: min(a.x2, b.x2), y2: min(a.y2, b.y2))
    }
}

/// This thread's stack of current graphics contexts (see ``GraphicsContext/current``).
///
/// Kept in a POSIX thread-specific slot, so each thread sees only its own pushes and a
/// look-up costs one `pthread_getspecific` (views look it up for every layer they draw).
/// Ownership: the slot holds one retain on its thread's stack (`passRetained`), which the
/// key's destructor releases when the thread exits.
private final class ContextStack {
    /// A pushed context and how many times it was handed out as `current` while on top.
    struct Entry {
        let context: GraphicsContext
        var requests = 0
    }

    /// The pushed contexts, the current one last, with their counts in the same buffer: a
    /// drawing call's push and pop touch one array (a cold frame pays a miss per buffer).
    @exclusivity(unchecked) var entries: [Entry] = []

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ContextStack>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    static var forCurrentThread: ContextStack {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ContextStack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let stack = ContextStack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }
}
