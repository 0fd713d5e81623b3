import DamaskControls
import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskAccessibility

/// A ``TextView`` as the bridge answers for it (no D-Bus: the questions an AT asks,
/// answered from the live view): a multi-line text whose lines are its visual lines.
@Suite("AT-SPI bridge: a TextView's Text and EditableText", .serialized, .exclusive, .timeLimit(.minutes(5)))
@MainActor struct TextViewBridgeTests {
    let window = Window(surface: MemorySurface(size: CGSize(width: 400, height: 300)))
    let textView = TextView(frame: CGRect(x: 20, y: 30, width: 200, height: 60))
    let bridge = AccessibilityBridge(applicationName: "tests", environment: [:])
    /// A paragraph that wraps at 200 points, then a short one.
    static let text = "The quick brown fox jumps over the lazy dog. It runs far away.\nShort line"

    init() {
        textView.text = Self.text
        textView.accessibilityLabel = "Notes"
        window.contentView.addSubview(textView)
        window.contentView.layoutIfNeeded()
    }

    var node: AtspiNode { .element(textView) }

    func int(_ value: DBusValue?) -> Int { Int(value?.int32Value ?? -99) }

    @Test("A text view is a multi-line, editable, focusable text with Text and EditableText; read-only it offers Text only")
    func roleStatesAndInterfaces() {
        #expect(bridge.role(of: node) == .text)
        #expect(bridge.role(of: node).name == "text")
        #expect(bridge.name(of: node) == "Notes")
        let states = bridge.states(of: node)
        #expect(states.isSuperset(of: [.multiLine, .editable, .focusable, .selectableText, .enabled, .showing]))
        #expect(!states.contains(.singleLine))
        #expect(AtspiState.words([.multiLine]) == [1 << 17, 0], "ATSPI_STATE_MULTI_LINE is 17")
        #expect(bridge.interfaces(of: node).contains("org.a11y.atspi.Text"))
        #expect(bridge.interfaces(of: node).contains("org.a11y.atspi.EditableText"))
        #expect(bridge.children(of: node).isEmpty, "its canvas and indicators are not listed")
        #expect(bridge.role(of: .element(TextField(text: "one line"))) == .entry, "a field stays an entry")
        textView.isEditable = false
        #expect(bridge.states(of: node).contains(.readOnly))
        #expect(!bridge.interfaces(of: node).contains("org.a11y.atspi.EditableText"))
        #expect(bridge.editableText("InsertText", [.int32(0), .string("x"), .int32(1)], node) == nil)
    }

    @Test("Lines are the visual lines: a wrapped paragraph is several; line start and end, paragraphs, sentences, before and after")
    func lines() throws {
        try #require(textView.lineStarts.count >= 3, "the paragraph wraps: \(textView.lineStarts)")
        let starts = textView.lineStarts
        let characters = Array(Self.text)
        func slice(_ range: Range<Int>) -> String { String(characters[range]) }
        // GetTextAtOffset, ATSPI_TEXT_BOUNDARY_LINE_START (5), inside line 1.
        let lineOne = bridge.text("GetTextAtOffset", [.int32(Int32(starts[1] + 2)), .uint32(5)], node)
        #expect(lineOne == [.string(slice(starts[1]..<starts[2])), .int32(Int32(starts[1])), .int32(Int32(starts[2]))])
        // GetStringAtOffset, ATSPI_TEXT_GRANULARITY_LINE (3): the same line.
        #expect(bridge.text("GetStringAtOffset", [.int32(Int32(starts[1] + 2)), .uint32(3)], node) == lineOne)
        // The last line, and the one before it with its line break.
        let last = starts.count - 1
        #expect(bridge.text("GetTextAtOffset", [.int32(Int32(starts[last])), .uint32(5)], node)?.first == .string("Short line"))
        let before = bridge.text("GetTextBeforeOffset", [.int32(Int32(starts[last] + 1)), .uint32(5)], node)
        #expect(before?.first?.stringValue?.hasSuffix(".\n") == true, "\(String(describing: before))")
        let after = bridge.text("GetTextAfterOffset", [.int32(0), .uint32(5)], node)
        #expect(int(after?[1]) == starts[1])
        // Line end (6): from the line break before to the line's end, without the break.
        let lineEnd = bridge.text("GetTextAtOffset", [.int32(Int32(starts[last] + 1)), .uint32(6)], node)
        #expect(lineEnd?.first == .string("\nShort line"))
        // A paragraph (GetStringAtOffset granularity 4) runs to its line break.
        let paragraph = bridge.text("GetStringAtOffset", [.int32(5), .uint32(4)], node)
        #expect(paragraph?.first == .string(String(Self.text.prefix { $0 != "\n" }) + "\n"))
        // Sentences end after ". " or at a line break.
        let sentence = bridge.text("GetTextAtOffset", [.int32(50), .uint32(3)], node)
        #expect(sentence?.first == .string("It runs far away.\n"))
        let first = bridge.text("GetStringAtOffset", [.int32(3), .uint32(2)], node)
        #expect(first?.first == .string("The quick brown fox jumps over the lazy dog. "))
        // Words do not take the line break after them.
        let word = bridge.text("GetTextAtOffset", [.int32(Int32(characters.firstIndex(of: "\n")! - 2)), .uint32(1)], node)
        #expect(word?.first == .string("away."))
    }

