import DamaskGraphics
import Foundation

/// How a Wayland surface picks its buffer scale and caps its buffer size: the outputs it is
/// on, the compositor's preferred fractional scale, the accepted range, and the pixel caps;
/// and which outputs' refresh rate paces it.
///
/// A value type with no protocol objects (like ``ToplevelSizing``), so its rules can be
/// pinned without a compositor. The rules:
/// - A preferred fractional scale (`wp_fractional_scale_v1.preferred_scale`) wins; a
///   preferred scale of 0 is no preference at all.
/// - Otherwise the largest integer scale of the outputs the surface entered; before it
///   entered any (or after it left them all), the largest of every output.
/// - Every scale off the wire is clamped to ``range``; one that is not positive or not a
///   number is ignored.
/// - A buffer stays within ``maximumPixelDimension`` a side and ``maximumPixelCount`` in
///   all at the scale in effect (``clamped(_:scale:)``).
/// - The refresh interval is the fastest entered output's (of every output before the
///   surface entered one), 60 Hz when none gave a plausible rate.
///
/// ``SurfaceScaler`` holds one and feeds it what the compositor says.
struct ScalePolicy: Equatable, Sendable {
    /// Largest buffer side accepted from a configure.
    static let maximumPixelDimension = 16_384
    /// Largest buffer area (pixels) accepted from a configure, an 8K screen's worth.
    static let maximumPixelCount = 7_680 * 4_320
    /// The buffer scales used; scales off the wire are clamped to it.
    static let range: ClosedRange<CGFloat> = 0.25...8

    /// The outputs the surface is on, by proxy address.
    private(set) var enteredOutputs: Set<Int> = []
    /// The compositor's preferred fractional scale, already sanitized; nil when it sent none
    /// (or sent 0).
    private(set) var preferredFractionalScale: CGFloat?

    /// `proposed` clamped to ``range``; nil for a scale that is not positive or not a number.
    static func sanitized(_ proposed: CGFloat) -> CGFloat? {
        guard proposed > 0, proposed.isFinite else { return nil }
        return min(max(proposed, range.lowerBound), range.upperBound)
    }

    /// Pixels for `points` at `scale`, rounded half away from zero (at least 1).
    static func pixels(_ points: CGFloat, _ scale: CGFloat) -> Int {
        max(1, Int((points * scale).rounded(.toNearestOrAwayFromZero)))
    }

    /// `size` (points) limited so that its buffer at `scale` stays within
    /// ``maximumPixelDimension`` a side and ``maximumPixelCount`` in all, keeping the aspect.
    static func clamped(_ size: CGSize, scale: CGFloat) -> CGSize {
        precondition(scale > 0 && scale.isFinite, "a buffer scale must be positive and finite, not \(scale)")
        let limit = (CGFloat(maximumPixelDimension) / scale).rounded(.down)
        var result = CGSize(width: min(max(size.width, 1), limit), height: min(max(size.height, 1), limit))
        let area = result.width * result.height * scale * scale
        if area > CGFloat(maximumPixelCount) {
            let shrink = (CGFloat(maximumPixelCount) / area).squareRoot()
            result = CGSize(
                width: max(1, (result.width * shrink).rounded(.down)), height: max(1, (result.height * shrink).rounded(.down)))
        }
        // Pixels are rounded from points × scale: trim a point until the rounded area fits.
        while pixels(result.width, scale) * pixels(result.height, scale) > maximumPixelCount,
            result.width > 1 || result.height > 1
        {
            if result.width >= result.height { result.width -= 1 } else { result.height -= 1 }
        }
        assert(pixels(result.width, scale) <= maximumPixelDimension && pixels(result.height, scale) <= maximumPixelDimension)
        return result
    }

    /// The surface entered the output at `key`.
    mutating func enter(output key: Int) {
        enteredOutputs.insert(key)
    }

    /// The surface left the output at `key`.
    mutating func leave(output key: Int) {
        enteredOutputs.remove(key)
    }

    /// Forgets entered outputs that no longer exist.
    mutating func keepOutputs(_ existing: Set<Int>) {
        enteredOutputs.formIntersection(existing)
    }

    /// Records `wp_fractional_scale_v1.preferred_scale` (in 120ths); 0 withdraws it.
    mutating func setPreferredScale(wireValue: UInt32) {
        preferredFractionalScale = Self.sanitized(CGFloat(wireValue) / 120)
    }

    /// The scale to use with `outputs` (each output's proxy address and integer scale).
    func scale(outputs: [(key: Int, scale: Int32)]) -> CGFloat {
        if let preferredFractionalScale { return preferredFractionalScale }
        let entered = outputs.filter { enteredOutputs.contains($0.key) }
        let candidates = entered.isEmpty ? outputs : entered
        let chosen = Self.sanitized(CGFloat(candidates.map(\.scale).max() ?? 1)) ?? 1
        assert(Self.range.contains(chosen), "scale \(chosen) outside \(Self.range)")
        return chosen
    }

    /// The refresh interval in milliseconds of the fastest of `outputs` (each output's key
    /// and `wl_output.mode` refresh rate in millihertz) the surface entered, or of every
    /// output before it entered one; a 60 Hz display's when no output gave a rate (a rate
    /// outside 1…1000 Hz counts as none).
    func refreshInterval(outputs: [(key: Int, millihertz: Int32)]) -> Double {
        // A loop, not `filter`/`map`: a frame asks for this, and closures handed to the
        // standard library from main-actor code are checked for their executor per call.
        var hasEntered = false
        var fastestEntered: Int32 = 0, fastest: Int32 = 0
        for output in outputs {
            let isEntered = enteredOutputs.contains(output.key)
            hasEntered = hasEntered || isEntered
            guard (1_000...1_000_000).contains(output.millihertz) else { continue }
            fastest = max(fastest, output.millihertz)
            if isEntered { fastestEntered = max(fastestEntered, output.millihertz) }
        }
        let chosen = hasEntered ? fastestEntered : fastest
        return chosen > 0 ? 1_000_000 / Double(chosen) : 1000.0 / 60
    }

    /// The part of `region` (surface points) that is opaque in buffer pixels at `scale`:
    /// clipped to the surface, and at a fractional scale each edge inside the surface moved
    /// in by a point, because it falls inside buffer pixels that are only partly covered.
    static func opaqueRegion(_ region: Region, surfaceSize: CGSize, scale: CGFloat) -> Region {
        let surfaceRect = CGRect(origin: .zero, size: surfaceSize)
        let opaque = region.intersection(Region(surfaceRect))
        guard scale != scale.rounded() else { return opaque }
        return Region(rects: opaque.rects.compactMap { rect in
            let inset = CGRect(
                x: rect.minX + (rect.minX > 0 ? 1 : 0), y: rect.minY + (rect.minY > 0 ? 1 : 0),
                width: rect.width - (rect.minX > 0 ? 1 : 0) - (rect.maxX < surfaceRect.maxX ? 1 : 0),
                height: rect.height - (rect.minY > 0 ? 1 : 0) - (rect.maxY < surfaceRect.maxY ? 1 : 0))
            return inset.width > 0 && inset.height > 0 ? inset : nil
        })
    }
}
