import DamaskGraphics
import Foundation
import Testing

@Suite("Path", .timeLimit(.minutes(5)))
struct PathTests {
    @Test("building records elements, current point and bounding box")
    func building() {
        var path = Path()
        #expect(path.isEmpty && path.currentPoint == .zero && path.boundingBox.isNull)
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 5, y: 2))
        path.addQuadCurve(to: CGPoint(x: 5, y: 8), control: CGPoint(x: 9, y: 5))
        #expect(path.currentPoint == CGPoint(x: 5, y: 8))
        path.closeSubpath()
        #expect(path.currentPoint == CGPoint(x: 1, y: 2))
        #expect(path.elements.count == 4)
        #expect(path.boundingBox == CGRect(x: 1, y: 2, width: 8, height: 6))
    }

    @Test("a line without a current point starts a subpath instead")
    func lineWithoutMove() {
        var path = Path()
        path.addLine(to: CGPoint(x: 3, y: 3))
        #expect(path.elements == [.move(to: CGPoint(x: 3, y: 3))])
    }

    @Test("clockwise arcs sweep towards larger angles and end on the circle")
    func arcs() {
        var path = Path()
        path.addArc(center: CGPoint(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(abs(path.currentPoint.x - 10) < 1e-9 && abs(path.currentPoint.y - 15) < 1e-9)
        // A quarter turn clockwise stays in the +x, +y quadrant.
        #expect(path.boundingBox.minX >= 10 - 1e-9 && path.boundingBox.minY >= 10 - 1e-9)
        var ccw = Path()
        ccw.addArc(center: .zero, radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        // Three quarters the other way: reaches x = -5 and y = -5.
        #expect(ccw.boundingBox.minX < -4.9 && ccw.boundingBox.minY < -4.9)
    }

    @Test("applying transforms every point and keeps the style")
    func applyingTransform() {
        var path = Path(rect: CGRect(x: 0, y: 0, width: 2, height: 1))
        path.lineWidth = 4
        let moved = path.applying(CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 2))
        #expect(moved.boundingBox == CGRect(x: 10, y: 0, width: 4, height: 2))
        #expect(moved.lineWidth == 4)
        #expect(moved != path)
        #expect(path == path.applying(.identity))
    }

    @Test("rounded rect and ellipse stay inside their rect; corner radius is clamped")
    func shapes() {
        let rect = CGRect(x: 0, y: 0, width: 20, height: 10)
        #expect(Path(ellipseIn: rect).boundingBox == rect)
        let rounded = Path(roundedRect: rect, cornerRadius: 100)
        #expect(rounded.boundingBox == rect)
        var combined = Path(rect: rect)
        combined.addPath(Path(ellipseIn: rect))
        #expect(combined.elements.count == Path(rect: rect).elements.count + Path(ellipseIn: rect).elements.count)
    }

    @Test("fill() and stroke() draw into GraphicsContext.current and do nothing without one")
    func conveniencesUseCurrentContext() throws {
        var star = Path(rect: CGRect(x: 2, y: 2, width: 6, height: 6))
        star.lineWidth = 2
        star.fill()  // no current context: no crash, nothing to check
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.red)
        context.setStrokeColor(.blue)
        GraphicsContext.push(context)
        star.fill()
        #expect(bitmap.pixel(x: 5, y: 5) == 0xFFFF_0000)
        star.stroke()
        #expect(bitmap.pixel(x: 1, y: 5) == 0xFF00_00FF && bitmap.pixel(x: 2, y: 5) == 0xFF00_00FF)
        #expect(context.lineWidth == 1)  // stroke() restored the context's own width
        GraphicsContext.pop()
        #expect(GraphicsContext.current == nil)
    }
}
