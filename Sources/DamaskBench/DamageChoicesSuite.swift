import DamaskGraphics
import DamaskViews
import Foundation

/// The measurements behind two choices of the damage pipeline:
///
/// - **What a reused buffer missed** is repainted (composited again) rather than copied
///   forward from the front buffer as foot does. Measured: compositing a region of the
///   1920×1080 bench scene (`Layer.render`, the window's own compositor, clipped to the
///   region) against copying the same region from another buffer (`Bitmap.copyPixels`).
/// - **The damage rect cap** (16, then one bounding box): repainting N scattered 8×8
///   rects one by one against repainting their bounding box.
///
/// Main-actor isolated: it builds a window.
@MainActor struct DamageChoicesSuite {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    /// Runs both measurements.
    func run() throws {
        let scene = DamageScene(width: 1920, height: 1080)
        let back = try Bitmap(width: 1920, height: 1080)
        let front = try Bitmap(width: 1920, height: 1080)
        scene.window.render(to: front)

        for side in [64, 512] {
            let region = Region(CGRect(x: 300, y: 300, width: side, height: side))
            let repaint = { composite(scene, into: back, clippedTo: region) }
            let copyForward = { back.copyPixels(from: front, in: region) }
            add("missed \(side)x\(side): repaint", sampler.compare(repaint, against: copyForward),
                baseline: "copy forward from the front buffer")
        }

        var generator = SplitMix(seed: 0xDA3A5)
        for count in [4, 16, 64, 256] {
            let rects = (0..<count).map { _ in
                CGRect(x: Int.random(in: 0..<1900, using: &generator), y: Int.random(in: 40..<1060, using: &generator), width: 8, height: 8)
            }
            let separate = Region(rects: rects)
            let box = Region(separate.boundingBox)
            add("\(count) scattered 8x8 rects: repaint each", sampler.compare(
                { composite(scene, into: back, clippedTo: separate) },
                against: { composite(scene, into: back, clippedTo: box) }),
                baseline: "repaint their bounding box")
        }
    }

    /// Composites the scene's layer tree into `bitmap`, clipped to `region` (device pixels).
    private func composite(_ scene: DamageScene, into bitmap: Bitmap, clippedTo region: Region) {
        let context = GraphicsContext(bitmap: bitmap)
        context.clip(to: region)
        scene.window.layer.render(in: context)
    }

    private func add(
        _ name: String, _ result: (subject: Statistics, baseline: Statistics, ratio: Statistics),
        baseline: String
    ) {
        report.add(
            Figure(
                suite: "damage", name: name, metric: "time", unit: "µs",
                value: result.subject.scaled(by: 1e-3), baseline: baseline,
                baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio))
    }
}

/// A deterministic generator (SplitMix64), so the scattered rects are the same every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
