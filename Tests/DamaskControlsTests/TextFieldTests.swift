import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("TextField", .timeLimit(.minutes(5))) @MainActor struct TextFieldTests {
        @Test("typing sends editingDidBegin, editingChanged per edit, and Return the primary action then editingDidEnd")
        func editingEvents() async {
            let harness = ControlHarness(width: 240, height: 60)
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 200, height: 40))
            harness.root.addSubview(field)
            await harness.settle()
            var events: [String] = []
            field.addAction(for: .editingDidBegin) { _ in events.append("begin") }
            field.addAction(for: .editingChanged) { _ in events.append("changed") }
            field.addAction(for: .primaryActionTriggered) { _ in events.append("return") }
            field.addAction(for: .editingDidEnd) { _ in events.append("end") }
            harness.click(at: CGPoint(x: 50, y: 30))
            harness.type("ab")
            harness.key(0xff51)  // ← moves the caret: no text change
            harness.key(0xff0d)
            #expect(field.text == "ab")
            #expect(events == ["begin", "changed", "changed", "return", "end"])
        }

        @Test("the surrounding text an input method reads is made once per change and follows every change: typing, caret moves, selection, preedit, undo, a new text")
        func surroundingTextFollowsEveryChange() async throws {
            let harness = ControlHarness(width: 240, height: 60)
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 200, height: 40))
            harness.root.addSubview(field)
            await harness.settle()
            harness.click(at: CGPoint(x: 50, y: 30))
            var steps = 0
            func check(_ what: String) throws {
                let read = try #require(field.surroundingText, "\(what)")
                #expect(read == field.editor.surroundingText(), "\(what)")
                #expect(field.cachedSurroundingText == read, "\(what): kept for the next read")
                steps += 1
            }
            try check("empty")
            harness.type("hello")
            try check("typed")
            harness.key(0xff51)  // ←
            try check("caret moved")
            harness.key(0xff51, modifiers: .shift)
            try check("selection")
            field.applyInputMethodUpdate(InputMethodUpdate(preedit: "한", preeditCursor: 3..<3))
            try check("preedit")
            field.applyInputMethodUpdate(InputMethodUpdate(commit: "한"))
            try check("committed")
            field.change { $0.undo() }
            try check("undone")
            field.text = "a new text"
            try check("a new text")
            #expect(field.surroundingText?.text == "a new text")
            field.isSecureTextEntry = true
            #expect(field.surroundingText == nil, "a password tells nothing")
            #expect(steps == 8)
        }

        @Test("a placeholder shows while empty and goes with the first character; damage stays in the text area")
        func placeholder() async throws {
            let harness = ControlHarness(width: 240, height: 60)
            harness.root.backgroundColor = .white
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 200, height: 40), placeholder: "Search")
            harness.root.addSubview(field)
            await harness.settle()
            func inkColumns() throws -> Int {
                let screen = try harness.screen()
                return (22..<200).filter { x in (20..<40).contains { y in screen.color(x: x, y: y).red < 0.8 } }.count
            }
            #expect(try inkColumns() > 20)
            harness.click(at: CGPoint(x: 50, y: 30))
            await harness.step()  // focus: the border and the caret, the whole field
            await harness.step()
            harness.type("i")
            await harness.step()
            #expect(try inkColumns() < 10)
            #expect(field.textArea.offsetBy(dx: 10, dy: 10).contains(harness.lastDamage.boundingBox))
        }

        @Test("secure entry shows a bullet per character, keeps the real text, and refuses to copy")
        func secureEntry() async {
            let harness = ControlHarness(width: 240, height: 60)
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 200, height: 40), text: "p ä 👍🏽")
            field.isSecureTextEntry = true
            harness.root.addSubview(field)
            await harness.settle()
            #expect(field.text == "p ä 👍🏽")
            #expect(field.accessibilityText == "•••••")
            let clipboard = harness.window.surface.pasteboard(.clipboard)
            clipboard?.setString("before")
            harness.click(at: CGPoint(x: 50, y: 30))
            harness.key(0x61, text: "a", modifiers: .control)
            #expect(field.selection == 0..<5)
            harness.key(0x63, text: "c", modifiers: .control)
            var copied: String?
            clipboard?.requestString { copied = $0 }
            await harness.step()
            #expect(copied == "before")
            harness.key(0xff08)
            #expect(field.text.isEmpty)
        }

        @Test("a styled preedit draws like GTK's: selection highlighted, active thick, underline thin, incorrect red, none bare; restyling one piece damages only it and the caret")
        func styledPreedit() async throws {
            let harness = ControlHarness(width: 340, height: 60)
            harness.root.backgroundColor = .white
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 320, height: 40))
            harness.root.addSubview(field)
            await harness.settle()
            harness.click(at: CGPoint(x: 50, y: 30))
            func styled(_ third: PreeditStyle) -> InputMethodUpdate {
                // "MMMM" pieces, bytes: 0 selection, 5 active, 10 `third`, 15 incorrect, 20 none.
                InputMethodUpdate(
                    preedit: "MMMM MMMM MMMM MMMM MMMM", preeditCursor: 0..<0,
                    preeditStyles: [
                        PreeditStyleRun(range: 0..<4, style: .selection), PreeditStyleRun(range: 5..<9, style: .active),
                        PreeditStyleRun(range: 10..<14, style: third), PreeditStyleRun(range: 15..<19, style: .incorrect),
                        PreeditStyleRun(range: 20..<24, style: .none),
                    ])
            }
            field.applyInputMethodUpdate(styled(.underline))
            await harness.step()
            let palette = Palette.light
            let screen = try harness.screen()
            let highlights = field.preeditHighlightRects, underlines = field.preeditUnderlineRects
            #expect(highlights.count == 1)
            // Underlines: the four spaces (default, thin), active (thick), underline, incorrect.
            #expect(underlines.map(\.height).sorted() == [1, 1, 1, 1, 1, 1, 2], "\(underlines)")
            func pixel(_ x: CGFloat, _ y: CGFloat) -> Color { screen.color(x: Int(x) + 10, y: Int(y) + 10) }
            let highlight = try #require(highlights.first)
            // Above the glyphs, inside the highlight: the selection colour; a bare piece's row is the field's.
            #expect(pixel(highlight.midX, highlight.minY + 1).isClose(to: palette.selection))
            let thick = try #require(underlines.first { $0.height == 2 })
            #expect(pixel(thick.midX, thick.minY).isClose(to: palette.text) && pixel(thick.midX, thick.minY + 1).isClose(to: palette.text))
            let thin = underlines.filter { $0.height == 1 && $0.width > 20 }.sorted { $0.minX < $1.minX }
            #expect(thin.count == 2, "\(thin)")  // underline, incorrect (the spaces' are narrower)
            if thin.count == 2 {
                #expect(pixel(thin[0].midX, thin[0].minY).isClose(to: palette.text))
                #expect(!pixel(thin[0].midX, thin[0].minY + 1).isClose(to: palette.text), "one point thick")
                let red = pixel(thin[1].midX, thin[1].minY)
                #expect(red.red > 0.8 && red.green < 0.2 && red.blue < 0.2, "incorrect is red: \(red)")
            }
            // The none piece: nothing under it (the row of the underlines is the background there).
            let noneStart = thin.last.map { $0.maxX + 12 } ?? 0
            #expect((0..<10).allSatisfy { pixel(noneStart + CGFloat($0), thick.minY).isClose(to: .white) })
            // Restyle the third piece only: the damage is that piece (with a cluster of slack) and the caret.
            let third = thin.first ?? .zero
            field.applyInputMethodUpdate(styled(.active))
            await harness.step()
            #expect(field.preeditUnderlineRects.filter { $0.height == 2 }.count == 2)
            let allowed = Region(third.insetBy(dx: -30, dy: -40).offsetBy(dx: 10, dy: 10))
                .union(field.cursorRect.insetBy(dx: -1, dy: -1).offsetBy(dx: 10, dy: 10))
            #expect(harness.lastDamage.subtracting(allowed).isEmpty, "damage \(harness.lastDamage.rects), allowed \(allowed.rects)")
            // The active piece before it was not repainted (the damage leaves it, but for slack at its end).
            let untouched = CGRect(x: thick.minX + 12, y: 10, width: thick.width - 8, height: 40)  // window points
            #expect(harness.lastDamage.intersection(untouched).isEmpty, "\(harness.lastDamage.rects)")
        }

        @Test("the input method's language and text direction are kept by the field and style its preedit")
        func languageAndDirection() {
            let field = TextField(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            #expect(field.inputMethodLanguage == nil && field.inputMethodTextDirection == .automatic)
            #expect(field.preeditRunStyle == nil)
            field.inputMethodDidChangeLanguage("ko")
            field.inputMethodDidChangeTextDirection(.rightToLeft)
            #expect(field.inputMethodLanguage == "ko" && field.inputMethodTextDirection == .rightToLeft)
            #expect(field.preeditRunStyle == TextRunStyle(language: "ko", direction: .rightToLeft))
            field.isSecureTextEntry = true
            #expect(field.preeditRunStyle == nil)
        }

        @Test("a right-to-left input method's preedit shows right to left in a left-to-right field, in pixels; back to left to right when it says so")
        func rightToLeftPreedit() async throws {
            let harness = ControlHarness(width: 340, height: 60)
            harness.root.backgroundColor = .white
            let field = TextField(frame: CGRect(x: 10, y: 10, width: 320, height: 40), text: "ab ")
            harness.root.addSubview(field)
            await harness.settle()
            harness.click(at: CGPoint(x: 300, y: 30))
            // "MMMM" (bytes 0..<4) highlighted as selection, then " אבג": in a right-to-left
            // run the Latin word is the rightmost.
            let update = InputMethodUpdate(
                preedit: "MMMM אבג", preeditCursor: 0..<0, preeditStyles: [PreeditStyleRun(range: 0..<4, style: .selection)])
            field.inputMethodDidChangeTextDirection(.rightToLeft)
            field.applyInputMethodUpdate(update)
            await harness.step()
            // The highlighted word is not underlined: the underline is under " אבג" only.
            let underline = try #require(field.preeditUnderlineRects.max { $0.width < $1.width })
            let rtl = try #require(field.preeditHighlightRects.first)
            #expect(rtl.minX >= underline.maxX - 1, "highlight \(rtl), underline \(underline)")
            let screen = try harness.screen()
            #expect(screen.color(x: Int(rtl.midX) + 10, y: Int(rtl.minY) + 11).isClose(to: Palette.light.selection))
            #expect(screen.color(x: Int(underline.midX) + 10, y: Int(rtl.minY) + 11).isClose(to: .white))
            // The caret (preedit cursor 0, before "MMMM" in reading order) is at its left edge.
            #expect(abs(field.cursorRect.minX - rtl.minX) < 2, "caret \(field.cursorRect), highlight \(rtl)")
            // Left to right: the same preedit, highlighted word first; the damage stays in the text area.
            field.inputMethodDidChangeTextDirection(.leftToRight)
            await harness.step()
            let ltr = try #require(field.preeditHighlightRects.first)
            let ltrUnderline = try #require(field.preeditUnderlineRects.max { $0.width < $1.width })
            #expect(ltr.maxX <= ltrUnderline.minX + 1, "highlight \(ltr), underline \(ltrUnderline)")
            #expect(abs(ltr.minX - underline.minX) < 1, "the preedit starts where it did: \(ltr), \(underline)")
            #expect(field.text == "ab MMMM אבג")
            let fieldInWindow = field.textArea.offsetBy(dx: 10, dy: 10)
            #expect(harness.lastDamage.subtracting(Region(fieldInWindow)).isEmpty, "\(harness.lastDamage.rects)")
            // Automatic follows the preedit (Latin first: left to right); right to left flips it again.
            field.inputMethodDidChangeTextDirection(.automatic)
            await harness.step()
            #expect(try abs(#require(field.preeditHighlightRects.first).minX - ltr.minX) < 1)
            field.inputMethodDidChangeTextDirection(.rightToLeft)
            await harness.step()
            #expect(try #require(field.preeditHighlightRects.first).minX >= underline.maxX - 1)
        }

        @Test("the preedit's Han is drawn in the input method's language: Korean and Chinese glyphs differ")
        func preeditLanguageGlyphs() async throws {
            func render(_ language: String) async throws -> Bitmap {
                let harness = ControlHarness(width: 240, height: 60)
                harness.root.backgroundColor = .white
                let field = TextField(frame: CGRect(x: 10, y: 10, width: 220, height: 40), font: .system(size: 24))
                harness.root.addSubview(field)
                await harness.settle()
                harness.click(at: CGPoint(x: 100, y: 30))
                field.inputMethodDidChangeLanguage(language)
                field.applyInputMethodUpdate(InputMethodUpdate(preedit: "漢字"))  // caret hidden
                await harness.step()
                return try harness.screen()
            }
            let korean = try await render("ko"), chinese = try await render("zh-CN")
            let differing = (0..<60).reduce(0) { sum, y in
                sum + (0..<240).count { x in korean.pixel(x: x, y: y) != chinese.pixel(x: x, y: y) }
            }
            #expect(differing > 20, "\(differing) pixels differ")
        }

        @Test("fields match the references, light and dark: placeholder, text with a selection, secure, disabled")
        func referenceImages() async throws {
            for appearance in Appearance.allCases {
                try await with(appearance) {
                    let harness = ControlHarness(width: 420, height: 100)
                    harness.root.backgroundColor = appearance.palette.windowBackground
                    let empty = TextField(frame: CGRect(x: 4, y: 4, width: 200, height: 40), placeholder: "Placeholder")
                    let filled = TextField(frame: CGRect(x: 212, y: 4, width: 200, height: 40), text: "Привет, مرحبا")
                    let secure = TextField(frame: CGRect(x: 4, y: 54, width: 200, height: 40), text: "secret")
                    secure.isSecureTextEntry = true
                    let disabled = TextField(frame: CGRect(x: 212, y: 54, width: 200, height: 40), text: "Disabled")
                    disabled.isEnabled = false
                    for field in [empty, filled, secure, disabled] { harness.root.addSubview(field) }
                    await harness.settle()
                    filled.change(restartsBlink: false) { $0.select(0..<6) }
                    await harness.step()
                    try ReferenceImage.check(try harness.screen(), named: "textfield-\(appearance)")
                }
            }
        }
    }
}
