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
    public func fill(_ path: Path, using rule: FillRule = .winding) {
        fillDevice(devicePolygons(filling: path), rule: rule)
    }

    /// Strokes `path` (user space) with the stroke colour and the context's line
    /// width, cap, join, miter limit and dash.
    public func stroke(_ path: Path) {
        let t = state.ctm
        let scale = t.maximumScale
        guard scale > 0, scale.isFinite else { return }
        let tolerance = GraphicsContext.deviceTolerance / scale
        guard clipBounds != nil else { return }
        // Width 0 is a hairline: one device pixel wide, as in Core Graphics.
        let width = state.lineWidth == 0 ? 1 / scale : state.lineWidth
        let stroker = Stroker(
            lineWidth: width, cap: state.lineCap, join: state.lineJoin,
            miterLimit: state.miterLimit, dashLengths: state.dashLengths, dashPhase: state.dashPhase,
            tolerance: tolerance)
        let polygons = stroker.outline(of: path.flattened(tolerance: tolerance))
        guard !polygons.isEmpty else { return }
        paintPolygons(polygons.map { $0.map { $0.applying(t) } }, rule: .winding, color: state.strokeColor)
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
        guard let bounds = clipBounds else { return }
        guard state.blendMode == .normal, state.clipMask == nil, state.clipRegion.isRectangle,
            bitmap.bytesPerRow % 4 == 0
        else {
            guard let mask = rasterize(polygons, rule: rule) else { return }
            paintSolid(color, coverage: .mask(mask), mode: state.blendMode)
            return
        }
        let packed = color.packedPremultiplied(alphaScale: state.alpha)
        guard packed != 0, let table = EdgeTable(polygons: polygons, bounds: bounds) else { return }
        let pixelsPerRow = bitmap.bytesPerRow / 4
        var painter = SolidSpanPainter(
            origin: bitmap.bytes.assumingMemoryBound(to: UInt32.self) + table.y0 * pixelsPerRow + table.x0,
            pixelsPerRow: pixelsPerRow, color: packed)
        Rasterizer.scan(table, rule: rule, antialias: state.shouldAntialias, into: &painter)
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
