import DamaskGraphics
import Foundation

/// The demo's colours, fonts and metrics, in one place so every scene looks alike.
///
/// Main-actor: fonts are shared objects created on first use.
@MainActor enum DemoStyle {
    /// The window behind everything.
    static let windowBackground = Color(red: 0.93, green: 0.94, blue: 0.96)
    /// The sidebar's background.
    static let sidebarBackground = Color(red: 0.17, green: 0.20, blue: 0.26)
    /// The selected sidebar row.
    static let sidebarSelection = Color(red: 0.26, green: 0.47, blue: 0.85)
    /// The sidebar row under the pointer (when it is not the selected one): a faint lift
    /// of the background, well apart from the selection's accent.
    static let sidebarHover = Color(red: 0.25, green: 0.29, blue: 0.37)
    /// Primary text.
    static let text = Color(red: 0.13, green: 0.15, blue: 0.19)
    /// Secondary text.
    static let secondaryText = Color(red: 0.38, green: 0.41, blue: 0.47)
    /// Text on the dark sidebar.
    static let sidebarText = Color(red: 0.88, green: 0.90, blue: 0.94)
    /// A button's face.
    static let buttonFace = Color(red: 0.26, green: 0.47, blue: 0.85)
    /// A button's face while the pointer is over it.
    static let buttonHovered = Color(red: 0.36, green: 0.57, blue: 0.93)
    /// A pressed button's face.
    static let buttonPressed = Color(red: 0.17, green: 0.33, blue: 0.65)
    /// Panels that hold a demonstrated view.
    static let panel = Color.white

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
