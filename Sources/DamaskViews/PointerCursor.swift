/// The pointer image a view asks for while the pointer is over it (see ``View/cursor``).
///
/// A platform layer maps it to an image: DamaskWayland's window frame shows the matching
/// cursor-theme shape. A plain value.
public enum PointerCursor: Sendable, Equatable {
    /// The ordinary arrow.
    case arrow
    /// A hand, over something clickable.
    case pointingHand
    /// An I-beam, over editable text.
    case text
}
