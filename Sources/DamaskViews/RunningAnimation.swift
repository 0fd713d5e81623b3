/// One animation added to a layer: a private copy of it, its parsed key path, the value
/// shown when it was added, when it began, and the completion groups waiting for it.
/// Main-actor isolated; owned by its layer.
@MainActor final class RunningAnimation {
    /// The key it was added for (`nil`: added without one).
    let key: String?
    /// The layer's own copy.
    let animation: Animation
    /// The property it drives.
    let keyPath: AnimatableKeyPath
    /// The property's value as shown when the animation was added.
    let start: AnimationValue
    /// When it starts on the window's frame clock (seconds; its delay included), set by
    /// the first frame after it was added.
    var beginTime: Double?
    /// Whether it has reached its end (its groups were told).
    var hasEnded = false
    /// The completion groups it joined.
    var groups: [AnimationCompletionGroup]

    init(
        key: String?, animation: Animation, keyPath: AnimatableKeyPath, start: AnimationValue,
        groups: [AnimationCompletionGroup]
    ) {
        self.key = key
        self.animation = animation
        self.keyPath = keyPath
        self.start = start
        self.groups = groups
        for group in groups { group.animationDidJoin() }
    }

    /// Tells the groups the animation ended (`finished`: it ran to its end), once.
    func end(finished: Bool) {
        guard !hasEnded else { return }
        hasEnded = true
        let groups = self.groups
        self.groups = []
        for group in groups { group.animationDidEnd(finished: finished) }
    }

    /// Seconds since the start at `time` (before the first frame: minus the delay).
    func localTime(at time: Double?) -> Double {
        guard let beginTime, let time else { return -max(0, animation.delay) }
        return time - beginTime
    }

    /// Whether the animation still changes what is shown as time passes.
    var needsFrames: Bool {
        guard !hasEnded else { return false }
        return true
    }
}
