import Foundation

/// The current path and path drawing. As in Core Graphics, points are mapped by the
/// CTM when added, and filling, stroking or clipping consumes the current path.
extension GraphicsContext {
    /// Discards the current path.
    public func beginPath() {
        currentPath = Path()
    }

    /// Starts a new subpath at `point` (user space).
    public func move(to point: CGPoint) {
        currentPath.move(to: point.applying(state.ctm))
    }

    /// Adds a line from the current point to `point`.
    public func addLine(to point: CGPoint) {
        currentPath.addLine(to: point.applying(state.ctm))
    }

    /// Adds a quadratic Bézier curve.
    public func addQuadCurve(to point: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: point.applying(state.ctm), control: control.applying(state.ctm))
    }

    /// Adds a cubic Bézier curve.
    public func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(
            to: point.applying(state.ctm), control1: control1.applying(state.ctm),
            control2: control2.applying(state.ctm))
    }

    /// Adds a circular arc (see ``Path/addArc(center:radius:startAngle:endAngle:clockwise:)``
    /// for the angle convention).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        var arc = Path()
        if !currentPath.isEmpty { arc.move(to: currentPath.currentPoint.applying(state.ctm.inverted())) }
        arc.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        appendUserPath(arc, continuing: !currentPath.isEmpty)
    }

    /// Adds a closed rectangle subpath.
    public func addRect(_ rect: CGRect) {
        appendUserPath(Path(rect: rect), continuing: false)
    }

    /// Adds a closed ellipse subpath inscribed in `rect`.
    public func addEllipse(in rect: CGRect) {
        appendUserPath(Path(ellipseIn: rect), continuing: false)
    }

    /// Adds all of `path` (user space) to the current path.
    public func addPath(_ path: Path) {
        appendUserPath(path, continuing: false)
    }

    /// Closes the current subpath.
    public func closePath() {
        currentPath.closeSubpath()
    }

    /// Whether the current path is empty.
    public var isPathEmpty: Bool { currentPath.isEmpty }

    /// Fills the current path with the fill colour and consumes it.
    public func fillPath(using rule: FillRule = .winding) {
        let path = currentPath
        currentPath = Path()
        fillDevice(path.flattened(tolerance: GraphicsContext.deviceTolerance).map(\.points), rule: rule)
    }

    /// Strokes the current path with the stroke colour and line settings and consumes it.
    public func strokePath() {
        let path = currentPath
        currentPath = Path()
        guard state.ctm.isInvertible else { return }
        stroke(path.applying(state.ctm.inverted()))
    }

    /// Fills `path` (user space) with the fill colour.
    ///
    /// The device polygons and the edge table are cached in the path (see
    /// ``PathGeometryCache``): drawing the same path again under the same CTM and clip
    /// skips flattening and edge sorting.
    public func fill(_ path: Path, using rule: FillRule = .winding) {
        paintCached(path, stroke: nil, rule: rule, color: state.fillColor) {
            self.devicePolygons(filling: path)
        }
    }

    /// Strokes `path` (user space) with the stroke colour and the context's line
    /// width, cap, join, miter limit and dash.
    ///
    /// The outline is cached in the path like a fill's polygons (keyed also by the line
    /// settings), so a path stroked every frame is flattened and outlined once.
    public func stroke(_ path: Path) {
        let t = state.ctm
        let scale = t.maximumScale
        guard scale > 0, scale.isFinite else { return }
        let tolerance = GraphicsContext.deviceTolerance / scale
        guard clipBounds != nil else { return }
        // Width 0 is a hairline: one device pixel wide, as in Core Graphics.
        let width = state.lineWidth == 0 ? 1 / scale : state.lineWidth
        let style = PathGeometryCache.StrokeStyle(
            lineWidth: width, cap: state.lineCap, join: state.lineJoin, miterLimit: state.miterLimit,
            dashLengths: state.dashLengths, dashPhase: state.dashPhase)
        paintCached(path, stroke: style, rule: .winding, color: state.strokeColor) {
            let stroker = Stroker(
                lineWidth: style.lineWidth, cap: style.cap, join: style.join,
                miterLimit: style.miterLimit, dashLengths: style.dashLengths, dashPhase: style.dashPhase,
                tolerance: tolerance)
            return stroker.outline(of: path.flattened(tolerance: tolerance)).map { $0.map { $0.applying(t) } }
        }
    }

    /// Paints `path`'s device polygons (made by `makePolygons` unless the path's cache has
    /// them for this CTM and `stroke` style) with `color`, reusing the cached edge table
    /// when the clip box is the same and replaying the cached coverage when the fill rule
    /// and antialiasing are too (recorded by the second conversion with them), and leaves
    /// what it computed in the cache.
    private func paintCached(
        _ path: Path, stroke: PathGeometryCache.StrokeStyle?, rule: FillRule, color: Color,
        makePolygons: () -> [[CGPoint]]
    ) {
        guard let cache = path.geometryCache else { return }  // no elements ever: nothing to draw
        let key = PathGeometryCache.Key(version: path.geometryVersion, ctm: state.ctm, stroke: stroke)
        var entry = cache.entry(for: key) ?? PathGeometryCache.Entry(key: key, polygons: makePolygons())
        var changed = entry.tableBounds == nil
        guard !entry.polygons.isEmpty else {
            if changed { cache.store(entry) }
            return
        }
        let antialias = state.shouldAntialias
        paintPolygons(
            entry.polygons, rule: rule, color: color,
            edgeTable: { bounds in
                let box = PathGeometryCache.Bounds(x0: bounds.x0, y0: bounds.y0, x1: bounds.x1, y1: bounds.y1)
                if entry.tableBounds != box {
                    entry.table = EdgeTable(polygons: entry.polygons, bounds: bounds)
                    entry.tableBounds = box
                    entry.coverage = nil
                    entry.unrecordedScan = nil
                    changed = true
                }
                return entry.table
            },
            scan: { table, painter in
                if let coverage = entry.coverage, coverage.rule == rule, coverage.antialias == antialias {
                    coverage.recording.replay(into: &painter)
                    return
                }
                let settings = PathGeometryCache.ScanSettings(rule: rule, antialias: antialias)
                guard entry.unrecordedScan == settings else {
                    // A first conversion with these settings: recorded only if it comes again.
                    Rasterizer.scan(table, rule: rule, antialias: antialias, into: &painter)
                    entry.unrecordedScan = settings
                    changed = true
                    return
                }
                var recorder = RecordingSink(inner: painter, limit: PathGeometryCache.coverageLimit)
                Rasterizer.scan(table, rule: rule, antialias: antialias, into: &recorder)
                painter = recorder.inner
                entry.coverage = recorder.overflowed
                    ? nil
                    : PathGeometryCache.RecordedCoverage(
                        rule: rule, antialias: antialias, recording: recorder.recording)
                changed = true
            })
        if changed { cache.store(entry) }
    }

    private func fillDevice(_ polygons: [[CGPoint]], rule: FillRule) {
        paintPolygons(polygons, rule: rule, color: state.fillColor)
    }

    /// Paints device polygons with a solid colour through the current clip, alpha and
    /// blend mode.
    ///
    /// When nothing but a rectangular clip stands between the spans and the bitmap (normal
    /// blend mode, no path clip), the scan converter's spans are composited straight into
    /// the bitmap (``SolidSpanPainter``): no coverage mask is allocated, and the inside of
    /// an opaque shape is plain stores. Otherwise the coverage goes through a mask and
    /// pixman. Both give the same pixels.
    func paintPolygons(_ polygons: [[CGPoint]], rule: FillRule, color: Color) {
        paintPolygons(polygons, rule: rule, color: color) { EdgeTable(polygons: polygons, bounds: $0) }
    }

    /// ``paintPolygons(_:rule:color:)`` with the edge table for a clip box supplied by
    /// `edgeTable` (which may take it from a cache) and, when the spans go straight into
    /// the bitmap, the scan conversion done by `scan` (which may replay recorded coverage).
    private func paintPolygons(
        _ polygons: [[CGPoint]], rule: FillRule, color: Color,
        edgeTable: ((x0: Int, y0: Int, x1: Int, y1: Int)) -> EdgeTable?,
        scan: ((EdgeTable, inout SolidSpanPainter) -> Void)? = nil
    ) {
        guard let bounds = clipBounds else { return }
        guard state.blendMode == .normal, state.clipMask == nil, state.clipRegion.isRectangle,
            destination.bytesPerRow % 4 == 0
        else {
            guard let mask = rasterize(polygons, rule: rule) else { return }
            paintSolid(color, coverage: .mask(mask), mode: state.blendMode)
            return
        }
        let packed = color.packedPremultiplied(alphaScale: state.alpha)
        guard packed != 0, let table = edgeTable(bounds) else { return }
        if redraw != nil { willPaint(filling: nil, opaquely: false, mode: .normal) }
        let pixelsPerRow = destination.bytesPerRow / 4
        var painter = SolidSpanPainter(
            origin: destination.bytes.assumingMemoryBound(to: UInt32.self) + table.y0 * pixelsPerRow + table.x0,
            pixelsPerRow: pixelsPerRow, color: packed, sources: solidSources.products(of: packed))
        if let scan {
            scan(table, &painter)
        } else {
            Rasterizer.scan(table, rule: rule, antialias: state.shouldAntialias, into: &painter)
        }
    }

    /// Appends a user-space path, mapped to device space. With `continuing`, its
    /// leading move is dropped so it connects to the current subpath.
    private func appendUserPath(_ path: Path, continuing: Bool) {
        let device = path.applying(state.ctm)
        if continuing, case .move? = device.elements.first {
            var joined = currentPath
            for element in device.elements.dropFirst() {
                switch element {
                case .move(let p): joined.move(to: p)
                case .line(let p): joined.addLine(to: p)
                case .quadCurve(let p, let c): joined.addQuadCurve(to: p, control: c)
                case .curve(let p, let c1, let c2): joined.addCurve(to: p, control1: c1, control2: c2)
                case .closeSubpath: joined.closeSubpath()
                }
            }
            currentPath = joined
            return
        }
        currentPath.addPath(device)
    }
}
