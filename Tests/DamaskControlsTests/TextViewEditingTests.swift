import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation
import Testing

extension ControlsTests {
    /// What a user expects of a multi-line editor beyond typing: wrapping, a blinking caret,
    /// the clipboard and input methods.
    @Suite("TextView: wrapping, caret blink, clipboard, input methods", .timeLimit(.minutes(5))) @MainActor struct TextViewEditingTests {
        private static let paragraph = "The quick brown fox jumps over the lazy dog, and then it runs far away into the woods."

        private func makeTextView(in harness: ControlHarness, text: String, width: CGFloat = 200) async -> TextView {
            let textView = TextView(frame: CGRect(x: 0, y: 0, width: width, height: 100))
            textView.text = text
            harness.root.addSubview(textView)
            await harness.settle()
            return textView
        }

        @Test("a long paragraph wraps at break opportunities into lines that fit, losing no character; a narrower view wraps anew")
        func wrapsToTheWidth() async {
            let harness = ControlHarness(width: 200, height: 100)
            let text = Self.paragraph + "\nshort\n" + String(repeating: "x", count: 60)
            let textView = await makeTextView(in: harness, text: text)
            let wrapWidth = textView.bounds.width - 2 * textView.textInset - 1
            let lines = textView.lineStarts.indices.map { index -> String in
                let end = index + 1 < textView.lineStarts.count ? textView.lineStarts[index + 1] : text.count
                return String(Array(text)[textView.lineStarts[index]..<end])
            }
            #expect(lines.count > 5, "the paragraph and the run of x's wrap: \(lines)")
            #expect(lines.joined() == text, "every character is on exactly one line")
            for line in lines {
                let ink = String(line.reversed().drop { $0.isWhitespace }.reversed())
                #expect(textView.font.measure(ink).width <= wrapWidth, "\"\(line)\" fits \(wrapWidth)")
            }
            // Words are whole: a wrapped line of the paragraph ends after a space.
            let paragraphLines = lines.prefix { !$0.hasSuffix("\n") }
            for line in paragraphLines.dropLast() { #expect(line.hasSuffix(" "), "\"\(line)\" ends at a break opportunity") }
            #expect(lines.contains("short\n"))
            #expect(textView.contentSize.width == textView.bounds.width, "nothing scrolls sideways")
            let count = textView.lineStarts.count
            textView.frame.size.width = 140
            await harness.step()
            #expect(textView.lineStarts.count > count, "narrower: more lines")
            let narrowCount = textView.lineStarts.count
            textView.font = .system(size: 20)
            #expect(textView.lineStarts.count > narrowCount, "a larger font wraps into more lines")
            textView.wrapsLines = false
            #expect(textView.lineStarts.count == 3, "unwrapped: one line per paragraph")
            #expect(textView.contentSize.width > 140)
        }

        @Test("Down on a wrapped paragraph goes to the next visual line; End stops before the wrapped line's space")
        func caretOnWrappedLines() async {
            let harness = ControlHarness(width: 200, height: 100)
            let textView = await makeTextView(in: harness, text: Self.paragraph)
            #expect(textView.becomeFirstResponder())
            textView.select(0..<0)
            harness.key(0xff54)  // Down
            #expect(textView.selectedRange.lowerBound >= textView.lineStarts[1])
            #expect(textView.selectedRange.lowerBound < textView.lineStarts[2])
            textView.select(0..<0)
            harness.key(0xff57)  // End
            #expect(textView.selectedRange.lowerBound == textView.lineStarts[1] - 1, "before the space the line ends with")
            #expect(textView.line(containing: textView.selectedRange.lowerBound) == 0)
        }

        @Test("the caret blinks every 500 ms like the field's, each blink damaging only the caret; a key shows it again")
        func caretBlinks() async throws {
            let harness = ControlHarness(width: 200, height: 100)
            let textView = await makeTextView(in: harness, text: "one\ntwo")
            textView.select(7..<7)
            let start = harness.surface.clockTimestamp
            #expect(textView.becomeFirstResponder())
            await harness.step()
            await harness.step()
            let caret = textView.convert(textView.caretRect(for: 7), to: nil)
            var time = start
            var commits = harness.commitCount
            while textView.blinkCount == 0, time < start &+ 2000 {
                commits = harness.commitCount
                time &+= 16
                harness.surface.fireFrame(timestamp: time)
                await nextTurn()
            }
            #expect(textView.blinkCount == 1)
            #expect(!textView.isCaretVisible)
            // A frame timer fires on the first frame at most 8 ms before its time (FrameTimer).
            #expect(time &- start >= TextField.blinkInterval - 8, "not before the field's interval")
            #expect(time &- start < TextField.blinkInterval + 50)
            // The hidden caret reaches the screen: its rectangle is the whole damage.
            for _ in 0..<3 where harness.commitCount == commits {
                time &+= 16
                harness.surface.fireFrame(timestamp: time)
                await nextTurn()
            }
            #expect(harness.commitCount == commits + 1, "one commit for the blink")
            #expect(harness.lastDamage.boundingBox == caret, "\(harness.lastDamage.boundingBox) vs caret \(caret)")
            harness.type("!")
            #expect(textView.isCaretVisible, "typing shows the caret at once")
            #expect(textView.text == "one\ntwo!")
        }

        @Test("Ctrl+C, Ctrl+X and Ctrl+V go through the window's clipboard, keeping line breaks; a field's copy pastes here")
        func clipboard() async throws {
            let harness = ControlHarness(width: 300, height: 140)
            let textView = await makeTextView(in: harness, text: "alpha beta\ngamma")
            let field = TextField(frame: CGRect(x: 0, y: 104, width: 200, height: 30), text: "from the field")
            harness.root.addSubview(field)
            #expect(textView.becomeFirstResponder())
            textView.select(6..<13)  // "beta\nga"
            harness.key(0x63, modifiers: .control)
            #expect(MemoryPasteboard.shared(.clipboard).string == "beta\nga")
            harness.key(0x78, modifiers: .control)
            #expect(textView.text == "alpha mma")
            textView.select(0..<0)
            harness.key(0x76, modifiers: .control)
            await nextTurn()  // the pasteboard answers on the next turn
            #expect(textView.text == "beta\ngaalpha mma")
            #expect(textView.selectedRange == 7..<7, "the caret after the pasted text")
            MemoryPasteboard.shared(.clipboard).setString("x\r\ny\u{7}z")
            harness.key(0xff63, modifiers: .shift)  // Shift+Insert
            await nextTurn()
            #expect(textView.text == "beta\ngax\nyzalpha mma", "CRLF becomes a line break, BEL is dropped")
            #expect(field.becomeFirstResponder())
            field.change { $0.selectAll() }
            field.copy()
            #expect(textView.becomeFirstResponder())
            textView.select(0..<textView.text.count)
            harness.key(0x76, modifiers: .control)
            await nextTurn()
            #expect(textView.text == "from the field")
            textView.isEditable = false
            textView.select(0..<4)
            harness.key(0x78, modifiers: .control)
            #expect(textView.text == "from the field", "a read-only view does not cut")
            harness.key(0x63, modifiers: .control)
            #expect(MemoryPasteboard.shared(.clipboard).string == "from", "but copies")
        }

        @Test("as a TextInput: the caret's paragraph as surrounding text, the caret rect in window points, a preedit then a commit")
        func inputMethod() async throws {
            let harness = ControlHarness(width: 300, height: 140)
            let textView = await makeTextView(in: harness, text: "first\nsecönd line\nthird", width: 300)
            textView.frame.origin = CGPoint(x: 0, y: 20)
            #expect(textView.becomeFirstResponder())
            let input = try #require(harness.window.firstResponder as? any TextInput)
            textView.select(9..<9)  // "sec|önd"
            let surrounding = try #require(input.surroundingText)
            #expect(surrounding.text == "secönd line")
            #expect(surrounding.cursor == 3 && surrounding.anchor == 3, "bytes into the paragraph")
            #expect(input.textInputCursorRect == textView.convert(textView.caretRect(for: 9), to: nil))
            #expect(input.textInputCursorRect?.minY ?? 0 >= 20, "window points")
            input.applyInputMethodUpdate(InputMethodUpdate(preedit: "ka", preeditCursor: 2..<2))
            #expect(textView.text == "first\nsecka\u{F6}nd line\nthird", "the preedit shows inline")
            #expect(input.hasMarkedText)
            #expect(input.surroundingText?.text == "secönd line", "the preedit is not surrounding text")
            await harness.step()
            input.applyInputMethodUpdate(InputMethodUpdate(commit: "か"))
            #expect(textView.text == "first\nsecかönd line\nthird")
            #expect(!input.hasMarkedText)
            #expect(textView.selectedRange == 10..<10)
            textView.isEditable = false
            #expect(!input.acceptsInputMethod)
        }
    }
}
