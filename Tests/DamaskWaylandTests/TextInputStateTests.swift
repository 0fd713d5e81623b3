import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskWayland

/// A text field's text-input state is sent again only when it differs from what was sent
/// last, so its equality decides what reaches the input method after every key.
@Suite("Text-input state equality", .timeLimit(.minutes(1)))
struct TextInputStateTests {
    static let text = SurroundingText(text: "hello", cursor: 5, anchor: 5)

    static func state(
        _ rectangle: (x: Int32, y: Int32, width: Int32, height: Int32)? = (10, 20, 1, 16),
        surrounding: SurroundingText? = text, contentType: TextContentType = TextContentType()
    ) -> TextInputState {
        TextInputState(surrounding: surrounding, cursorRectangle: rectangle, contentType: contentType)
    }

    @Test("Two states with the same text, caret rectangle and content type are equal")
    func sameStatesAreEqual() {
        #expect(Self.state() == Self.state())
        #expect(Self.state(nil) == Self.state(nil))
        #expect(Self.state(surrounding: nil) == Self.state(surrounding: nil))
    }

    @Test("A caret rectangle that differs in any one of its four numbers makes the states differ")
    func everyRectangleFieldCounts() {
        let base = Self.state()
        #expect(base != Self.state((11, 20, 1, 16)))
        #expect(base != Self.state((10, 21, 1, 16)))
        #expect(base != Self.state((10, 20, 2, 16)))
        #expect(base != Self.state((10, 20, 1, 17)))
    }

    @Test("A caret rectangle told on one side only makes the states differ, either way round")
    func missingRectangleDiffers() {
        #expect(Self.state() != Self.state(nil))
        #expect(Self.state(nil) != Self.state())
    }

    @Test("Other text, another caret in it or another content type makes the states differ")
    func textAndContentTypeCount() {
        let base = Self.state()
        #expect(base != Self.state(surrounding: SurroundingText(text: "hello!", cursor: 6, anchor: 6)))
        #expect(base != Self.state(surrounding: SurroundingText(text: "hello", cursor: 4, anchor: 4)))
        #expect(base != Self.state(surrounding: nil))
        #expect(base != Self.state(contentType: TextContentType(purpose: .password)))
        #expect(base != Self.state(contentType: TextContentType(hints: .spellcheck)))
    }
}
