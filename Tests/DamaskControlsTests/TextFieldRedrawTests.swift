import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

/// A field that records the rects it is asked to draw.
private final class RecordingTextField: TextField {
    private(set) var drawnRects: [CGRect] = []

    override func draw(_ rect: CGRect) {
        drawnRects.append(rect)
        super.draw(rect)
    }
}

extension ControlsTests {
    /// A field redraws only what an edit changed (the chunks of its line laid out exactly as
    /// before are not even compared): the pixels must be those of a full redraw.
    @Suite("TextField redraws", .timeLimit(.minutes(5))) @MainActor struct TextFieldRedrawTests {
        /// Every pixel of the presented screen.
        private func pixels(_ harness: ControlHarness) throws -> [UInt32] {
            pixels(of: try harness.screen())
        }

        /// Every pixel of `bitmap`, row by row.
        private func pixels(of bitmap: Bitmap) -> [UInt32] {
            (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap.pixel(x: x, y: y) } }
        }

        @Test("edits in a line of several chunks leave the pixels of a full redraw: typing at the end and inside, word deletion, selections within and across chunks, replacing a selection")
        func incrementalRedrawMatchesFullRedraw() async throws {
            CaretBlinking.isEnabled = false  // a blink between the two screens would differ
            defer { CaretBlinking.isEnabled = true }
            let harness = ControlHarness(width: 420, height: 60)
            harness.root.backgroundColor = .white
            let text = (1...30).map { "word\($0) " }.joined() + "end"
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 400, height: 40), text: text)
            harness.root.addSubview(field)
            await harness.settle()
            #expect(TextLayout(text, font: field.font).chunkCount >= 3, "the line should be laid out in several chunks")
            harness.click(at: CGPoint(x: 400, y: 30))
            harness.key(0xff57)  // End: the line's end in view
            await harness.step()
            let shiftLeft = { harness.key(0xff51, modifiers: .shift) }
            let actions: [(String, () -> Void)] = [
                ("type at the end", { harness.type("abc") }),
                ("type inside the last chunk", { for _ in 0..<6 { harness.key(0xff51) }; harness.type("X") }),
                ("delete a word", { harness.key(0xff08, modifiers: .control) }),
                ("select within a chunk", { for _ in 0..<3 { shiftLeft() } }),
                ("select across chunks", { for _ in 0..<30 { shiftLeft() } }),
                ("shrink the selection", { for _ in 0..<4 { harness.key(0xff53, modifiers: .shift) } }),
                ("replace the selection", { harness.type("Y") }),
                ("backspace at a chunk's start", { for _ in 0..<2 { harness.key(0xff08) } }),
                ("undo", { harness.key(0x7a, text: "z", modifiers: .control) }),
            ]
            for (name, action) in actions {
                action()
                await harness.step()
                await harness.step()
                let incremental = try pixels(harness)
                field.setNeedsDisplay()
                await harness.step()
                await harness.step()
                let full = try pixels(harness)
                let differing = zip(incremental, full).filter { $0 != $1 }.count
                #expect(differing == 0, "\(name): \(differing) pixels differ from a full redraw (text now \"\(field.text)\")")
            }
        }

        @Test("a field scrolled by typing moves its text's pixels and draws about a character, leaving the pixels of a full redraw: typing at the end, deleting back, selecting and moving past the left edge, Home and End", arguments: [1.0, 2.0])
        func scrollingMovesTheTextPixels(scale: CGFloat) async throws {
            CaretBlinking.isEnabled = false  // a blink between the two screens would differ
            defer { CaretBlinking.isEnabled = true }
            let harness = ControlHarness(width: 320, height: 60, scale: scale)
            harness.root.backgroundColor = .white
            let text = (1...40).map { "word\($0) " }.joined()
            let field = RecordingTextField(frame: CGRect(x: 10, y: 10, width: 300, height: 40), text: text)
            harness.root.addSubview(field)
            await harness.settle()
            harness.click(at: CGPoint(x: 300, y: 30))
            harness.key(0xff57)  // End
            await harness.step()
            await harness.step()
            // `typed`: the text moves left by what was typed, and only the strip at the right
            // end (with the carets) is drawn; a deletion at the end moves it right, uncovering
            // a strip at the left end as well.
            let actions: [(name: String, scrolls: Bool, typed: Bool, action: () -> Void)] = [
                ("type a letter at the end", true, true, { harness.type("m") }),
                ("type a wide letter", true, true, { harness.type("W") }),
                ("type a space", true, true, { harness.type(" ") }),
                ("backspace at the end", true, false, { harness.key(0xff08) }),
                ("delete a word back", true, false, { harness.key(0xff08, modifiers: .control) }),
                ("Home", false, false, { harness.key(0xff50) }),
                ("End", false, false, { harness.key(0xff57) }),
                ("select back past the left edge", false, false, { for _ in 0..<40 { harness.key(0xff51, modifiers: .shift) } }),
                ("move left past the left edge, letter by letter", false, false, { for _ in 0..<7 { harness.key(0xff51) } }),
                ("one more letter left at the left edge", true, false, { harness.key(0xff51) }),
                ("and one more", true, false, { harness.key(0xff51) }),
            ]
            for (name, scrolls, typed, action) in actions {
                let scrollsBefore = field.layer.contentsScrollCount, drawsBefore = field.drawnRects.count
                let offsetBefore = field.scrollOffset
                action()
                await harness.step()
                await harness.step()
                if scrolls {
                    #expect(field.scrollOffset != offsetBefore, "\(name): the field should scroll")
                    #expect(field.layer.contentsScrollCount == scrollsBefore + 1, "\(name): the text's pixels should move")
                }
                if typed {
                    let drawn = field.drawnRects.dropFirst(drawsBefore)
                    let widest = drawn.map(\.width).max() ?? 0
                    #expect(!drawn.isEmpty && widest <= 40, "\(name): drew \(Array(drawn)), not just the strip near the caret")
                }
                let incremental = try pixels(harness)
                field.setNeedsDisplay()
                await harness.step()
                await harness.step()
                let full = try pixels(harness)
                let differing = zip(incremental, full).filter { $0 != $1 }.count
                #expect(differing == 0, "\(name) at scale \(scale): \(differing) pixels differ from a full redraw (scrolled \(field.scrollOffset))")
            }
        }

        /// Whether the presented screen equals a fresh composite of the whole window (the
        /// layers' backgrounds, then their contents, blended).
        private func screenIsTheFullComposite(_ harness: ControlHarness) throws -> Bool {
            try pixels(harness) == pixels(of: harness.window.renderImage())
        }

        @Test("a field with an opaque, square background paints it under its text: a typed key, with or without a scroll, reaches the buffer as a copy of its pixels (no compositing plan), and the screen is the full composite", arguments: [1.0, 2.0])
        func typingIsCopiedFromTheFieldsOpaquePixels(scale: CGFloat) async throws {
            CaretBlinking.isEnabled = false
            defer { CaretBlinking.isEnabled = true }
            let harness = ControlHarness(width: 320, height: 60, scale: scale)
            harness.root.backgroundColor = .black
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 300, height: 40))
            harness.root.addSubview(field)
            await harness.settle()
            harness.click(at: CGPoint(x: 150, y: 30))
            await harness.step()
            await harness.step()
            let actions: [(name: String, action: () -> Void)] = [
                ("a letter in an empty field", { harness.type("a") }),
                ("a few letters", { harness.type("bcd ") }),
                ("letters past the right edge", { harness.type((1...12).map { "word\($0) " }.joined()) }),
                ("one more letter, scrolling", { harness.type("z") }),
                ("backspace, scrolling back", { harness.key(0xff08) }),
            ]
            for (name, action) in actions {
                let copiedBefore = harness.window.statistics.copiedRepaintCount
                action()
                await harness.step()
                await harness.step()
                #expect(harness.window.statistics.copiedRepaintCount > copiedBefore, "\(name) at scale \(scale): the repaint should be a copy")
                #expect(try screenIsTheFullComposite(harness), "\(name) at scale \(scale)")
            }
            #expect(field.scrollOffset > 0, "the typing should have scrolled the field")
        }

        @Test("a field leaves a translucent background, or rounded corners, to the compositor: what is behind shows through, and the screen is the full composite")
        func translucentOrRoundedBackgroundIsComposited() async throws {
            CaretBlinking.isEnabled = false
            defer { CaretBlinking.isEnabled = true }
            let harness = ControlHarness(width: 320, height: 60)
            harness.root.backgroundColor = .black
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 300, height: 40), text: "translucent")
            harness.root.addSubview(field)  // takes the panel colour
            field.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
            await harness.settle()
            harness.click(at: CGPoint(x: 250, y: 30))
            harness.type("!")
            await harness.step()
            await harness.step()
            #expect(try screenIsTheFullComposite(harness))
            let screen = try harness.screen()
            let half = Color(red: 0.5, green: 0.5, blue: 0.5).premultipliedARGB32
            // Inside the field, right of the text: half white over black.
            let inside = screen.pixel(x: 280, y: 30)
            #expect(abs(Int(inside & 0xff) - Int(half & 0xff)) <= 1, "inside the field: \(String(inside, radix: 16))")

            field.backgroundColor = .white
            field.layer.cornerRadius = 12
            harness.type("?")
            await harness.step()
            await harness.step()
            #expect(try screenIsTheFullComposite(harness))
            // Inside the focused border (2 points), outside the rounded corner.
            #expect(try harness.screen().pixel(x: 12, y: 12) == Color.black.premultipliedARGB32, "the rounded corner shows the black behind")
            #expect(try harness.screen().pixel(x: 280, y: 30) == Color.white.premultipliedARGB32)
        }

        @Test("a new background colour redraws the field in it")
        func newBackgroundColorRedraws() async throws {
            CaretBlinking.isEnabled = false
            defer { CaretBlinking.isEnabled = true }
            let harness = ControlHarness(width: 320, height: 60)
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 300, height: 40), text: "colour")
            harness.root.addSubview(field)
            await harness.settle()
            field.backgroundColor = .yellow
            await harness.step()
            await harness.step()
            #expect(try harness.screen().pixel(x: 280, y: 30) == Color.yellow.premultipliedARGB32)
            #expect(try screenIsTheFullComposite(harness))
        }
    }
}
