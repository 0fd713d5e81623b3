import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Button") @MainActor struct ButtonTests {
        /// A 12×12 image: a white square with a dark centre.
        static func glyph() throws -> Bitmap {
            let bitmap = try Bitmap(width: 12, height: 12)
            let context = GraphicsContext(bitmap: bitmap)
            context.setFillColor(.white)
            context.fill(CGRect(x: 0, y: 0, width: 12, height: 12))
            context.setFillColor(.black)
            context.fill(CGRect(x: 4, y: 4, width: 4, height: 4))
            return bitmap
        }

        @Test("a click runs the action closure, the target's action and primaryActionTriggered once each")
        func clickRunsActions() {
            final class Owner {
                var saved = 0
                func save(_ sender: Control) { saved += 1 }
            }
            let harness = ControlHarness()
            var clicks = 0
            let button = Button(frame: CGRect(x: 10, y: 10, width: 60, height: 24), title: "Save") { clicks += 1 }
            let owner = Owner()
            button.addTarget(owner, action: Owner.save, for: .primaryActionTriggered)
            harness.root.addSubview(button)
            harness.click(at: CGPoint(x: 30, y: 20))
            #expect(clicks == 1 && owner.saved == 1)
            harness.click(at: CGPoint(x: 95, y: 75))
            #expect(clicks == 1)
        }

        @Test("each state draws a different face: normal, hovered, highlighted, selected, disabled")
        func facesDiffer() async throws {
            let harness = ControlHarness()
            let button = Button(frame: CGRect(x: 10, y: 10, width: 60, height: 24), title: "")
            harness.root.addSubview(button)
            await harness.settle()
            var faces: [UInt32] = []
            func sample() async throws {
                await harness.step()
                faces.append(try harness.screen().color(x: 14, y: 30).premultipliedARGB32)
            }
            try await sample()
            harness.move(to: CGPoint(x: 30, y: 20))
            try await sample()
            harness.press(at: CGPoint(x: 30, y: 20))
            try await sample()
            harness.release(at: CGPoint(x: 30, y: 20))
            harness.move(to: CGPoint(x: 95, y: 75))
            button.isSelected = true
            try await sample()
            button.isSelected = false
            button.isEnabled = false
            try await sample()
            #expect(Set(faces).count == 5)
            #expect(faces[0] == Palette.light.accent.premultipliedARGB32)
        }

        @Test("a state's own title shows in that state; others fall back to normal's")
        func titlesPerState() {
            let button = Button(title: "Play")
            button.setTitle("Pause", for: .selected)
            #expect(button.currentTitle == "Play")
            button.isSelected = true
            #expect(button.currentTitle == "Pause")
            #expect(button.accessibilityLabel == "Pause")
            button.isEnabled = false
            #expect(button.currentTitle == "Pause")
        }

        @Test("intrinsic size holds the image, the title and the insets")
        func intrinsicSize() throws {
            let button = Button(title: "OK", image: try Self.glyph())
            let size = button.intrinsicContentSize
            let titleWidth = button.titleFont.measure("OK").width.rounded(.up)
            #expect(size.width == titleWidth + 12 + button.contentInsets.height + 2 * button.contentInsets.width)
            #expect(size.height >= 12 + 2 * button.contentInsets.height)
        }

        @Test("a press damages only the button's frame")
        func pressDamagesOnlyTheButton() async {
            let harness = ControlHarness()
            let button = Button(frame: CGRect(x: 10, y: 10, width: 60, height: 24), title: "Go")
            harness.root.addSubview(button)
            await harness.settle()
            harness.press(at: CGPoint(x: 30, y: 20))
            await harness.step()
            #expect(harness.lastDamage.boundingBox == CGRect(x: 10, y: 10, width: 60, height: 24))
        }

        @Test("title and image buttons in every state match the references, light and dark")
        func referenceImages() async throws {
            for appearance in Appearance.allCases {
                try await with(appearance) {
                    let harness = ControlHarness(width: 330, height: 40)
                    harness.root.backgroundColor = appearance.palette.windowBackground
                    let normal = Button(frame: CGRect(x: 4, y: 6, width: 60, height: 28), title: "Normal")
                    let hovered = Button(frame: CGRect(x: 68, y: 6, width: 60, height: 28), title: "Hover")
                    let pressed = Button(frame: CGRect(x: 132, y: 6, width: 60, height: 28), title: "Press")
                    let selected = Button(frame: CGRect(x: 196, y: 6, width: 60, height: 28), title: "On", image: try Self.glyph())
                    selected.isSelected = true
                    let disabled = Button(frame: CGRect(x: 260, y: 6, width: 66, height: 28), title: "Off")
                    disabled.isEnabled = false
                    for button in [normal, hovered, pressed, selected, disabled] { harness.root.addSubview(button) }
                    await harness.settle()
                    harness.move(to: CGPoint(x: 90, y: 20))
                    await harness.step()
                    pressed.isHighlighted = true  // drawn as under a held press (the pointer hovers another)
                    await harness.step()
                    try ReferenceImage.check(try harness.screen(), named: "button-\(appearance)")
                }
            }
        }
    }
}

extension ControlsTests.ButtonTests {
    @Test("sendActions(for: .primaryActionTriggered) runs the action closure too, as a click does")
    func sendActionsRunsTheClosure() {
        var runs = 0
        let button = Button(title: "Go") { runs += 1 }
        button.sendActions(for: .primaryActionTriggered)
        button.sendActions(for: .touchDown)
        #expect(runs == 1)
        #expect(button.accessibilityActivate())
        #expect(runs == 2)
    }
}
