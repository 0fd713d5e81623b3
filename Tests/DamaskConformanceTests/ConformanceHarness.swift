// Imports only DamaskViews: it brings Foundation and DamaskGraphics with it.
import DamaskViews

/// A window on an in-memory surface whose frame callbacks the test answers.
@MainActor struct ConformanceHarness {
    let surface: MemorySurface
    let window: Window

    init(width: CGFloat = 100, height: CGFloat = 80, scale: CGFloat = 1) {
        surface = MemorySurface(size: CGSize(width: width, height: height), scale: scale)
        window = Window(surface: surface)
        window.flashesDamage = false
    }

    /// The window's content view.
    var root: View { window.contentView }

    /// The presented pixel at (x, y) in buffer pixels.
    func pixel(_ x: Int, _ y: Int) -> Color? {
        surface.presentedBitmap?.color(x: x, y: y)
    }

    /// Runs the pending pass now and answers its frame callback: whatever was changed
    /// before is on screen when this returns.
    func present() {
        window.flush()
        surface.fireFrame()
    }
}

extension Color {
    /// Whether the two colours are equal to 8-bit precision.
    func isSame(as other: Color?) -> Bool {
        guard let other else { return false }
        return premultipliedARGB32 == other.premultipliedARGB32
    }
}
