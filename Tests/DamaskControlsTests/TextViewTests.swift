import DamaskControls
import Foundation
import Testing

extension ControlsTests {
    @Suite("TextView", .timeLimit(.minutes(5))) @MainActor struct TextViewTests {
        private static let hundredLines = (0..<100).map { "Line \($0): the quick brown fox" }.joined(separator: "\n")

        private func makeTextView(in harness: ControlsHarness, text: String = hundredLines) -> TextView {
            let textView = TextView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
            textView.text = text
            harness.root.addSubview(textView)
            harness.present()
            return textView
        }

        @Test("a scroll moves the drawn lines and draws only the uncovered strip, pixel for pixel as a full drawing")
        func scrollMovesRetainedPixels() throws {
            let harness = ControlsHarness(width: 200, height: 100)
            let textView = makeTextView(in: harness)
            let draws = harness.window.drawCount
            let moves = harness.window.contentsMoveCount
            harness.wheel(120, at: CGPoint(x: 50, y: 50))
            harness.present()
            #expect(textView.contentOffset.y == 40)
            #expect(harness.window.contentsMoveCount == moves + 1)
            #expect(harness.window.drawCount == draws + 1, "only the strip is drawn")
            #expect(harness.lastDamage.boundingBox == CGRect(x: 0, y: 0, width: 200, height: 100))
            let scrolled = try #require(harness.surface.presentedBitmap).copy()

            // The same text drawn from scratch at that offset.
            let fresh = ControlsHarness(width: 200, height: 100)
            let other = makeTextView(in: fresh)
            other.contentOffset = CGPoint(x: 0, y: 40)
            other.layer.sublayers.forEach { $0.setNeedsDisplay() }
            fresh.present()
            let expected = try #require(fresh.surface.presentedBitmap)
            #expect(Bitmap.difference(scrolled, expected, tolerance: 0).differingPixelCount == 0)
        }

        @Test("typing, Return, Backspace and arrows edit across lines")
        func typingAndArrows() {
            let harness = ControlsHarness(width: 200, height: 100)
            let textView = makeTextView(in: harness, text: "ab\ncd")
            #expect(textView.becomeFirstResponder())
            textView.select(2..<2)  // end of "ab"
            harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0x78, text: "x")))
            #expect(textView.text == "abx\ncd")
            harness.press(0xff0d)  // Return
            #expect(textView.text == "abx\n\ncd")
            #expect(textView.lineStarts == [0, 4, 5])
            harness.press(0xff54)  // Down: to "cd", column 0
            #expect(textView.selectedRange == 5..<5)
            harness.press(0xff53)  // Right
            harness.press(0xff08)  // Backspace deletes "c"
            #expect(textView.text == "abx\n\nd")
            harness.press(0xff52)  // Up to the empty line
            harness.press(0xff52)  // Up to the first line
            #expect(textView.line(containing: textView.selectedRange.lowerBound) == 0)
        }

        @Test("Shift with arrows and a drag select across lines")
        func selectionAcrossLines() {
            let harness = ControlsHarness(width: 200, height: 100)
            let textView = makeTextView(in: harness, text: "first line\nsecond line\nthird")
            #expect(textView.becomeFirstResponder())
            textView.select(3..<3)
            harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0xff54, modifiers: [.shift])))
            harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0xff57, modifiers: [.shift])))
            #expect(textView.selectedRange == 3..<22, "from column 3 of line 0 to the end of line 1")
            // A drag from the start of line 0 to the middle of line 2.
            let start = textView.caretRect(for: 0)
            let end = textView.caretRect(for: 25)
            harness.window.dispatch(.pointer(PointerEvent(kind: .down, location: CGPoint(x: start.minX, y: start.midY), button: .left, clickCount: 1)))
            harness.window.dispatch(.pointer(PointerEvent(kind: .moved, location: CGPoint(x: end.minX, y: end.midY))))
            harness.window.dispatch(.pointer(PointerEvent(kind: .up, location: CGPoint(x: end.minX, y: end.midY), button: .left)))
            #expect(textView.selectedRange == 0..<25)
            harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0x61, text: "Z")))
            #expect(textView.text == "Zird", "\"first line\\nsecond line\\nth\" replaced")
        }

        @Test("the caret is kept visible: End of text scrolls to the last line")
        func caretStaysVisible() {
            let harness = ControlsHarness(width: 200, height: 100)
            let textView = makeTextView(in: harness)
            #expect(textView.becomeFirstResponder())
            harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0xff57, modifiers: [.control])))
            #expect(textView.contentOffset.y == textView.maximumContentOffset.y)
            let caret = textView.caretRect(for: textView.selectedRange.lowerBound)
            #expect(textView.bounds.contains(caret))
        }
    }
}
