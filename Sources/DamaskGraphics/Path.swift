import Foundation

/// A reusable vector path shaped like `CGPath` / `UIBezierPath`: build it once (for
/// example in an initializer) and fill or stroke it as often as needed.
///
/// Coordinates are in the user space of whatever context draws the path. Curves are
/// kept exact and only flattened when drawn. Angles follow UIKit in a y-down space:
/// angle 0 points along +x, π/2 along +y, and `clockwise: true` sweeps towards
/// increasing angles (clockwise on screen).
public struct Path: Sendable, Equatable {
    /// One drawing instruction of a path.
    public enum Element: Sendable, Equatable {
        /// Starts a new subpath at a point.
        case move(to: CGPoint)
        /// A straight line from the current point.
        case line(to: CGPoint)
        /// A quadratic Bézier curve from the current point.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier curve from the current point.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// Closes the current subpath with a straight line back to its start.
        case closeSubpath
    }

    /// The instructions, in order.
    public private(set) var elements: [Element] = [] {
        didSet { elementsDidChange() }
    }

    /// Bumped on every change of ``elements``: the version ``geometryCache``'s entries
    /// must match.
    private(set) var geometryVersion: UInt64 = 0
    /// This path's cached device geometry (see ``PathGeometryCache``); nil while the path
    /// has never had elements. Shared with copies until one of them changes.
    private(set) var geometryCache: PathGeometryCache?

    /// The stroke width used by ``stroke()`` (UIBezierPath's `lineWidth`); default 1.
    public var lineWidth: CGFloat = 1
    /// The cap style used by ``stroke()``; default `.butt`.
    public var lineCapStyle: LineCap = .butt
    /// The join style used by ``stroke()``; default `.miter`.
    public var lineJoinStyle: LineJoin = .miter
    /// The miter limit used by ``stroke()``; default 10.
    public var miterLimit: CGFloat = 10
    /// Whether ``fill()`` uses the even-odd rule instead of non-zero winding.
    public var usesEvenOddFillRule = false

    private var subpathStart: CGPoint?
    private var lastPoint: CGPoint?

    /// Creates an empty path.
    public init() {}

    /// Creates a closed rectangle path.
    public init(rect: CGRect) {
        addRect(rect)
    }

    /// Creates an ellipse inscribed in `rect`.
    public init(ellipseIn rect: CGRect) {
        addEllipse(in: rect)
    }

    /// Creates a rectangle with circular corners of `cornerRadius` (clamped to half
    /// the shorter side).
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The end point of the last element; `.zero` for an empty path (as in CG).
    public var currentPoint: CGPoint { lastPoint ?? .zero }

