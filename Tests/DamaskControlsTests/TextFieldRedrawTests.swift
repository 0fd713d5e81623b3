import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    /// A field redraws only what an edit changed (the chunks of its line laid out exactly as
    /// before are not even compared): the pixels must be those of a full redraw.
    @Suite("TextField redraws", .timeLimit(.minutes(5))) @MainActor struct TextFieldRedrawTests {
        /// Every pixel of the presented screen.
        private func pixels(_ harness: ControlHarness) throws -> [UInt32] {
            let screen = try harness.screen()
            return (0..<screen.height).flatMap { y in (0..<screen.width).map { x in screen.pixel(x: x, y: y) } }
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
    }
}
