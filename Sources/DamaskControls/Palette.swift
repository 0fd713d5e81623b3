import DamaskGraphics

/// The colours the controls draw with, one set per ``Appearance``.
///
/// The light palette is the demo's original look (its reference images were made with it);
/// the dark one keeps the same accent and inverts the surfaces, with text contrast above
/// 7:1 on both.
public struct Palette: Sendable, Equatable {
    /// The window behind everything.
    public var windowBackground: Color
    /// Panels and fields that hold content.
    public var panel: Color
    /// Primary text.
    public var text: Color
    /// Secondary text: captions, placeholders.
    public var secondaryText: Color
    /// The accent: a button's face, a slider's fill, a switch that is on, the selection.
    public var accent: Color
    /// The accent under the pointer.
    public var accentHovered: Color
    /// The accent while pressed.
    public var accentPressed: Color
    /// Text on the accent.
    public var textOnAccent: Color
    /// A control that is disabled: its face.
    public var disabledFace: Color
    /// Text of a disabled control.
    public var disabledText: Color
    /// Tracks of sliders, switches and progress bars.
    public var track: Color
    /// A progress bar's fill.
    public var progressFill: Color
    /// The knob of a slider or switch.
    public var knob: Color
    /// A field's border.
    public var border: Color
    /// Selected text's background in a focused field.
    public var selection: Color
    /// Selected text's background in a field without focus.
    public var inactiveSelection: Color
    /// The line between a list's rows.
    public var separator: Color
    /// A scroll view's indicators (translucent: the content shows through).
    public var scrollIndicator: Color

    /// The light palette.
    public static let light = Palette(
        windowBackground: Color(red: 0.93, green: 0.94, blue: 0.96),
        panel: .white,
        text: Color(red: 0.13, green: 0.15, blue: 0.19),
        secondaryText: Color(red: 0.38, green: 0.41, blue: 0.47),
        accent: Color(red: 0.26, green: 0.47, blue: 0.85),
        accentHovered: Color(red: 0.36, green: 0.57, blue: 0.93),
        accentPressed: Color(red: 0.17, green: 0.33, blue: 0.65),
        textOnAccent: .white,
        disabledFace: Color(red: 0.78, green: 0.80, blue: 0.84),
        disabledText: Color(red: 0.55, green: 0.57, blue: 0.62),
        track: .lightGray,
        progressFill: .systemGreen,
        knob: .white,
        border: Color(white: 0.7),
        selection: Color(red: 0.70, green: 0.82, blue: 1.0),
        inactiveSelection: Color(white: 0.86),
        separator: Color(red: 0.85, green: 0.85, blue: 0.87),
        scrollIndicator: Color(red: 0, green: 0, blue: 0, alpha: 0.45))

    /// The dark palette.
    public static let dark = Palette(
        windowBackground: Color(red: 0.11, green: 0.12, blue: 0.14),
        panel: Color(red: 0.17, green: 0.18, blue: 0.21),
        text: Color(red: 0.92, green: 0.93, blue: 0.95),
        secondaryText: Color(red: 0.66, green: 0.69, blue: 0.74),
        accent: Color(red: 0.30, green: 0.53, blue: 0.92),
        accentHovered: Color(red: 0.40, green: 0.62, blue: 0.98),
        accentPressed: Color(red: 0.20, green: 0.38, blue: 0.72),
        textOnAccent: .white,
        disabledFace: Color(red: 0.27, green: 0.29, blue: 0.33),
        disabledText: Color(red: 0.50, green: 0.52, blue: 0.57),
        track: Color(red: 0.32, green: 0.34, blue: 0.38),
        progressFill: Color(red: 0.25, green: 0.75, blue: 0.40),
        knob: Color(red: 0.90, green: 0.91, blue: 0.93),
        border: Color(red: 0.36, green: 0.38, blue: 0.43),
        selection: Color(red: 0.22, green: 0.34, blue: 0.56),
        inactiveSelection: Color(red: 0.30, green: 0.32, blue: 0.36),
        separator: Color(red: 0.26, green: 0.28, blue: 0.32),
        scrollIndicator: Color(red: 1, green: 1, blue: 1, alpha: 0.45))

    /// The colour this palette gives `role`.
    public func color(for role: ColorRole) -> Color {
        switch role {
        case .text: return text
        case .secondaryText: return secondaryText
        case .textOnAccent: return textOnAccent
        case .accent: return accent
        }
    }

    /// The palette of ``Appearance/current``.
    @MainActor public static var current: Palette { Appearance.current.palette }
}
