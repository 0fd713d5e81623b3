/// How a piece of an input method's preedit is drawn (zwp_text_input_v1's `preedit_style`).
///
/// A text field draws them as GTK does: ``selection`` and ``highlight`` on the selection's
/// background, ``active`` with a thick underline, ``incorrect`` with a red underline,
/// ``none`` like committed text, and the others (``default``, ``underline``, ``inactive``)
/// with a thin underline.
public enum PreeditStyle: UInt32, Equatable, Sendable, CaseIterable {
    case `default` = 0
    case none = 1
    case active = 2
    case inactive = 3
    case highlight = 4
    case underline = 5
    case selection = 6
    case incorrect = 7
}
