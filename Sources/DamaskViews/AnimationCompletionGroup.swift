import Dispatch

/// The animations added while a completion block was in force (a transaction's
/// ``Transaction/setCompletionBlock(_:)``, or a ``View/animate(withDuration:delay:options:animations:completion:)``
/// block), and the block to call once all of them have ended.
///
/// The group is open while its transaction or block is; every animation added to any
/// layer meanwhile joins it. The block runs once: when the group is closed and its last
/// animation ends or is removed, with `true` when every animation ran to its end. A group
/// closed with no animation calls its block on the next main-queue turn (as UIKit does for
/// an animation block that changed nothing). Main-actor isolated; the open groups are held
/// by ``openGroups``, each joined animation holds its groups.
@MainActor final class AnimationCompletionGroup {
    /// The groups animations join when added now, outermost first.
    private(set) static var openGroups: [AnimationCompletionGroup] = []

    /// The block; replaced by a later ``Transaction/setCompletionBlock(_:)`` in the same
    /// transaction.
    var block: (@MainActor (Bool) -> Void)?
    private var pending = 0
    private var isClosed = false
    private var allFinished = true
    private var hasRun = false

    init(block: (@MainActor (Bool) -> Void)?) {
        self.block = block
    }

    /// Makes the group one that animations added from now on join.
    func open() {
        Self.openGroups.append(self)
    }

    /// No more animations join; the block runs when the joined ones have ended.
    func close() {
        Self.openGroups.removeAll { $0 === self }
        guard !isClosed else { return }
        isClosed = true
        if pending == 0 {
            DispatchQueue.main.async { [self] in self.runBlock() }
        }
    }

    /// An animation joined.
    func animationDidJoin() {
        pending += 1
    }

    /// A joined animation ended (`finished`) or was removed early.
    ///
    /// An animation can end while another animation block's `animations` closure runs (a
    /// change there replaces it): the block then runs on the next main-queue turn, so that
    /// the changes it makes are not animated by that block.
    func animationDidEnd(finished: Bool) {
        pending -= 1
        if !finished { allFinished = false }
        guard isClosed, pending == 0 else { return }
        if View.animationContexts.isEmpty {
            runBlock()
        } else {
            DispatchQueue.main.async { [self] in self.runBlock() }
        }
    }

    private func runBlock() {
        guard !hasRun else { return }
        hasRun = true
        let block = self.block
        self.block = nil
        block?(allFinished)
    }
}
