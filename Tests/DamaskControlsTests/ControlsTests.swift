import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Dispatch
import Testing

@testable import DamaskControls

/// The root of every suite in this module: serialized and exclusive across the test
/// process, because the display cycle runs on the main queue and ``Appearance/current`` is
/// process-wide.
@Suite(.serialized, .exclusive) @MainActor struct ControlsTests {}

/// A window on a memory surface with a manual frame clock, and input fed through
/// `Window.dispatch(_:)` as the Wayland seat and the script player feed it.
@MainActor struct ControlHarness {
    let surface: MemorySurface
    let window: Window

    init(width: CGFloat = 100, height: CGFloat = 80, scale: CGFloat = 1) {
        surface = MemorySurface(size: CGSize(width: width, height: height), scale: scale)
        window = Window(surface: surface)
        window.flashesDamage = false
    }

    var root: View { window.contentView }

    /// The damage of the last commit.
    var lastDamage: Region { surface.commits.last?.damage ?? Region() }

    /// The number of commits so far.
    var commitCount: Int { surface.commits.count }

    /// Lets the first pass run and answers its frame callback, so the window is idle.
    func settle() async {
        await nextTurn()
        surface.fireFrame()
    }

    /// Lets pending changes reach the screen.
    func step() async {
        if surface.hasPendingFrameRequest {
            surface.fireFrame()
        } else {
            await nextTurn()
        }
    }

    func move(to point: CGPoint) {
        window.dispatch(.pointer(PointerEvent(kind: .moved, location: point)))
    }

    func press(at point: CGPoint) {
        window.dispatch(.pointer(PointerEvent(kind: .moved, location: point)))
        window.dispatch(.pointer(PointerEvent(kind: .down, location: point, button: .left, clickCount: 1)))
    }

    func release(at point: CGPoint) {
        window.dispatch(.pointer(PointerEvent(kind: .up, location: point, button: .left, clickCount: 1)))
    }

    func click(at point: CGPoint) {
        press(at: point)
        release(at: point)
    }

    func key(_ keysym: UInt32, text: String = "", isRepeat: Bool = false, modifiers: ModifierFlags = []) {
        window.dispatch(.key(KeyEvent(phase: .down, keysym: keysym, text: text, modifiers: modifiers, isRepeat: isRepeat)))
        window.dispatch(.key(KeyEvent(phase: .up, keysym: keysym, modifiers: modifiers)))
    }

    /// Types `text` character by character, as key presses carrying it.
    func type(_ text: String) {
        for character in text {
            let scalar = character.unicodeScalars.first!.value
            key(scalar < 0x100 ? scalar : 0x0100_0000 + scalar, text: String(character))
        }
    }

    /// The screen as last presented.
    func screen() throws -> Bitmap {
        try #require(surface.presentedBitmap)
    }
}

/// Waits for one turn of the main queue.
@MainActor func nextTurn() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Runs `body` with ``Appearance/current`` set to `appearance`, restoring light after.
@MainActor func with(_ appearance: Appearance, _ body: () async throws -> Void) async rethrows {
    Appearance.current = appearance
    defer { Appearance.current = .light }
    try await body()
}

extension Color {
    /// Whether the two colours' 8-bit premultiplied channels differ by at most 1 (the
    /// rounding of a colour into a pixel and back).
    func isClose(to other: Color) -> Bool {
        let a = premultipliedARGB32, b = other.premultipliedARGB32
        return stride(from: 0, to: 32, by: 8).allSatisfy { shift in
            abs(Int((a >> UInt32(shift)) & 0xff) - Int((b >> UInt32(shift)) & 0xff)) <= 1
        }
    }
}
