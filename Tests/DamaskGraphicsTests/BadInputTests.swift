import DamaskGraphics
import Foundation
import Testing

@Suite("Bad input", .timeLimit(.minutes(5)))
struct BadInputTests {
    /// Runs `body` on a bitmap wrapped inside a larger buffer whose surrounding bytes
    /// (rows before and after, padding after each row) must stay untouched.
    private func withGuardedBitmap(_ body: (GraphicsContext) -> Void) throws {
        let width = 24, height = 20, bytesPerRow = 32 * 4, guardRows = 4
        let total = bytesPerRow * (height + 2 * guardRows)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: total)
        do {
            let bitmap = try Bitmap(
                wrapping: memory + guardRows * bytesPerRow, width: width, height: height, bytesPerRow: bytesPerRow)
            let context = GraphicsContext(bitmap: bitmap)
            context.setFillColor(.red)
            context.setStrokeColor(.green)
            body(context)
        }
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<total {
            let row = offset / bytesPerRow - guardRows
            let column = (offset % bytesPerRow) / 4
            let insideBitmap = row >= 0 && row < height && column < width
            if !insideBitmap { #expect(bytes[offset] == 0xA5, "wrote outside the bitmap at byte \(offset)") }
        }
    }

    @Test("NaN, infinite and huge coordinates crash nothing and stay inside the bitmap",
          arguments: [CGFloat.nan, .infinity, -.infinity, 1e30, -1e30, 1e9, CGFloat.greatestFiniteMagnitude])
    func badCoordinates(value: CGFloat) throws {
        for primitive in Primitive.all {
            try withGuardedBitmap { context in primitive.draw(context, value) }
        }
    }

    @Test("bad transforms, line widths, dashes and sizes crash nothing and stay inside")
    func badSettings() throws {
        let transforms: [CGAffineTransform] = [
            CGAffineTransform(scaleX: 0, y: 0), CGAffineTransform(scaleX: .nan, y: 1),
            CGAffineTransform(scaleX: 1e20, y: 1e20), CGAffineTransform(translationX: .infinity, y: 0),
            CGAffineTransform(scaleX: -1, y: -1), CGAffineTransform(a: 1, b: 1, c: 1, d: 1, tx: 0, ty: 0),
        ]
        for transform in transforms {
            for primitive in Primitive.all {
                try withGuardedBitmap { context in
                    context.concatenate(transform)
                    primitive.draw(context, 0)
                }
            }
        }
        try withGuardedBitmap { context in
            for width in [0, -5, CGFloat.nan, .infinity, 1e12] {
                context.setLineWidth(width)
                context.stroke(CGRect(x: 2, y: 2, width: 10, height: 10))
            }
            context.setLineWidth(2)
            for dashes: [CGFloat] in [[], [0], [0, 0], [-1, 2], [.nan, 1], [1e-12, 1e-12], [.infinity]] {
                context.setLineDash(phase: .nan, lengths: dashes)
                context.strokeEllipse(in: CGRect(x: 1, y: 1, width: 20, height: 15))
            }
            context.setLineDash(phase: 0, lengths: [])
            context.setMiterLimit(.nan)
            context.strokeLineSegments(between: [CGPoint(x: 1, y: 1)])
            context.fill(CGRect(x: 5, y: 5, width: -3, height: 0))
            context.fill(.null)
            context.fill(.infinite)
            context.fill(Path(), using: .evenOdd)
            context.stroke(Path())
            context.fillPath()
            context.strokePath()
            context.clip(using: .winding)  // empty current path: clip becomes empty
            context.fill(CGRect(x: 0, y: 0, width: 24, height: 20))
        }
    }

    @Test("an empty clip stops all drawing")
    func emptyClip() throws {
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.clip(to: CGRect(x: 0, y: 0, width: 0, height: 5))
        for primitive in Primitive.all { primitive.draw(context, 0) }
        for y in 0..<10 { for x in 0..<10 { #expect(bitmap.pixel(x: x, y: y) == 0) } }
    }

    @Test("bad gradient and bitmap arguments crash nothing")
    func badArguments() throws {
        try withGuardedBitmap { context in
            context.drawLinearGradient(colors: [], locations: nil, start: .zero, end: CGPoint(x: 10, y: 0))
            context.drawLinearGradient(colors: [.red], locations: [5, -2, .nan], start: .zero, end: .zero)
            context.drawRadialGradient(colors: [.red, .blue], locations: [1], startCenter: .zero, startRadius: -1, endCenter: .zero, endRadius: 5)
            context.drawRadialGradient(colors: [.red, .blue], locations: nil, startCenter: .zero, startRadius: 1e9, endCenter: .zero, endRadius: 1e10)
            context.draw(Primitive.checker, in: CGRect(x: 0, y: 0, width: 0, height: 10))
            context.draw(Primitive.checker, in: CGRect(x: 0, y: 0, width: 1e-9, height: 1e-9))
            context.draw(Primitive.checker, in: CGRect(x: 0, y: 0, width: 1e15, height: 1e15), alpha: .nan)
            context.draw("", at: .zero, font: Font.system(size: 12), color: .black)
            context.draw("\u{0}\u{7}\n\t", at: CGPoint(x: 2, y: 10), font: Font.system(size: 12), color: .black)
            context.draw("huge", at: CGPoint(x: 2, y: 10), font: Font.system(size: 4000), color: .black)
        }
    }
}