    @Test("Character extents are each character's box on its visual line in window coordinates; the offset at a point inverts them")
    func characterExtents() throws {
        let starts = textView.lineStarts
        try #require(starts.count >= 3)
        let offset = starts[1] + 1
        let box = try #require(bridge.text("GetCharacterExtents", [.int32(Int32(offset)), .uint32(1)], node)).map(int)
        let line = textView.convert(textView.rectForLine(1), to: nil)
        #expect(box[1] == Int(line.minY) && box[3] == Int(line.height), "on line 1: \(box) vs \(line)")
        #expect(box[0] > Int(textView.frame.minX) && box[2] > 0, "\(box)")
        let centre = [DBusValue.int32(Int32(box[0] + box[2] / 2)), .int32(Int32(box[1] + box[3] / 2)), .uint32(1)]
        #expect(bridge.text("GetOffsetAtPoint", centre, node) == [.int32(Int32(offset))])
        #expect(bridge.text("GetOffsetAtPoint", [.int32(5), .int32(5), .uint32(1)], node) == [.int32(-1)], "outside the view")
        let range = try #require(bridge.text("GetRangeExtents", [.int32(Int32(starts[1])), .int32(Int32(starts[2])), .uint32(1)], node)).map(int)
        #expect(range[1] == box[1] && range[3] == box[3], "one line's range is one line high: \(range)")
        // Scrolled, the boxes move with the text.
        textView.contentOffset = CGPoint(x: 0, y: textView.lineHeight)
        let scrolled = try #require(bridge.text("GetCharacterExtents", [.int32(Int32(offset)), .uint32(1)], node)).map(int)
        #expect(scrolled[1] == box[1] - Int(textView.lineHeight))
    }

    @Test("The caret and selection are read and set; EditableText inserts and deletes as typing would, one undo step each")
    func caretSelectionAndEditing() {
        #expect(bridge.text("SetCaretOffset", [.int32(4)], node) == [.boolean(true)])
        #expect(textView.selectedRange == 4..<4)
        #expect(bridge.text("SetSelection", [.int32(0), .int32(4), .int32(9)], node) == [.boolean(true)])
        #expect(textView.selectedRange == 4..<9)
        #expect(bridge.text("GetSelection", [.int32(0)], node) == [.int32(4), .int32(9)])
        #expect(bridge.text("GetNSelections", [], node) == [.int32(1)])
        let count = Self.text.count
        #expect(bridge.editableText("InsertText", [.int32(Int32(count)), .string("\nthird"), .int32(6)], node) == [.boolean(true)])
        #expect(textView.text == Self.text + "\nthird")
        #expect(textView.lineStarts.count >= 4, "the new line is laid out")
        #expect(bridge.editableText("DeleteText", [.int32(0), .int32(4)], node) == [.boolean(true)])
        #expect(textView.text.hasPrefix("quick brown"))
        #expect(textView.editor.canUndo)
        #expect(bridge.text("GetText", [.int32(0), .int32(-1)], node) == [.string(textView.text)])
    }
}
