import DamaskGraphics
import Foundation
import Testing

@Suite("GraphicsContext state", .timeLimit(.minutes(5)))
struct GraphicsContextTests {
    @Test("restoreGState restores transform, clip, colours and line settings")
    func saveRestore() throws {
        let context = GraphicsContext(bitmap: try Bitmap(width: 20, height: 20))
        context.saveGState()
        context.translateBy(x: 5, y: 5)
        context.clip(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        context.setFillColor(.red)
        context.setLineWidth(7)
        context.setBlendMode(.copy)
        #expect(context.ctm.tx == 5 && context.clipRegion.boundingBox == CGRect(x: 5, y: 5, width: 4, height: 4))
        context.restoreGState()
        #expect(context.ctm.isIdentity)
        #expect(context.clipRegion == Region(CGRect(x: 0, y: 0, width: 20, height: 20)))
        #expect(context.fillColor == .black && context.lineWidth == 1 && context.blendMode == .normal)
    }

    @Test("an unbalanced restoreGState is ignored")
    func unbalancedRestore() throws {
        let context = GraphicsContext(bitmap: try Bitmap(width: 4, height: 4))
        context.setFillColor(.red)
        context.restoreGState()
        context.restoreGState()
        #expect(context.fillColor == .red && context.savedStateCount == 0)
    }

    @Test("boundingBoxOfClipPath is the clip in user space")
    func clipBoundingBox() throws {
        let context = GraphicsContext(bitmap: try Bitmap(width: 100, height: 100))
        context.scaleBy(x: 2, y: 2)
        context.clip(to: CGRect(x: 5, y: 5, width: 10, height: 20))
        #expect(context.boundingBoxOfClipPath == CGRect(x: 5, y: 5, width: 10, height: 20))
        context.clip(to: CGRect(x: 100, y: 100, width: 1, height: 1))
        #expect(context.boundingBoxOfClipPath == .zero)
    }

    @Test("clip(to: Region) is in device pixels, ignoring the CTM")
    func regionClipIsDeviceSpace() throws {
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.translateBy(x: 3, y: 3)
        context.clip(to: Region(CGRect(x: 0, y: 0, width: 2, height: 2)))
        context.setFillColor(.red)
        context.fill(CGRect(x: -3, y: -3, width: 10, height: 10))
        #expect(bitmap.pixel(x: 1, y: 1) == 0xFFFF_0000 && bitmap.pixel(x: 2, y: 2) == 0)
    }

    @Test(
        "clip(to: rects) clips to their union, as a path of the same rects does",
        arguments: [
            [CGRect(x: 1, y: 1, width: 6, height: 3), CGRect(x: 4, y: 2, width: 8, height: 9), .null],
            [CGRect(x: 2, y: 2, width: 5, height: 5), CGRect(x: 8.5, y: 3.25, width: 4, height: 6)],
            [CGRect(x: 3, y: 1, width: 0, height: 4), CGRect(x: 12, y: 12, width: -6, height: -4)],
            [CGRect.null, CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)],
        ] as [[CGRect]])
    func clipToRects(rects: [CGRect]) throws {
        for rotated in [false, true] {
            func filled(clip: (GraphicsContext) -> Void) throws -> Bitmap {
                let bitmap = try Bitmap(width: 16, height: 16)
                let context = GraphicsContext(bitmap: bitmap)
                if rotated {
                    context.translateBy(x: 8, y: 8)
                    context.rotate(by: .pi / 7)
                    context.translateBy(x: -8, y: -8)
                }
                clip(context)
                context.setFillColor(.red)
                context.fill(CGRect(x: -20, y: -20, width: 60, height: 60))
                return bitmap
            }
            let byRects = try filled { $0.clip(to: rects) }
            var path = Path()
            for rect in rects where !rect.isNull && rect.minX.isFinite {
                path.addRect(rect.standardized)
            }
            let byPath = try filled { $0.clip(to: path) }
            if path.isEmpty {  // no rect with an area: nothing is drawn
                #expect(byRects.pixel(x: 8, y: 8) == 0 && byRects.pixel(x: 0, y: 0) == 0)
            }
            for y in 0..<16 {
                for x in 0..<16 {
                    #expect(byRects.pixel(x: x, y: y) == byPath.pixel(x: x, y: y), "(\(x), \(y)) rotated \(rotated)")
                }
            }
        }
    }

