/// What a `wait` command waits for.
public enum WaitCondition: Hashable, Sendable {
    /// Wall-clock time (`wait 250ms`, `wait 2s`); skipped at `PlaybackSpeed.fast`.
    case duration(milliseconds: Double)
    /// A number of presented frames (`wait frames 3`).
    case frames(Int)
    /// Until the window has nothing dirty and no frame pending (`wait idle`).
    case idle
}
