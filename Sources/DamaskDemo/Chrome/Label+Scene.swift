import DamaskControls
import DamaskGraphics
import Foundation

extension Label {
    /// A left-aligned label for a scene: its frame's width is also its preferred width,
    /// which the scene narrows it to, never beyond (see ``DemoScene``); its colour is the
    /// palette's colour for `role`, so it follows the appearance.
    static func scene(
        frame: CGRect, text: String = "", font: Font = DemoStyle.bodyFont, role: ColorRole = .text
    ) -> Label {
        let label = Label(frame: frame, text: text, font: font)
        label.colorRole = role
        label.textAlignment = .left
        label.preferredMaxLayoutWidth = frame.width
        return label
    }
}
