/// A palette colour by its use, for views that take their colour from the appearance
/// (UIKit's `.label`, `.secondaryLabel` dynamic colours).
public enum ColorRole: Sendable, Equatable {
    /// Primary text.
    case text
    /// Captions and other secondary text.
    case secondaryText
    /// Text on the accent colour.
    case textOnAccent
    /// The accent.
    case accent
}
