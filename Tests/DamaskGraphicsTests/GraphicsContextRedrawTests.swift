import Foundation
import Testing

@testable import DamaskGraphics

/// A context's redraw (``GraphicsContext/beginRedraw(clearing:)``): the clear before the
/// drawing is deferred and skipped when the first drawing covers the redraw opaquely, and
/// the context knows when the redrawn pixels are certainly opaque. Whatever is drawn, the
/// pixels must be exactly those of a clear followed by the same drawing.
@Suite("GraphicsContext redraw: deferred clear and known opacity", .timeLimit(.minutes(5)))
struct GraphicsContextRedrawTests {
    /// A drawing to replay, and whether its redraw is expected to be known opaque.
    struct Drawing: CustomTestStringConvertible, Sendable {
        let name: String
        let knownOpaque: Bool
        let draw: @Sendable (GraphicsContext) -> Void
        var testDescription: String { name }
    }

    /// The redrawn rect (user space, under a ×2 scale and a translation: whole pixels).
    static let rect = CGRect(x: 3, y: 2, width: 10, height: 7)
    static let red = Color(red: 1, green: 0, blue: 0)
    static let translucentBlue = Color(red: 0, green: 0, blue: 1, alpha: 0.5)

    static let drawings: [Drawing] = [
        Drawing(name: "an opaque fill of the rect", knownOpaque: true) { $0.setFillColor(red); $0.fill(rect) },
        Drawing(name: "an opaque fill of more than the rect", knownOpaque: true) {
            $0.setFillColor(red)
            $0.fill(rect.insetBy(dx: -4, dy: -3))
        },
        Drawing(name: "an opaque fill, then translucent drawing over it", knownOpaque: true) {
            $0.setFillColor(red)
            $0.fill(rect)
            $0.setFillColor(translucentBlue)
            $0.fillEllipse(in: rect.insetBy(dx: 1, dy: 1))
            $0.setStrokeColor(translucentBlue)
            $0.stroke(rect.insetBy(dx: 2, dy: 2))
        },
        Drawing(name: "an opaque fill in copy mode", knownOpaque: true) {
            $0.setBlendMode(.copy)
            $0.setFillColor(red)
            $0.fill(rect)
        },
        Drawing(name: "an opaque fill, then a clear of a part", knownOpaque: false) {
            $0.setFillColor(red)
            $0.fill(rect)
            $0.clear(CGRect(x: 5, y: 4, width: 2, height: 2))
        },
        Drawing(name: "an opaque fill, then a translucent copy", knownOpaque: false) {
            $0.setFillColor(red)
            $0.fill(rect)
            $0.setBlendMode(.copy)
            $0.setFillColor(translucentBlue)
            $0.fill(CGRect(x: 4, y: 3, width: 3, height: 3))
        },
        Drawing(name: "a translucent fill of the rect", knownOpaque: false) {
            $0.setFillColor(translucentBlue)
            $0.fill(rect)
        },
        Drawing(name: "an opaque fill of part of the rect", knownOpaque: false) {
            $0.setFillColor(red)
            $0.fill(CGRect(x: 3, y: 2, width: 10, height: 6))
        },
        Drawing(name: "an opaque fill with fractional edges", knownOpaque: false) {
            $0.setFillColor(red)
            $0.fill(rect.insetBy(dx: 0.25, dy: 0.25))
        },
        Drawing(name: "an opaque fill under a global alpha", knownOpaque: false) {
            $0.setAlpha(0.5)
            $0.setFillColor(red)
            $0.fill(rect)
        },
        Drawing(name: "an opaque fill inside an elliptical clip", knownOpaque: false) {
            $0.clip(to: Path(ellipseIn: rect))
            $0.setFillColor(red)
            $0.fill(rect)
        },
        Drawing(name: "a path filled first, then an opaque fill of the rect", knownOpaque: true) {
            $0.setFillColor(translucentBlue)
            $0.fill(Path(ellipseIn: rect))
            $0.setFillColor(red)
            $0.fill(rect)
        },
        Drawing(name: "a gradient over the clip", knownOpaque: false) {
            $0.drawLinearGradient(
                colors: [red, translucentBlue], locations: nil, start: CGPoint(x: 3, y: 2), end: CGPoint(x: 13, y: 9),
                options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        },
        Drawing(name: "nothing at all", knownOpaque: false) { _ in },
    ]

    /// A 40×30 bitmap of opaque green with a translucent stripe: what a redraw paints over.
    private func oldContents() throws -> Bitmap {
        let bitmap = try Bitmap(width: 40, height: 30)
        bitmap.fill(Color(red: 0, green: 1, blue: 0))
        for x in 0..<40 { bitmap.setPixel(x: x, y: 8, to: 0x4000_2000) }
        return bitmap
    }

    /// A context over `bitmap` as a layer's backing store sets one up: ×2, translated,
    /// clipped to the redrawn rect.
    private func storeContext(_ bitmap: Bitmap) -> GraphicsContext {
        let context = GraphicsContext(bitmap: bitmap)
        context.scaleBy(x: 2, y: 2)
        context.translateBy(x: -1, y: -1)
        context.clip(to: Self.rect)
        return context
    }

    @Test("A redraw leaves exactly the pixels of a clear followed by the same drawing", arguments: drawings)
    func deferredClearMatchesAClearFirst(drawing: Drawing) throws {
        let redrawn = try oldContents()
        let context = storeContext(redrawn)
        #expect(context.beginRedraw(clearing: true))
        drawing.draw(context)
        let knownOpaque = context.endRedraw()

        let reference = try oldContents()
        let eager = storeContext(reference)
        eager.clear(Self.rect)
        drawing.draw(eager)

        var differences: [String] = []
        for y in 0..<30 {
            for x in 0..<40 where redrawn.pixel(x: x, y: y) != reference.pixel(x: x, y: y) {
                differences.append("(\(x), \(y)): \(String(redrawn.pixel(x: x, y: y), radix: 16))")
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(4))")
        #expect(knownOpaque == drawing.knownOpaque)
        let pixels = CGRect(x: 4, y: 2, width: 20, height: 14)  // the rect in device pixels
        if knownOpaque { #expect(redrawn.isOpaque(in: pixels)) }
    }

    @Test("A redraw that starts with a covering opaque fill never clears; any other start clears first")
    func onlyACoveringOpaqueFillSkipsTheClear() throws {
        let covered = storeContext(try oldContents())
        #expect(covered.beginRedraw(clearing: true))
        covered.setFillColor(Self.red)
        covered.fill(Self.rect)
        #expect(covered.redraw?.owesClear == false)
        #expect(covered.endRedraw())

        let bitmap = try oldContents()
        let translucent = storeContext(bitmap)
        #expect(translucent.beginRedraw(clearing: true))
        #expect(translucent.redraw?.owesClear == true)
        translucent.setFillColor(Self.translucentBlue)
        translucent.fill(CGRect(x: 3, y: 2, width: 1, height: 1))
        #expect(translucent.redraw?.owesClear == false)
        // Cleared when the first fill came: the rest of the rect is transparent, not green.
        #expect(bitmap.pixel(x: 20, y: 10) == 0)
        #expect(!translucent.endRedraw())
    }

    @Test("Handing out the bitmap during a redraw pays the deferred clear and forgets what is known")
    func handingOutTheBitmapSettlesTheRedraw() throws {
        let bitmap = try oldContents()
        let context = storeContext(bitmap)
        #expect(context.beginRedraw(clearing: true))
        let handedOut = context.bitmap
        #expect(handedOut === bitmap)
        #expect(bitmap.pixel(x: 10, y: 5) == 0, "cleared before anyone reads or writes it")
        #expect(bitmap.pixel(x: 2, y: 2) != 0, "outside the redraw: untouched")
        context.setFillColor(Self.red)
        context.fill(Self.rect)
        // An opaque covering fill after the hand-off still makes the pixels opaque.
        #expect(context.endRedraw())

        let other = storeContext(try oldContents())
        #expect(other.beginRedraw(clearing: false))
        other.setFillColor(Self.red)
        other.fill(Self.rect)
        _ = other.bitmap  // someone may write anything now
        #expect(!other.endRedraw())
    }

    @Test("A redraw without a clear keeps the old pixels under translucent drawing")
    func aRedrawWithoutClearingBlends() throws {
        let bitmap = try oldContents()
        let context = storeContext(bitmap)
        #expect(context.beginRedraw(clearing: false))
        context.setFillColor(Self.translucentBlue)
        context.fill(Self.rect)
        #expect(!context.endRedraw())
        let pixel = bitmap.color(x: 10, y: 5)
        #expect(pixel.green > 0.4 && pixel.blue > 0.4 && pixel.alpha > 0.99, "blue blended over the green: \(pixel)")
    }

    @Test("A redraw of separate rects clears each of them and nothing between, unless one fill covers them all")
    func separateRectsAreClearedOrCoveredTogether() throws {
        let pieces = [CGRect(x: 3, y: 2, width: 4, height: 3), CGRect(x: 9, y: 6, width: 4, height: 3)]
        func context(over bitmap: Bitmap) -> GraphicsContext {
            let context = GraphicsContext(bitmap: bitmap)
            context.scaleBy(x: 2, y: 2)
            context.translateBy(x: -1, y: -1)
            context.clip(to: pieces)
            return context
        }
        let covered = try oldContents()
        let opaque = context(over: covered)
        #expect(opaque.beginRedraw(clearing: true))
        opaque.setFillColor(Self.red)
        opaque.fill(Self.rect)  // the bounding box of both
        #expect(opaque.endRedraw())
        #expect(covered.pixel(x: 6, y: 4) == 0xFFFF_0000 && covered.pixel(x: 20, y: 12) == 0xFFFF_0000)
        #expect(covered.pixel(x: 14, y: 4) == 0xFF00_FF00, "between the pieces: the old green")

        let partly = try oldContents()
        let translucent = context(over: partly)
        #expect(translucent.beginRedraw(clearing: true))
        translucent.setFillColor(Self.red)
        translucent.fill(pieces[0])  // opaque, but only one of the two
        #expect(!translucent.endRedraw())
        #expect(partly.pixel(x: 6, y: 4) == 0xFFFF_0000)
        #expect(partly.pixel(x: 20, y: 12) == 0, "the other piece was cleared")
        #expect(partly.pixel(x: 14, y: 4) == 0xFF00_FF00, "between the pieces: the old green")
    }

    @Test("A clip that is not whole device pixels, or is empty, is not redrawn this way")
    func maskedOrEmptyClipsAreRefused() throws {
        let fractional = GraphicsContext(bitmap: try oldContents())
        fractional.clip(to: CGRect(x: 3.25, y: 2, width: 10, height: 7))
        #expect(!fractional.beginRedraw(clearing: true))
        #expect(fractional.redraw == nil)
        let empty = GraphicsContext(bitmap: try oldContents())
        empty.clip(to: CGRect(x: 100, y: 100, width: 5, height: 5))
        #expect(!empty.beginRedraw(clearing: true))
        #expect(!empty.endRedraw(), "no redraw was begun")
    }
}
