import DamaskGraphics
import Foundation
import Testing

@testable import DamaskWayland

/// The scale rules of a Wayland surface and the refresh interval of its outputs, without a
/// compositor (the wire side is pinned by `ScaleTests` and `HostileCompositorTests`).
@Suite("Scale policy rules", .timeLimit(.minutes(5)))
struct ScalePolicyTests {
    /// Two outputs: `a` at scale 1, 60 Hz; `b` at scale 2, 144 Hz.
    private let a = 0x1000, b = 0x2000
    private var scales: [(key: Int, scale: Int32)] { [(key: a, scale: 1), (key: b, scale: 2)] }
    private var rates: [(key: Int, millihertz: Int32)] { [(key: a, millihertz: 60_000), (key: b, millihertz: 144_000)] }

    @Test("Before entering an output the largest output scale applies; once in, the largest of the outputs entered; after leaving them all, the largest again")
    func enteredOutputsChooseTheScale() {
        var policy = ScalePolicy()
        #expect(policy.scale(outputs: scales) == 2)
        #expect(policy.scale(outputs: []) == 1)
        policy.enter(output: a)
        #expect(policy.scale(outputs: scales) == 1)
        policy.enter(output: b)
        #expect(policy.scale(outputs: scales) == 2)
        policy.leave(output: b)
        #expect(policy.scale(outputs: scales) == 1)
        policy.leave(output: a)
        #expect(policy.scale(outputs: scales) == 2)
    }

    @Test("An output that went away is forgotten: the surface on it alone falls back to every output")
    func goneOutputsAreForgotten() {
        var policy = ScalePolicy()
        policy.enter(output: b)
        policy.keepOutputs([a])
        #expect(policy.enteredOutputs.isEmpty)
        #expect(policy.scale(outputs: [(key: a, scale: 3)]) == 3)
    }

    @Test("A preferred fractional scale wins over the outputs, is clamped to 0.25…8, and 0 withdraws it")
    func preferredScaleWins() {
        var policy = ScalePolicy()
        policy.enter(output: a)
        policy.setPreferredScale(wireValue: 150)  // 1.25
        #expect(policy.scale(outputs: scales) == 1.25)
        policy.setPreferredScale(wireValue: 0xFFFF_FFFF)
        #expect(policy.scale(outputs: scales) == 8)
        policy.setPreferredScale(wireValue: 1)  // 1/120
        #expect(policy.scale(outputs: scales) == 0.25)
        policy.setPreferredScale(wireValue: 0)
        #expect(policy.preferredFractionalScale == nil)
        #expect(policy.scale(outputs: scales) == 1)
    }

    @Test("Output scales off the wire are clamped to 0.25…8; a scale that is not positive is ignored")
    func outputScalesAreSanitized() {
        let policy = ScalePolicy()
        #expect(policy.scale(outputs: [(key: a, scale: 1000)]) == 8)
        #expect(policy.scale(outputs: [(key: a, scale: 0)]) == 1)
        #expect(policy.scale(outputs: [(key: a, scale: -3)]) == 1)
        #expect(ScalePolicy.sanitized(.nan) == nil && ScalePolicy.sanitized(.infinity) == nil)
    }

