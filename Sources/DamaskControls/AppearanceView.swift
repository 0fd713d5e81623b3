import DamaskGraphics
import DamaskViews

/// A plain container whose subtree draws in ``overrideAppearance`` (a panel in dark mode
/// inside a light window), with the appearance's window background behind it. Main-actor.
open class AppearanceView: View, AppearanceOverriding, AppearanceFollowing {
    open var overrideAppearance: Appearance? {
        didSet { if overrideAppearance != oldValue { propagateAppearanceChange() } }
    }

    /// Creates a container in `frame` drawing its subtree in `appearance`.
    public init(frame: CGRect = .zero, appearance: Appearance? = nil) {
        overrideAppearance = appearance
        super.init(frame: frame)
        backgroundColor = effectiveAppearance.palette.windowBackground
        AppearanceRegistry.shared.register(self)
    }

    /// Follows the appearance with its background.
    open func appearanceDidChange() {
        backgroundColor = effectiveAppearance.palette.windowBackground
    }
}
