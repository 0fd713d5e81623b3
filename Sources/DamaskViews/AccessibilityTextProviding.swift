import Foundation

/// An accessible view or element that shows text with a caret: a text field (UIKit reads
/// it through `UITextInput`; AT-SPI through its Text and EditableText interfaces).
/// Main-actor.
///
/// Offsets count characters (`Character`, grapheme clusters) from the start of
/// ``accessibilityText``. After a change of the text or the caret, post
/// ``AccessibilityNotification/textChanged(_:)`` or
/// ``AccessibilityNotification/selectionChanged(_:)``.
@MainActor public protocol AccessibilityTextProviding: AnyObject {
    /// The whole text.
    var accessibilityText: String { get }
    /// The selected characters; an empty range is the caret's offset.
    var accessibilitySelectedRange: Range<Int> { get }
    /// Whether ``replaceAccessibilityText(in:with:)`` may change the text.
    var isAccessibilityTextEditable: Bool { get }
    /// Selects `range` (clamped to the text); an empty range places the caret.
    func setAccessibilitySelectedRange(_ range: Range<Int>)
    /// Replaces the characters in `range` with `text`, as if the user typed it; returns
    /// whether the text changed. Default: refuses.
    func replaceAccessibilityText(in range: Range<Int>, with text: String) -> Bool
    /// The rect of the character at `offset`, in the element's window's coordinates
    /// (`nil`: not known).
    func accessibilityFrame(ofCharacterAt offset: Int) -> CGRect?
    /// Whether the text has several lines (a text view: AT-SPI's multi-line state) rather
    /// than one (a field). Default: one.
    var isAccessibilityTextMultiline: Bool { get }
    /// The line holding `offset` as it is shown (a wrapped paragraph is several lines),
    /// with the line break that ends it; nil (the default): the whole text is one line.
    func accessibilityLineRange(containing offset: Int) -> Range<Int>?
    /// The offset of the character under `point` (window coordinates), nil when none is.
    /// Default: the first character whose ``accessibilityFrame(ofCharacterAt:)`` holds it.
    func accessibilityCharacterOffset(at point: CGPoint) -> Int?
}

extension AccessibilityTextProviding {
    public var isAccessibilityTextEditable: Bool { false }
    public func replaceAccessibilityText(in range: Range<Int>, with text: String) -> Bool { false }
    public func accessibilityFrame(ofCharacterAt offset: Int) -> CGRect? { nil }
    public var isAccessibilityTextMultiline: Bool { false }
    public func accessibilityLineRange(containing offset: Int) -> Range<Int>? { nil }
    public func accessibilityCharacterOffset(at point: CGPoint) -> Int? {
        (0..<accessibilityText.count).first { accessibilityFrame(ofCharacterAt: $0)?.contains(point) ?? false }
    }
}
