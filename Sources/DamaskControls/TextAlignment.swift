/// Where lines of text sit across their view's width (UIKit's `NSTextAlignment`).
public enum TextAlignment: Sendable, Equatable {
    /// Left edge.
    case left
    /// Centred.
    case center
    /// Right edge.
    case right
    /// The line's own direction: left for left-to-right text, right for Arabic or Hebrew.
    case natural
}