    /// The smallest rectangle containing every point of the path, control points
    /// included (CG's `boundingBox`); `.null` for an empty path.
    public var boundingBox: CGRect {
        var minX = CGFloat.infinity, minY = CGFloat.infinity
        var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        func include(_ p: CGPoint) {
            minX = min(minX, p.x); minY = min(minY, p.y)
            maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): include(p)
            case .quadCurve(let p, let c): include(p); include(c)
            case .curve(let p, let c1, let c2): include(p); include(c1); include(c2)
            case .closeSubpath: break
            }
        }
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CGPoint) {
        elements.append(.move(to: point))
        subpathStart = point
        lastPoint = point
    }

    /// Adds a straight line to `point` (starting a subpath there if there is none).
    public mutating func addLine(to point: CGPoint) {
        guard lastPoint != nil else { return move(to: point) }
        elements.append(.line(to: point))
        lastPoint = point
    }

    /// Adds a quadratic Bézier curve to `point`.
    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {
        guard lastPoint != nil else { return move(to: point) }
        elements.append(.quadCurve(to: point, control: control))
        lastPoint = point
    }

    /// Adds a cubic Bézier curve to `point`.
    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        guard lastPoint != nil else { return move(to: point) }
        elements.append(.curve(to: point, control1: control1, control2: control2))
        lastPoint = point
    }

    /// Adds a circular arc. With a current point a line joins it to the arc's start;
    /// otherwise a new subpath starts there. `clockwise: true` sweeps towards larger
    /// angles (clockwise on a y-down screen, as UIBezierPath); a sweep is at most 2π.
    public mutating func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        guard radius.isFinite, startAngle.isFinite, endAngle.isFinite else { return }
        let radius = abs(radius)
        let twoPi = 2 * CGFloat.pi
        var sweep = endAngle - startAngle
        if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: twoPi) + twoPi }
            sweep = min(sweep, twoPi)
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: twoPi) - twoPi }
            sweep = max(sweep, -twoPi)
        }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if lastPoint == nil { move(to: start) } else { addLine(to: start) }
        let pieces = max(1, Int((abs(sweep) / (CGFloat.pi / 2)).rounded(.up)))
        let step = sweep / CGFloat(pieces)
        // Control distance for a cubic approximating a circular arc of angle `step`.
        let k = 4.0 / 3.0 * tan(step / 4) * radius
        var angle = startAngle
        for _ in 0..<pieces {
            let next = angle + step
            let p0 = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            let p3 = CGPoint(x: center.x + radius * cos(next), y: center.y + radius * sin(next))
            let c1 = CGPoint(x: p0.x - k * sin(angle), y: p0.y + k * cos(angle))
            let c2 = CGPoint(x: p3.x + k * sin(next), y: p3.y - k * cos(next))
            addCurve(to: p3, control1: c1, control2: c2)
            angle = next
        }
    }

    /// Adds a closed rectangle as a new subpath (start at the minimum corner, then
    /// along +x, as CG does).
    public mutating func addRect(_ rect: CGRect) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY))
        addLine(to: CGPoint(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// Adds a closed ellipse inscribed in `rect` as a new subpath (four cubic curves).
    public mutating func addEllipse(in rect: CGRect) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let rx = r.width / 2, ry = r.height / 2
        let cx = r.midX, cy = r.midY
        let k: CGFloat = 0.552_284_749_830_793_4
        move(to: CGPoint(x: cx + rx, y: cy))
        addCurve(to: CGPoint(x: cx, y: cy + ry),
                 control1: CGPoint(x: cx + rx, y: cy + k * ry), control2: CGPoint(x: cx + k * rx, y: cy + ry))
        addCurve(to: CGPoint(x: cx - rx, y: cy),
                 control1: CGPoint(x: cx - k * rx, y: cy + ry), control2: CGPoint(x: cx - rx, y: cy + k * ry))
        addCurve(to: CGPoint(x: cx, y: cy - ry),
                 control1: CGPoint(x: cx - rx, y: cy - k * ry), control2: CGPoint(x: cx - k * rx, y: cy - ry))
        addCurve(to: CGPoint(x: cx + rx, y: cy),
                 control1: CGPoint(x: cx + k * rx, y: cy - ry), control2: CGPoint(x: cx + rx, y: cy - k * ry))
        closeSubpath()
    }

    /// Adds a closed rounded rectangle; corner sizes are clamped to half the sides.
    public mutating func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let rx = min(max(cornerWidth.isNaN ? 0 : cornerWidth, 0), r.width / 2)
        let ry = min(max(cornerHeight.isNaN ? 0 : cornerHeight, 0), r.height / 2)
        guard rx > 0, ry > 0 else { return addRect(r) }
        let k: CGFloat = 0.552_284_749_830_793_4
        move(to: CGPoint(x: r.minX + rx, y: r.minY))
        addLine(to: CGPoint(x: r.maxX - rx, y: r.minY))
        addCurve(to: CGPoint(x: r.maxX, y: r.minY + ry),
                 control1: CGPoint(x: r.maxX - rx + k * rx, y: r.minY),
                 control2: CGPoint(x: r.maxX, y: r.minY + ry - k * ry))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - ry))
        addCurve(to: CGPoint(x: r.maxX - rx, y: r.maxY),
                 control1: CGPoint(x: r.maxX, y: r.maxY - ry + k * ry),
                 control2: CGPoint(x: r.maxX - rx + k * rx, y: r.maxY))
        addLine(to: CGPoint(x: r.minX + rx, y: r.maxY))
        addCurve(to: CGPoint(x: r.minX, y: r.maxY - ry),
                 control1: CGPoint(x: r.minX + rx - k * rx, y: r.maxY),
                 control2: CGPoint(x: r.minX, y: r.maxY - ry + k * ry))
        addLine(to: CGPoint(x: r.minX, y: r.minY + ry))
        addCurve(to: CGPoint(x: r.minX + rx, y: r.minY),
                 control1: CGPoint(x: r.minX, y: r.minY + ry - k * ry),
                 control2: CGPoint(x: r.minX + rx - k * rx, y: r.minY))
        closeSubpath()
    }

    /// Appends all elements of `other` (its style properties are ignored).
    public mutating func addPath(_ other: Path) {
        for element in other.elements { append(element) }
    }

    /// Closes the current subpath; the current point returns to the subpath's start.
    public mutating func closeSubpath() {
        guard lastPoint != nil, elements.last != .closeSubpath else { return }
        elements.append(.closeSubpath)
        lastPoint = subpathStart
    }

    /// Closes the current subpath (UIBezierPath's name for ``closeSubpath()``).
    public mutating func close() {
        closeSubpath()
    }

    /// Returns the path with every point mapped by `t`; style properties are kept.
    public func applying(_ t: CGAffineTransform) -> Path {
        var result = self
        result.elements = []
        result.subpathStart = nil
        result.lastPoint = nil
        for element in elements {
            switch element {
            case .move(let p): result.move(to: p.applying(t))
            case .line(let p): result.addLine(to: p.applying(t))
            case .quadCurve(let p, let c): result.addQuadCurve(to: p.applying(t), control: c.applying(t))
            case .curve(let p, let c1, let c2):
                result.addCurve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
            case .closeSubpath: result.closeSubpath()
            }
        }
        return result
    }

    /// Fills the path in ``GraphicsContext/current`` with its fill colour, using
    /// ``usesEvenOddFillRule``; does nothing without a current context.
    public func fill() {
        GraphicsContext.current?.fill(self, using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    /// Strokes the path in ``GraphicsContext/current`` with its stroke colour and this
    /// path's ``lineWidth``, cap, join and miter limit; does nothing without a context.
    public func stroke() {
        guard let context = GraphicsContext.current else { return }
        context.saveGState()
        context.setLineWidth(lineWidth)
        context.setLineCap(lineCapStyle)
        context.setLineJoin(lineJoinStyle)
        context.setMiterLimit(miterLimit)
        context.stroke(self)
        context.restoreGState()
    }

    /// Invalidates the cached geometry: a new version, and a cache of its own when the
    /// current one is shared with a copy (so the copy keeps its entries and neither sees
    /// the other's).
    private mutating func elementsDidChange() {
        geometryVersion &+= 1
        if !isKnownUniquelyReferenced(&geometryCache) { geometryCache = PathGeometryCache() }
    }

    private mutating func append(_ element: Element) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .quadCurve(let p, let c): addQuadCurve(to: p, control: c)
        case .curve(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
        case .closeSubpath: closeSubpath()
        }
    }

    /// Equal when the elements and the stroke/fill style properties are equal.
    public static func == (lhs: Path, rhs: Path) -> Bool {
        lhs.elements == rhs.elements && lhs.lineWidth == rhs.lineWidth
            && lhs.lineCapStyle == rhs.lineCapStyle && lhs.lineJoinStyle == rhs.lineJoinStyle
            && lhs.miterLimit == rhs.miterLimit && lhs.usesEvenOddFillRule == rhs.usesEvenOddFillRule
    }
}
