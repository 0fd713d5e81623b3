import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation
import Testing

extension ControlsTests {
    /// The caret where a line wraps inside a word, and what a demanding user expects of a
    /// multi-line editor's keys: a goal column, pages, words, paragraphs, redo, clicks.
    @Suite("TextView: the caret on wrapped lines, pages, words, paragraphs, redo", .timeLimit(.minutes(5)))
    @MainActor struct TextViewLineEndTests {
        /// Eighty characters without a space: wraps inside the word, at the width.
        private static let longWord = String(repeating: "0123456789", count: 8)

        private func makeTextView(in harness: ControlHarness, text: String, width: CGFloat = 200, height: CGFloat = 100) async -> TextView {
            let textView = TextView(frame: CGRect(x: 0, y: 0, width: width, height: height))
            textView.text = text
            harness.root.addSubview(textView)
            await harness.settle()
            #expect(textView.becomeFirstResponder())
            return textView
        }

        @Test("End on a line wrapped inside a word puts the caret after its last character, shown at that line's end; typed text lands there")
        func endOfAWordWrappedLine() async throws {
            let harness = ControlHarness(width: 200, height: 100)
            let textView = await makeTextView(in: harness, text: Self.longWord)
            try #require(textView.lineStarts.count >= 3, "the word wraps: \(textView.lineStarts)")
            let firstEnd = textView.lineStarts[1]
            let lineOneRight = textView.insertionPointRect  // at 0 now
            textView.select(0..<0)
            harness.key(0xff57)  // End
            #expect(textView.selectedRange == firstEnd..<firstEnd, "after the line's last character")
            #expect(textView.caretLine == 0, "shown on the line End was pressed on")
            let caret = textView.insertionPointRect
            #expect(caret.minY == textView.rectForLine(0).minY)
            #expect(caret.minX > lineOneRight.minX + 100, "at the line's right end: \(caret)")
            #expect(textView.caretRect(for: firstEnd).minY == textView.rectForLine(1).minY, "the same offset otherwise starts line 1")
            // The caret is drawn there: line 0's right end has the caret's colour.
            await harness.step()
            let screen = try harness.screen()
            #expect(screen.color(x: Int(caret.minX), y: Int(caret.midY)).isClose(to: textView.effectiveTextColor), "the caret at \(caret.minX)")
            harness.type("X")
            let characters = Array(textView.text)
            #expect(characters[firstEnd] == "X", "typed right after the line's last character")
            #expect(String(characters[..<firstEnd]) == String(Self.longWord.prefix(firstEnd)), "nothing before it moved")
            #expect(textView.selectedRange == (firstEnd + 1)..<(firstEnd + 1))
            // Home from the line end goes to the start of that line, not of the next.
            textView.select(0..<0)
            harness.key(0xff57)
            harness.key(0xff50)  // Home
            #expect(textView.selectedRange == 0..<0)
        }

        @Test("Up and Down keep the visual line and the caret's x across wrapped lines, through a shorter line and past it")
        func upAndDownAcrossWrappedLines() async throws {
            let harness = ControlHarness(width: 200, height: 200)
            let textView = await makeTextView(in: harness, text: Self.longWord + "\nab\n" + Self.longWord, height: 200)
            let starts = textView.lineStarts
            try #require(starts.count >= 7, "\(starts)")
            // End of line 1 (a line wrapped inside the word), then Up: the end of line 0.
            textView.select(starts[1]..<starts[1])
            harness.key(0xff57)
            #expect(textView.caretLine == 1)
            #expect(textView.selectedRange.lowerBound == starts[2])
            harness.key(0xff52)  // Up
            #expect(textView.caretLine == 0, "the visual line above, not the start of line 1")
            #expect(textView.selectedRange.lowerBound == starts[1])
            harness.key(0xff54)  // Down
            #expect(textView.caretLine == 1)
            #expect(textView.selectedRange.lowerBound == starts[2])
            // From column 10 of line 0, Down three times: line 1, then "ab" (its end), then the
            // next paragraph's line 0 at column 10 again (the goal x was kept).
            textView.select(10..<10)
            let x = textView.insertionPointRect.minX
            harness.key(0xff54)
            #expect(textView.caretLine == 1)
            #expect(abs(textView.insertionPointRect.minX - x) <= 2)
            let abLine = textView.line(containing: Self.longWord.count + 1)
            for _ in 0..<10 where textView.caretLine < abLine { harness.key(0xff54) }
            #expect(textView.caretLine == abLine, "on \"ab\"")
            #expect(textView.selectedRange.lowerBound == Self.longWord.count + 3, "at its end")
            harness.key(0xff54)
            #expect(textView.caretLine == abLine + 1)
            #expect(abs(textView.insertionPointRect.minX - x) <= 2, "the goal x again: \(textView.insertionPointRect.minX) vs \(x)")
            // Shift+Up extends across lines from there.
            let caret = textView.selectedRange.lowerBound
            harness.key(0xff52, modifiers: .shift)
            harness.key(0xff52, modifiers: .shift)
            #expect(textView.selectedRange.upperBound == caret)
            #expect(textView.line(containing: textView.selectedRange.lowerBound) == abLine - 1)
        }

