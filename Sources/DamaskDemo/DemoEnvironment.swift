import Foundation

/// What the scenes need to know about how the demo runs.
///
/// A value type, `Sendable`; made once by ``DemoApplication`` and handed to every scene.
struct DemoEnvironment: Sendable {
    /// Whether runs must be reproducible byte for byte (`--headless` with `--play`):
    /// wall-clock readings are then left out of every pixel and log line, and simulated
    /// latency is counted on the frame clock only.
    var isDeterministic = false
    /// The FASTA file the chromosome scene loads (`--sequence`), or `nil` for the sample.
    var sequencePath: String?
    /// How long the chromosome scene's simulated network takes, in milliseconds.
    var networkLatencyMilliseconds: UInt32 = 1_200
    /// The scale of the window a scene is made for (``DemoRootView`` sets it when it is in a
    /// window), so a scene that displays a layer before it joins the window (the layers
    /// scene's seed, as UIKit code sets `contentsScale` to the screen's) draws it once, at
    /// the scale it is shown at, instead of once at 1 and again at the window's.
    var displayScale: CGFloat = 1

    /// Seconds on a monotonic clock, for timing readouts.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `milliseconds` formatted for a readout ("0.42 ms"), or "— ms" when the run is
    /// deterministic (wall-clock time would differ between runs).
    func format(milliseconds: Double) -> String {
        isDeterministic ? "— ms" : String(format: "%.2f ms", milliseconds)
    }
}
