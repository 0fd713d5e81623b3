import DamaskGraphics
import DamaskViews
import Foundation

/// A drawing pad: strokes are drawn into an offscreen bitmap as the pointer moves, and
/// each segment invalidates only its own rect (`setNeedsDisplay(_:)`); ``draw(_:)`` copies
/// that part of the bitmap.
///
/// Owns the offscreen bitmap (bounds × contentScaleFactor pixels, recreated on a size or
/// scale change, keeping what was drawn). Main-actor.
final class CanvasView: View {
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0
    /// The rect of the last ``draw(_:)``, in view points.
    private(set) var lastDrawRect = CGRect.null
    /// Called after every draw.
    var onDraw: @MainActor (CanvasView) -> Void = { _ in }
    /// The stroke width in points.
    var lineWidth: CGFloat = 6
    /// The stroke colour.
    var strokeColor = Color(red: 0.20, green: 0.30, blue: 0.75)

    private var offscreen: Bitmap?
    private var offscreenScale: CGFloat = 0
    private var lastPoint: CGPoint?

    override init(frame: CGRect) {
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isOpaque = true
        isAccessibilityElement = true  // drawn on with the pointer
        accessibilityTraits = .allowsDirectInteraction
        accessibilityLabel = "Drawing canvas"
    }

    /// Erases the drawing.
    func clear() {
        offscreen?.fill(.clear)
        setNeedsDisplay()
    }

    /// Draws a segment from `start` to `end` (view points) into the offscreen bitmap and
    /// invalidates the rect it covers.
    func addSegment(from start: CGPoint, to end: CGPoint) {
        guard let bitmap = prepareOffscreen() else { return }
        let context = GraphicsContext(bitmap: bitmap)
        context.scaleBy(x: offscreenScale, y: offscreenScale)
        context.setStrokeColor(strokeColor)
        context.setLineWidth(lineWidth)
        context.setLineCap(.round)
        context.move(to: start)
        context.addLine(to: end)
        context.strokePath()
        let reach = lineWidth / 2 + 1
        let rect = CGRect(
            x: min(start.x, end.x), y: min(start.y, end.y),
            width: abs(end.x - start.x), height: abs(end.y - start.y)
        ).insetBy(dx: -reach, dy: -reach)
        setNeedsDisplay(rect)
    }

    override func draw(_ rect: CGRect) {
        drawCount += 1
        lastDrawRect = rect
        guard let context = GraphicsContext.current else { return }
        // The pad is the panel colour of the appearance (the strokes are kept apart in a
        // transparent bitmap, so a change of appearance repaints the pad, not the drawing).
        context.setFillColor(DemoStyle.panel)
        context.fill(rect)
        if let bitmap = prepareOffscreen() {
            context.draw(bitmap, in: bounds)
        }
        onDraw(self)
    }

    /// The offscreen bitmap of the strokes at the current size and scale, made
    /// (transparent, with the old drawing copied in) when needed.
    private func prepareOffscreen() -> Bitmap? {
        let scale = contentScaleFactor > 0 ? contentScaleFactor : 1
        let width = max(1, Int((bounds.width * scale).rounded(.up)))
        let height = max(1, Int((bounds.height * scale).rounded(.up)))
        if let offscreen, offscreen.width == width, offscreen.height == height, offscreenScale == scale {
            return offscreen
        }
        guard let bitmap = try? Bitmap(width: width, height: height) else { return nil }
        bitmap.fill(.clear)
        if let old = offscreen {
            let context = GraphicsContext(bitmap: bitmap)
            context.draw(
                old, in: CGRect(x: 0, y: 0, width: CGFloat(old.width) * scale / offscreenScale,
                    height: CGFloat(old.height) * scale / offscreenScale))
        }
        offscreen = bitmap
        offscreenScale = scale
        return bitmap
    }

    override func pointerDown(_ event: PointerEvent) {
        let point = event.location(in: self)
        lastPoint = point
        addSegment(from: point, to: point)
    }

    override func pointerMoved(_ event: PointerEvent) {
        guard let start = lastPoint else { return super.pointerMoved(event) }
        let point = event.location(in: self)
        addSegment(from: start, to: point)
        lastPoint = point
    }

    override func pointerUp(_ event: PointerEvent) {
        lastPoint = nil
    }

    override func pointerCancelled(_ event: PointerEvent) {
        lastPoint = nil
    }
}