        @Test("a click past the end of a line wrapped inside a word puts the caret at that line's end")
        func clickAtTheEndOfAWrappedLine() async throws {
            let harness = ControlHarness(width: 200, height: 100)
            let textView = await makeTextView(in: harness, text: Self.longWord)
            let line = textView.rectForLine(0)
            harness.click(at: CGPoint(x: textView.bounds.maxX - 3, y: line.midY))
            #expect(textView.selectedRange == textView.lineStarts[1]..<textView.lineStarts[1])
            #expect(textView.caretLine == 0)
            harness.click(at: CGPoint(x: 2, y: textView.rectForLine(1).midY))
            #expect(textView.caretLine == 1, "a click at the next line's start is there")
            #expect(textView.selectedRange == textView.lineStarts[1]..<textView.lineStarts[1])
        }

        @Test("Page Down and Page Up move the caret and the view by a page, the caret keeping its place on screen")
        func pages() async throws {
            let harness = ControlHarness(width: 200, height: 100)
            let text = (0..<60).map { "Line \($0)" }.joined(separator: "\n")
            let textView = await makeTextView(in: harness, text: text)
            textView.select(0..<0)
            let page = Int(textView.bounds.height / textView.lineHeight) - 1
            harness.key(0xff54)  // Down: line 1
            let onScreen = textView.insertionPointRect.minY - textView.contentOffset.y
            harness.key(0xff56)  // Page Down
            #expect(textView.caretLine == 1 + page)
            #expect(textView.contentOffset.y == CGFloat(page) * textView.lineHeight, "the view scrolled a page")
            #expect(textView.insertionPointRect.minY - textView.contentOffset.y == onScreen, "the caret kept its place")
            harness.key(0xff56, modifiers: .shift)
            #expect(textView.selectedRange.lowerBound == textView.lineStarts[1 + page])
            #expect(textView.caretLine == 1 + 2 * page)
            harness.key(0xff55)  // Page Up collapses and goes back
            harness.key(0xff55)
            #expect(textView.caretLine == 1)
            #expect(textView.contentOffset.y == 0)
            harness.key(0xff57, modifiers: .control)  // Ctrl+End
            #expect(textView.selectedRange.lowerBound == text.count)
            #expect(textView.contentOffset.y == textView.maximumContentOffset.y)
            harness.key(0xff50, modifiers: .control)  // Ctrl+Home
            #expect(textView.selectedRange == 0..<0)
            #expect(textView.contentOffset.y == 0)
        }

        @Test("Ctrl+arrows move by word across line breaks, Ctrl+Backspace/Delete delete words, Ctrl+Up/Down go by paragraph")
        func wordsAndParagraphs() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let textView = await makeTextView(in: harness, text: "alpha beta\ngamma delta", width: 300)
            textView.select(0..<0)
            harness.key(0xff53, modifiers: .control)
            #expect(textView.selectedRange == 5..<5, "after alpha")
            harness.key(0xff53, modifiers: .control)
            harness.key(0xff53, modifiers: .control)
            #expect(textView.selectedRange == 16..<16, "after gamma, past the line break")
            harness.key(0xff51, modifiers: .control)
            #expect(textView.selectedRange == 11..<11, "before gamma")
            harness.key(0xff51, modifiers: [.control, .shift])
            #expect(textView.selectedRange == 6..<11, "Shift extends by a word: \"beta\\n\"")
            textView.select(16..<16)
            harness.key(0xff08, modifiers: .control)  // Ctrl+BackSpace
            #expect(textView.text == "alpha beta\n delta")
            harness.key(0xffff, modifiers: .control)  // Ctrl+Delete
            #expect(textView.text == "alpha beta\n")
            harness.key(0x7a, modifiers: .control)  // Ctrl+Z
            harness.key(0x7a, modifiers: .control)
            #expect(textView.text == "alpha beta\ngamma delta")
            textView.select(13..<13)
            harness.key(0xff52, modifiers: .control)  // Ctrl+Up: this paragraph's start
            #expect(textView.selectedRange == 11..<11)
            harness.key(0xff52, modifiers: .control)  // the one before's
            #expect(textView.selectedRange == 0..<0)
            harness.key(0xff54, modifiers: .control)  // Ctrl+Down: the paragraph's end
            #expect(textView.selectedRange == 10..<10)
            harness.key(0xff54, modifiers: [.control, .shift])
            #expect(textView.selectedRange == 10..<22, "Shift extends to the next paragraph's end")
            // On a right-to-left line Ctrl+← goes on in reading order (to the left on screen).
            textView.text = "שלום עולם\nabc"
            textView.select(0..<0)
            harness.key(0xff51, modifiers: .control)
            #expect(textView.selectedRange == 4..<4, "the end of the first Hebrew word")
            textView.select(11..<11)
            harness.key(0xff51, modifiers: .control)
            #expect(textView.selectedRange == 10..<10, "a left-to-right line goes back")
        }

