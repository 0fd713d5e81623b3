import DamaskViews

/// Light or dark: the colour scheme the controls draw in (UIKit's `UIUserInterfaceStyle`).
///
/// ``Appearance/current`` is process-wide, as the desktop's setting it follows is: setting it
/// redraws every control alive (each one once, at the next display pass) and runs the
/// ``Appearance/observe(_:)`` handlers, so an application's own views can follow too.
/// Where the value comes from is the application's choice: a fixed one, or the desktop's
/// through `DesktopAppearance` (DamaskAccessibility, which owns the D-Bus connection).
/// Main-actor.
public enum Appearance: String, Sendable, Equatable, CaseIterable {
    /// Dark text on light surfaces.
    case light
    /// Light text on dark surfaces.
    case dark

    /// The appearance every control draws in now; setting a new one redraws them all.
    @MainActor @exclusivity(unchecked) public static var current: Appearance = .light {
        didSet {
            guard current != oldValue else { return }
            AppearanceRegistry.shared.appearanceDidChange(to: current)
        }
    }

    /// Runs `handler` with the new appearance every time ``current`` changes, until the
    /// returned token is released (the caller owns it).
    @MainActor public static func observe(_ handler: @escaping @MainActor (Appearance) -> Void) -> AppearanceObservation {
        AppearanceRegistry.shared.add(handler)
    }

    /// The colours of this appearance.
    public var palette: Palette { self == .light ? .light : .dark }
}