    @Test("filling or stroking consumes the current path")
    func pathIsConsumed() throws {
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.addRect(CGRect(x: 0, y: 0, width: 5, height: 5))
        #expect(!context.isPathEmpty)
        context.fillPath()
        #expect(context.isPathEmpty)
        context.setFillColor(.red)
        context.fillPath()  // nothing left to fill
        #expect(bitmap.pixel(x: 1, y: 1) == 0xFF00_0000)
    }

    @Test("points added to the current path use the CTM at the time they were added")
    func pathUsesCTMWhenAdded() throws {
        let bitmap = try Bitmap(width: 20, height: 20)
        let context = GraphicsContext(bitmap: bitmap)
        context.translateBy(x: 10, y: 10)
        context.addRect(CGRect(x: 0, y: 0, width: 4, height: 4))
        context.translateBy(x: -10, y: -10)
        context.fillPath()
        #expect(bitmap.pixel(x: 11, y: 11) == 0xFF00_0000 && bitmap.pixel(x: 1, y: 1) == 0)
    }

    @Test("GraphicsContext.current is a per-thread stack")
    func currentIsPerThread() throws {
        let a = GraphicsContext(bitmap: try Bitmap(width: 1, height: 1))
        let b = GraphicsContext(bitmap: try Bitmap(width: 1, height: 1))
        GraphicsContext.push(a)
        GraphicsContext.push(b)
        #expect(GraphicsContext.current === b)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var otherThreadSawNone = false
        let thread = Thread {
            otherThreadSawNone = GraphicsContext.current == nil
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(otherThreadSawNone)
        GraphicsContext.pop()
        #expect(GraphicsContext.current === a)
        GraphicsContext.pop()
        GraphicsContext.pop()  // extra pop: ignored
        #expect(GraphicsContext.current == nil)
    }

    @Test("global alpha scales what is drawn")
    func globalAlpha() throws {
        let bitmap = try Bitmap(width: 4, height: 4)
        let context = GraphicsContext(bitmap: bitmap)
        context.setAlpha(0.5)
        context.setFillColor(.white)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(bitmap.pixel(x: 2, y: 2) == 0x8080_8080)
    }

    @Test("copy replaces, clear erases, normal blends, inside the shape only")
    func blendModes() throws {
        let bitmap = try Bitmap(width: 12, height: 4)
        bitmap.fill(.blue)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color.red.withAlphaComponent(0.5))
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        context.setBlendMode(.copy)
        context.fill(CGRect(x: 4.5, y: 0, width: 3, height: 4))  // fractional: goes through a mask
        context.setBlendMode(.clear)
        context.fill(CGRect(x: 8, y: 0, width: 4, height: 4))
        #expect(bitmap.pixel(x: 1, y: 1) == 0xFF80_007F)
        #expect(bitmap.pixel(x: 5, y: 1) == 0x8080_0000)
        let edge = bitmap.pixel(x: 4, y: 1)  // half copy, half blue
        #expect(abs(Int(edge & 0xFF) - 128) <= 2 && abs(Int(edge >> 16 & 0xFF) - 64) <= 2)
        #expect(bitmap.pixel(x: 9, y: 1) == 0)
        #expect(bitmap.pixel(x: 3, y: 1) == 0xFF80_007F)  // left of the copy: untouched
    }

    @Test("a 2× scale fills twice as many pixels per user unit")
    func scaleFactor() throws {
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.scaleBy(x: 2, y: 2)
        context.fill(CGRect(x: 1, y: 1, width: 2, height: 2))
        #expect(bitmap.pixel(x: 2, y: 2) == 0xFF00_0000 && bitmap.pixel(x: 5, y: 5) == 0xFF00_0000)
        #expect(bitmap.pixel(x: 1, y: 1) == 0 && bitmap.pixel(x: 6, y: 6) == 0)
    }
}