        @Test("Ctrl+Z undoes typing a run at a time; Ctrl+Shift+Z and Ctrl+Y redo; shortcuts match by the key's Latin letter")
        func undoAndRedo() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let textView = await makeTextView(in: harness, text: "one", width: 300)
            textView.select(3..<3)
            harness.type(" two")
            harness.key(0xff0d)
            harness.type("three")
            #expect(textView.text == "one two\nthree")
            harness.key(0x7a, modifiers: .control)
            #expect(textView.text == "one two\n", "the last typed run (a line break is a step of its own)")
            harness.key(0x5a, modifiers: [.control, .shift])  // Ctrl+Shift+Z: the keysym is "Z"
            #expect(textView.text == "one two\nthree")
            harness.key(0x7a, modifiers: .control)
            harness.key(0x79, modifiers: .control)  // Ctrl+Y
            #expect(textView.text == "one two\nthree")
            // Ctrl+A on a Russian layout: the key's keysym is Cyrillic "ф", its Latin letter "a".
            harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0x6c6, text: "ф", modifiers: .control, shortcutKeysym: 0x61)))
            #expect(textView.selectedRange == 0..<textView.text.count)
            #expect(textView.text == "one two\nthree", "no ф typed")
            textView.isEditable = false
            harness.key(0x7a, modifiers: .control)
            #expect(textView.text == "one two\nthree", "a read-only view does not undo")
        }

        @Test("a double click selects a word, a triple click the paragraph with its line break; Shift+Delete cuts it")
        func multipleClicks() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let textView = await makeTextView(in: harness, text: "alpha beta\ngamma delta", width: 300)
            let beta = textView.caretRect(for: 7)
            let point = CGPoint(x: beta.minX, y: beta.midY)
            harness.window.dispatch(.pointer(PointerEvent(kind: .down, location: point, button: .left, clickCount: 2)))
            harness.window.dispatch(.pointer(PointerEvent(kind: .up, location: point, button: .left, clickCount: 2)))
            #expect(textView.selectedRange == 6..<10)
            harness.window.dispatch(.pointer(PointerEvent(kind: .down, location: point, button: .left, clickCount: 3)))
            harness.window.dispatch(.pointer(PointerEvent(kind: .up, location: point, button: .left, clickCount: 3)))
            #expect(textView.selectedRange == 0..<11)
            #expect(MemoryPasteboard.shared(.primarySelection).string == "alpha beta\n", "offered as the primary selection")
            harness.key(0xffff, modifiers: .shift)  // Shift+Delete cuts the selection
            #expect(textView.text == "gamma delta")
            #expect(MemoryPasteboard.shared(.clipboard).string == "alpha beta\n")
            harness.key(0xffff, modifiers: .shift)  // with nothing selected it deletes forward
            #expect(textView.text == "amma delta")
        }

        @Test("the caret stays in view when the view narrows and its lines wrap anew")
        func caretVisibleAfterRewrap() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let text = (0..<8).map { "Paragraph \($0) has a few words in it" }.joined(separator: "\n")
            let textView = await makeTextView(in: harness, text: text, width: 300)
            harness.key(0xff57, modifiers: .control)
            #expect(textView.bounds.contains(textView.insertionPointRect))
            textView.frame.size.width = 120
            await harness.step()
            #expect(textView.lineStarts.count > 8, "wrapped anew")
            #expect(textView.bounds.insetBy(dx: 0, dy: -1).contains(textView.insertionPointRect), "\(textView.insertionPointRect) in \(textView.bounds)")
        }
    }
}
