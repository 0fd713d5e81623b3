import DamaskGraphics
import DamaskTestSupport
import Dispatch
import Foundation
import Testing

@testable import DamaskViews

/// The root of the window suites in this module. It carries no gate trait: each suite
/// inside carries `.shared` (its tests run in parallel with each other) or `.exclusive`
/// (alone), since a shared scope cannot contain an exclusive one. Exclusive are the suites
/// that touch process-wide state another test's windows would meet: `Transaction` (its
/// flush reaches every open window, an open transaction holds every window changed
/// meanwhile), the `WindowRegistry` read by the accessibility API, animation blocks and
/// completion groups, and wall-clock bounds (Pacing). See docs/testing.md.
@Suite(.timeLimit(.minutes(5))) @MainActor struct ViewsTests {}

/// Waits for one turn of the main queue: everything queued before (display passes
/// included) has run when this returns.
@MainActor func nextTurn() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// A view that fills its bounds with ``color``, then runs ``onDraw``, and records every draw.
final class SolidView: View {
    var color: Color = .red
    private(set) var drawnRects: [CGRect] = []
    var onDraw: ((CGRect) -> Void)?

    var drawCount: Int { drawnRects.count }

    convenience init(frame: CGRect, color: Color) {
        self.init(frame: frame)
        self.color = color
    }

    override func draw(_ rect: CGRect) {
        drawnRects.append(rect)
        if let context = GraphicsContext.current {
            context.setFillColor(color)
            context.fill(bounds)
        }
        onDraw?(rect)
    }
}

/// A view that does not override `draw(_:)`.
final class PlainView: View {}

/// A window on a memory surface with a manual frame clock.
@MainActor struct Harness {
    let surface: MemorySurface
    let window: Window

    init(
        width: CGFloat = 100, height: CGFloat = 80, scale: CGFloat = 1, capacity: Int = 3,
        release: MemorySurface.ReleasePolicy = .immediate
    ) {
        surface = MemorySurface(
            size: CGSize(width: width, height: height), scale: scale, bufferCapacity: capacity,
            releasePolicy: release)
        window = Window(surface: surface)
        window.flashesDamage = false
    }

    var root: View { window.contentView }

    /// The commits made so far.
    var commitCount: Int { surface.commits.count }

    /// The damage of the last commit.
    var lastDamage: Region { surface.commits.last?.damage ?? Region() }

    /// The screen pixel at (x, y), as a colour.
    func screenColor(_ x: Int, _ y: Int) -> Color? {
        surface.presentedBitmap?.color(x: x, y: y)
    }

    /// Fires the pending frame callback (runs the pass it was waiting for).
    @discardableResult
    func frame() -> Bool { surface.fireFrame() }

    /// Lets pending changes reach the screen: answers the outstanding frame callback if
    /// there is one, or else lets the turn end (running the queued pass).
    func step() async {
        if surface.hasPendingFrameRequest {
            frame()
        } else {
            await nextTurn()
        }
    }

    /// Lets the first pass run and answers its frame callback, so the window is idle.
    func settle() async {
        await nextTurn()
        frame()
    }
}


/// Whether the two bitmaps have identical pixels.
func pixelsEqual(_ a: Bitmap, _ b: Bitmap) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
        let rowA = a.bytes + y * a.bytesPerRow
        let rowB = b.bytes + y * b.bytesPerRow
        if memcmp(rowA, rowB, a.width * 4) != 0 { return false }
    }
    return true
}

/// The pixels where the two same-sized bitmaps differ, as (x, y) pairs.
func differingPixels(_ a: Bitmap, _ b: Bitmap) -> [(Int, Int)] {
    guard !pixelsEqual(a, b) else { return [] }
    var result: [(Int, Int)] = []
    for y in 0..<a.height {
        let rowA = (a.bytes + y * a.bytesPerRow).assumingMemoryBound(to: UInt32.self)
        let rowB = (b.bytes + y * b.bytesPerRow).assumingMemoryBound(to: UInt32.self)
        for x in 0..<a.width where rowA[x] != rowB[x] {
            result.append((x, y))
        }
    }
    return result
}

extension Color {
    /// Whether the two colours are the same to 8-bit precision.
    func matches(_ other: Color?) -> Bool {
        guard let other else { return false }
        return premultipliedARGB32 == other.premultipliedARGB32
    }
}

/// The name the views tests give the shared generator (``SeededRandom``).
typealias SeededGenerator = SeededRandom