    @Test("The refresh interval is the fastest entered output's, every output's before entering one, 60 Hz without a plausible rate")
    func refreshInterval() {
        var policy = ScalePolicy()
        #expect(policy.refreshInterval(outputs: rates) == 1_000_000.0 / 144_000)
        policy.enter(output: a)
        #expect(policy.refreshInterval(outputs: rates) == 1_000_000.0 / 60_000)
        policy.enter(output: b)
        #expect(policy.refreshInterval(outputs: rates) == 1_000_000.0 / 144_000)
        #expect(ScalePolicy().refreshInterval(outputs: []) == 1000.0 / 60)
        // 0 (not said), below 1 Hz and above 1000 Hz count as no rate.
        let bogus: [(key: Int, millihertz: Int32)] = [(key: a, millihertz: 0), (key: b, millihertz: 2_000_000)]
        #expect(ScalePolicy().refreshInterval(outputs: bogus) == 1000.0 / 60)
        #expect(ScalePolicy().refreshInterval(outputs: [(key: a, millihertz: 999)]) == 1000.0 / 60)
        #expect(ScalePolicy().refreshInterval(outputs: [(key: a, millihertz: 1_000)]) == 1000)
        // On an output without a plausible rate: 60 Hz, not another output's rate.
        var onBogus = ScalePolicy()
        onBogus.enter(output: a)
        #expect(onBogus.refreshInterval(outputs: [(key: a, millihertz: 0), (key: b, millihertz: 144_000)]) == 1000.0 / 60)
    }

    @Test("A bogus size is clamped to 16,384 px a side and an 8K screen's pixels in all (the area cap keeping its aspect), at any scale")
    func sizesAreClampedToTheCaps() {
        for scale in [1.0, 1.25, 2, 8] {
            // 12,000 × 6,000 px: within the side cap, over the area cap.
            let size = ScalePolicy.clamped(CGSize(width: 12_000 / scale, height: 6_000 / scale), scale: scale)
            let (w, h) = (ScalePolicy.pixels(size.width, scale), ScalePolicy.pixels(size.height, scale))
            #expect(w <= ScalePolicy.maximumPixelDimension && h <= ScalePolicy.maximumPixelDimension, "at \(scale)")
            #expect(w * h <= ScalePolicy.maximumPixelCount, "at \(scale)")
            #expect(abs(size.width / size.height - 2) < 0.01, "aspect at \(scale): \(size)")
            // Within the caps, nothing is lost to them.
            #expect(w * h > ScalePolicy.maximumPixelCount * 99 / 100, "at \(scale): \(w)×\(h)")
        }
        let huge = ScalePolicy.clamped(CGSize(width: 100_000, height: 100_000), scale: 3)
        #expect(ScalePolicy.pixels(huge.width, 3) * ScalePolicy.pixels(huge.height, 3) <= ScalePolicy.maximumPixelCount)
        #expect(ScalePolicy.clamped(CGSize(width: 800, height: 600), scale: 2) == CGSize(width: 800, height: 600))
        #expect(ScalePolicy.clamped(CGSize(width: 0, height: -5), scale: 1) == CGSize(width: 1, height: 1))
    }

    @Test("The opaque region is clipped to the surface, and at a fractional scale its inner edges move in by a point")
    func opaqueRegionAtFractionalScale() {
        let size = CGSize(width: 100, height: 80)
        let region = Region(CGRect(x: 10, y: 0, width: 200, height: 50))
        #expect(ScalePolicy.opaqueRegion(region, surfaceSize: size, scale: 2).rects == [CGRect(x: 10, y: 0, width: 90, height: 50)])
        // Left edge (10) and bottom edge (50) are inside the surface; top and right are its edges.
        #expect(ScalePolicy.opaqueRegion(region, surfaceSize: size, scale: 1.5).rects == [CGRect(x: 11, y: 0, width: 89, height: 49)])
        let sliver = Region(CGRect(x: 10, y: 10, width: 2, height: 2))
        #expect(ScalePolicy.opaqueRegion(sliver, surfaceSize: size, scale: 1.25).isEmpty)
    }

    @Test("Shadow insets: the surface is the window plus the insets (the window at least 1×1), and back")
    func windowAndSurfaceSizes() {
        let insets = WindowInsets(top: 4, left: 12, bottom: 20, right: 12)
        let window = CGSize(width: 300, height: 200)
        let surface = insets.surfaceSize(forWindowSize: window)
        #expect(surface == CGSize(width: 324, height: 224))
        #expect(insets.windowSize(forSurfaceSize: surface) == window)
        #expect(insets.surfaceSize(forWindowSize: .zero) == CGSize(width: 25, height: 25))
    }
}
