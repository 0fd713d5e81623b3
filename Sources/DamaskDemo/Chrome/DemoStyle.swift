import DamaskControls
import DamaskGraphics
import Foundation

/// The demo's colours, fonts and metrics, in one place so every scene looks alike.
///
/// The colours the controls share come from the current appearance's ``Palette`` (the
/// light palette is the demo's original look), and so do the panels that hold the
/// demonstrated views; the sidebar is dark in both appearances.
/// Main-actor: fonts are shared objects created on first use.
@MainActor enum DemoStyle {
    /// The window behind everything.
    static var windowBackground: Color { Palette.current.windowBackground }
    /// The sidebar's background.
    static let sidebarBackground = Color(red: 0.17, green: 0.20, blue: 0.26)
    /// The selected sidebar row.
    static let sidebarSelection = Color(red: 0.26, green: 0.47, blue: 0.85)
    /// The sidebar row under the pointer (when it is not the selected one): a faint lift
    /// of the background, well apart from the selection's accent.
    static let sidebarHover = Color(red: 0.25, green: 0.29, blue: 0.37)
    /// Primary text.
    static var text: Color { Palette.current.text }
    /// Secondary text.
    static var secondaryText: Color { Palette.current.secondaryText }
    /// Text on the dark sidebar.
    static let sidebarText = Color(red: 0.88, green: 0.90, blue: 0.94)
    /// Panels that hold a demonstrated view.
    static var panel: Color { Palette.current.panel }
    /// Thin lines and strokes drawn on a panel: dark grey on white, light grey on dark.
    static var panelStroke: Color { Appearance.current == .light ? .darkGray : Color(white: 0.75) }
    /// Faint lines on a panel (guides, diagonals).
    static var panelGuide: Color { Appearance.current == .light ? Color(white: 0.75) : Color(white: 0.4) }
    /// A recessed area inside a panel (where a mirrored layer's contents show).
    static var panelWell: Color { Appearance.current == .light ? Color(white: 0.92) : Color(white: 0.24) }

    /// Scene titles.
    static let titleFont = Font.system(size: 22, weight: .bold)
    /// Body text.
    static let bodyFont = Font.system(size: 13)
    /// Small print: counters and captions.
    static let captionFont = Font.system(size: 12)
    /// Button titles and sidebar rows.
    static let buttonFont = Font.system(size: 13, weight: .bold)

    /// The sidebar's width in points.
    static let sidebarWidth: CGFloat = 180
    /// The scenes' left and right margin in points.
    static let margin: CGFloat = 24
}
