import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("TextField") @MainActor struct TextFieldTests {
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
