import Foundation

/// The window's frames: the frame-tick clients (display links and timers ticked on its
/// frames) and the commits that asked for no frame (unpaced commits).
extension Window {
    /// Ticks `client` (a display link or a timer) on this window's frames.
    func add(_ client: any FrameTickClient) {
        scheduler.add(client)
    }

    /// Stops ticking `client`.
    func remove(_ client: any FrameTickClient) {
        scheduler.remove(client)
    }

    /// A display link or timer paused, resumed or changed its rate: the scheduler
    /// re-plans its frames.
    func displayLinkDidChangeState() {
        scheduler.clientDidChangeState()
    }

    /// How many of the commits asked for no frame callback (unpaced commits, made after a
    /// quiet spell on a surface that ``Surface/allowsUnpacedCommits``).
    public var unpacedCommitCount: Int { scheduler.unpacedCommitCount }

    /// Whether the last commit went out without a frame request (after a quiet spell, on a
    /// surface that ``Surface/allowsUnpacedCommits``) and no frame callback has come since:
    /// the compositor has the commit but has not said that it showed it.
    public var hasUnansweredCommit: Bool { scheduler.lastCommitWasUnpaced }

    /// Asks the compositor for a frame after an unanswered commit (``hasUnansweredCommit``),
    /// with a bare commit, so that its callback tells when the commit has been shown: a
    /// script's `wait idle` waits for it, as it waits for the callback of any other commit.
    public func requestFrameForUnansweredCommit() {
        scheduler.requestFrameAfterUnpacedCommit()
    }
}
