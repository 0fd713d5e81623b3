import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    /// The input method's language and direction (zwp_text_input_v1's `language` and
    /// `text_direction`) in both text controls: kept while the input method composes,
    /// styling the preedit alike in ``TextField`` and ``TextView``, and forgotten when the
    /// activation ends.
    @Suite("The input method's language and direction", .timeLimit(.minutes(5))) @MainActor struct InputMethodAttributesTests {
        /// Pixels that differ between two bitmaps of one size.
        private func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
            Bitmap.difference(a, b, tolerance: 0).differingPixelCount
        }

        @Test("the attributes keep a language and a direction, say when they change, and reset to none and automatic")
        func attributes() {
            var attributes = InputMethodTextAttributes()
            #expect(attributes.isEmpty && attributes.preeditRunStyle == nil)
            var changes: [Bool] = []
            changes.append(attributes.reset())  // nothing to reset
            changes.append(attributes.setLanguage("ko"))
            changes.append(attributes.setLanguage("ko"))  // the same language is no change
            changes.append(attributes.setDirection(.rightToLeft))
            changes.append(attributes.setDirection(.rightToLeft))
            #expect(changes == [false, true, false, true, false])
            #expect(attributes.preeditRunStyle == TextRunStyle(language: "ko", direction: .rightToLeft))
            #expect(attributes.preeditRun(utf8Range: 3..<9) == TextLayout.StyledRun(utf8Range: 3..<9, style: TextRunStyle(language: "ko", direction: .rightToLeft)))
            #expect(attributes.preeditRun(utf8Range: 3..<3) == nil && attributes.preeditRun(utf8Range: nil) == nil)
            changes = [attributes.setLanguage("")]  // an empty tag is no language
            #expect(attributes.language == nil && attributes.preeditRunStyle == TextRunStyle(direction: .rightToLeft))
            changes.append(attributes.setLanguage("ja"))
            changes.append(attributes.reset())
            changes.append(attributes.reset())
            #expect(changes == [true, true, true, false])
            #expect(attributes == InputMethodTextAttributes() && attributes.preeditRunStyle == nil)
        }

        @Test("a field that resigns forgets the input method's language and direction; the next field starts from none, and so does the first when it is focused again")
        func fieldResignResets() async {
            let harness = ControlHarness(width: 240, height: 110)
            let first = TextField(frame: CGRect(x: 10, y: 10, width: 220, height: 40))
            let second = TextField(frame: CGRect(x: 10, y: 60, width: 220, height: 40))
            harness.root.addSubview(first)
            harness.root.addSubview(second)
            await harness.settle()
            harness.click(at: CGPoint(x: 100, y: 30))
            #expect(first.isFirstResponder)
            first.inputMethodDidChangeLanguage("ko")
            first.inputMethodDidChangeTextDirection(.rightToLeft)
            #expect(first.preeditRunStyle == TextRunStyle(language: "ko", direction: .rightToLeft))
            harness.click(at: CGPoint(x: 100, y: 80))
            #expect(second.isFirstResponder)
            #expect(first.inputMethodLanguage == nil && first.inputMethodTextDirection == .automatic)
            #expect(first.preeditRunStyle == nil)
            #expect(second.inputMethodAttributes.isEmpty)
            // The input method speaks to the second field; Escape ends its editing.
            second.inputMethodDidChangeTextDirection(.leftToRight)
            harness.key(0xff1b)
            #expect(!second.isFirstResponder && second.inputMethodAttributes.isEmpty)
            harness.click(at: CGPoint(x: 100, y: 30))
            #expect(first.isFirstResponder && first.inputMethodAttributes.isEmpty)
            // The window loses keyboard focus: the field keeps focus in the window, not what
            // the input method said.
            first.inputMethodDidChangeLanguage("ja")
            first.applyInputMethodUpdate(InputMethodUpdate(preedit: "かな"))
            harness.window.dispatch(.keyboardFocus(true))
            harness.window.dispatch(.keyboardFocus(false))
            #expect(first.isFirstResponder && first.inputMethodAttributes.isEmpty)
            #expect(!first.hasMarkedText && first.text == "", "the preedit went with the activation")
        }

        @Test("a text view that loses focus to a field forgets the language; a plain responder that adopts TextInput is told by the default, as an empty language and automatic direction")
        func textViewAndDefault() async {
            let harness = ControlHarness(width: 240, height: 160)
            let textView = TextView(frame: CGRect(x: 0, y: 0, width: 240, height: 100))
            let field = TextField(frame: CGRect(x: 10, y: 110, width: 220, height: 40))
            harness.root.addSubview(textView)
            harness.root.addSubview(field)
            await harness.settle()
            harness.click(at: CGPoint(x: 50, y: 50))
            #expect(textView.isFirstResponder)
            textView.inputMethodDidChangeLanguage("ar")
            textView.inputMethodDidChangeTextDirection(.rightToLeft)
            textView.applyInputMethodUpdate(InputMethodUpdate(preedit: "سلام"))
            #expect(textView.hasMarkedText)
            harness.click(at: CGPoint(x: 100, y: 130))
            #expect(field.isFirstResponder && textView.inputMethodAttributes.isEmpty)
            #expect(!textView.hasMarkedText && textView.text == "", "the preedit went with the activation")

            final class Recorder: TextInput {
                var text: String { "" }
                var told: [String] = []
                func inputMethodDidChangeLanguage(_ language: String) { told.append("language \(language)") }
                func inputMethodDidChangeTextDirection(_ direction: TextInputDirection) { told.append("direction \(direction)") }
            }
            let recorder = Recorder()
            recorder.inputMethodDidDeactivate()
            #expect(recorder.told == ["language ", "direction automatic"])
        }

        @Test("a field whose input method deactivates drops its preedit and the style; the next preedit is drawn pixel for pixel as in a field never styled")
        func fieldDeactivateResets() async throws {
            func render(styled: Bool) async throws -> Bitmap {
                let harness = ControlHarness(width: 340, height: 60)
                harness.root.backgroundColor = .white
                let field = TextField(frame: CGRect(x: 10, y: 10, width: 320, height: 40), text: "ab ")
                harness.root.addSubview(field)
                await harness.settle()
                harness.click(at: CGPoint(x: 300, y: 30))
                if styled {
                    field.inputMethodDidChangeTextDirection(.rightToLeft)
                    field.applyInputMethodUpdate(InputMethodUpdate(preedit: "MMMM אבג"))
                    field.inputMethodDidDeactivate()
                    #expect(field.inputMethodAttributes.isEmpty && !field.hasMarkedText && field.text == "ab ")
                }
                field.applyInputMethodUpdate(InputMethodUpdate(preedit: "MMMM אבג"))
                await harness.step()
                return try harness.screen().copy()
            }
            let reset = try await render(styled: true), plain = try await render(styled: false)
            #expect(differing(reset, plain) == 0)
        }

        // MARK: TextView

        private func makeTextView(in harness: ControlHarness, text: String) async -> TextView {
            harness.root.backgroundColor = .white
            let textView = TextView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
            textView.font = .system(size: 20)
            textView.text = text
            harness.root.addSubview(textView)
            await harness.settle()
            #expect(textView.becomeFirstResponder())
            textView.select(text.count..<text.count)
            await harness.step()
            return textView
        }

        @Test("a TextView's preedit is laid out in the input method's direction: right to left the Latin word goes right of the Hebrew, in other pixels; the damage stays on the preedit's line")
        func textViewDirection() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let textView = await makeTextView(in: harness, text: "first line\nab ")
            textView.applyInputMethodUpdate(InputMethodUpdate(preedit: "MMMM אבג"))  // the caret hidden
            await harness.step()
            let start = "first line\nab ".count
            // Logical 0 (before "MMMM") and 5 (before "א"): left to right, the Latin word first.
            let automatic = try harness.screen().copy()
            #expect(textView.caretRect(for: start).minX < textView.caretRect(for: start + 5).minX)
            #expect(textView.preeditRunStyle == nil)
            textView.inputMethodDidChangeTextDirection(.rightToLeft)
            #expect(textView.preeditRunStyle == TextRunStyle(direction: .rightToLeft))
            await harness.step()
            let rtl = try harness.screen().copy()
            // Right to left: "MMMM" is the rightmost word, its start right of the Hebrew's.
            #expect(textView.caretRect(for: start).minX > textView.caretRect(for: start + 5).minX)
            #expect(differing(automatic, rtl) > 50, "right to left changed nothing on screen")
            let secondLine = textView.convert(textView.rectForLine(1), to: nil)
            #expect(harness.lastDamage.subtracting(Region(secondLine)).isEmpty, "\(harness.lastDamage.rects), line \(secondLine)")
            #expect(!harness.lastDamage.isEmpty)
            #expect(textView.text == "first line\nab MMMM אבג", "only the layout changed")
            // Left to right, said: drawn as the automatic direction drew this preedit.
            textView.inputMethodDidChangeTextDirection(.leftToRight)
            await harness.step()
            #expect(try differing(automatic, harness.screen()) == 0)
            #expect(textView.caretRect(for: start).minX < textView.caretRect(for: start + 5).minX)
            // A commit ends the preedit: the committed text follows its own direction.
            textView.inputMethodDidChangeTextDirection(.rightToLeft)
            textView.applyInputMethodUpdate(InputMethodUpdate(commit: "MMMM אבג"))
            await harness.step()
            #expect(textView.preeditLayout(forLine: 1) == nil)
            #expect(textView.caretRect(for: start).minX < textView.caretRect(for: start + 5).minX)
        }

        @Test("a TextView's preedit is shaped in the input method's language: its line's layout runs in it, and Korean and Chinese Han differ in pixels")
        func textViewLanguage() async throws {
            func render(_ language: String) async throws -> Bitmap {
                let harness = ControlHarness(width: 300, height: 100)
                let textView = await makeTextView(in: harness, text: "one\n")
                textView.inputMethodDidChangeLanguage(language)
                textView.applyInputMethodUpdate(InputMethodUpdate(preedit: "漢字"))
                await harness.step()
                let layout = try #require(textView.preeditLayout(forLine: 1))
                #expect(layout.styledRun == TextLayout.StyledRun(utf8Range: 0..<6, style: TextRunStyle(language: language)))
                #expect(textView.preeditLayout(forLine: 0) == nil, "the line without the preedit is the font's")
                return try harness.screen().copy()
            }
            let korean = try await render("ko"), chinese = try await render("zh-CN")
            #expect(differing(korean, chinese) > 20, "Korean and Chinese Han look the same")
        }

        @Test("a TextView forgets the input method's language and direction, and drops its preedit, when the input method deactivates or it resigns; the next preedit is drawn as one never styled")
        func textViewResets() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let textView = await makeTextView(in: harness, text: "ab ")
            textView.applyInputMethodUpdate(InputMethodUpdate(preedit: "MMMM אבג"))
            await harness.step()
            let plain = try harness.screen().copy()
            textView.inputMethodDidChangeLanguage("he")
            textView.inputMethodDidChangeTextDirection(.rightToLeft)
            await harness.step()
            #expect(try differing(plain, harness.screen()) > 50)
            // The input method deactivates (the text-input session's leave or disable).
            (textView as any TextInput).inputMethodDidDeactivate()
            #expect(textView.inputMethodAttributes.isEmpty && textView.preeditRunStyle == nil)
            #expect(!textView.hasMarkedText && textView.text == "ab ")
            textView.applyInputMethodUpdate(InputMethodUpdate(preedit: "MMMM אבג"))
            await harness.step()
            #expect(try differing(plain, harness.screen()) == 0)
            // Said again, then the view resigns: the preedit goes and so do they.
            textView.inputMethodDidChangeTextDirection(.rightToLeft)
            #expect(textView.resignFirstResponder())
            #expect(textView.inputMethodAttributes.isEmpty && !textView.hasMarkedText)
            #expect(textView.text == "ab ")
        }

        @Test("a styled preedit wrapped over two lines is laid out on both, each line's part as its run; the caret stays on its line")
        func textViewWrappedPreedit() async throws {
            let harness = ControlHarness(width: 300, height: 100)
            let textView = await makeTextView(in: harness, text: "")
            textView.inputMethodDidChangeTextDirection(.rightToLeft)
            let preedit = String(repeating: "אבג ", count: 12)
            textView.applyInputMethodUpdate(InputMethodUpdate(preedit: preedit, preeditCursor: 4..<4))
            await harness.step()
            #expect(textView.lineStarts.count >= 2, "the preedit wraps")
            let first = try #require(textView.preeditLayout(forLine: 0)), second = try #require(textView.preeditLayout(forLine: 1))
            #expect(first.styledRun?.utf8Range == 0..<textView.lineText(0).utf8.count)
            #expect(second.styledRun?.style.direction == .rightToLeft)
            #expect(textView.caretLine == 0)
            #expect(textView.insertionPointRect.minY == textView.rectForLine(0).minY)
        }
    }
}
