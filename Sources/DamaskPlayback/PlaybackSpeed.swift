/// How the player treats wall-clock waits (`wait 250ms`).
public enum PlaybackSpeed: Sendable, Hashable {
    /// Wall-clock waits are skipped (they still advance the event clock): for tests and CI.
    case fast
    /// Wall-clock waits really wait, so a person can watch.
    case realtime
}
