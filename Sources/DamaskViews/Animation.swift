import Foundation

/// The timing shared by every animation (Core Animation's `CAAnimation` with
/// `CAMediaTiming`). Use ``BasicAnimation`` or ``KeyframeAnimation``.
///
/// An animation is copied when it is added to a layer (``Layer/add(_:forKey:)``), so
/// changing it afterwards affects only later additions. Its clock is the window's frame
/// clock: the frame callbacks' times, so a simulated clock drives it deterministically.
/// It starts on the first frame after it is added (after ``delay``). Main-actor isolated.
@MainActor public class Animation: Action {
    /// The length of one pass, in seconds. Zero or less (the default) takes the current
    /// ``Transaction/animationDuration()`` when the animation is added (0.25 s unless set),
    /// as in Core Animation.
    public var duration: TimeInterval = 0
    /// Seconds between the first frame after the animation was added and its start.
    /// (Core Animation's `beginTime` is an absolute media time; Damask has no such clock.)
    public var delay: TimeInterval = 0
    /// How progress follows time; `nil` (the default) is linear, as in Core Animation.
    public var timingFunction: TimingFunction?
    /// How many passes run (fractions allowed; `.infinity` forever). 0 means 1.
    public var repeatCount: Float = 0
    /// Whether each pass runs forwards, then backwards.
    public var autoreverses = false
    /// What the animation shows before its start and after its end.
    public var fillMode: FillMode = .removed
    /// Whether the animation is removed from its layer when it ends (default `true`). A
    /// finished animation that stays keeps its ``fillMode`` effect but asks for no frames.
    public var isRemovedOnCompletion = true

    /// Creates an animation with the default timing.
    public init() {}

    /// A copy with the same timing (subclasses copy their own properties too).
    func copy() -> Animation {
        let copy = Animation()
        copy.copyTiming(from: self)
        return copy
    }

    func copyTiming(from other: Animation) {
        duration = other.duration
        delay = other.delay
        timingFunction = other.timingFunction
        repeatCount = other.repeatCount
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        isRemovedOnCompletion = other.isRemovedOnCompletion
    }

    /// The animation's key path as a layer property, if it has one it can drive.
    var animatedKeyPath: String? { nil }

    /// Adds the animation to `layer` for `key` (an animation is its own action, as in
    /// Core Animation).
    public func run(forKey key: String, object layer: Layer) {
        layer.add(self, forKey: key)
    }

    // MARK: Timing

    /// How long one forward (and, with ``autoreverses``, backward) cycle lasts.
    var cycleDuration: TimeInterval { duration * (autoreverses ? 2 : 1) }

    /// How long the animation is active after its delay.
    var activeDuration: TimeInterval {
        let count = repeatCount > 0 ? Double(repeatCount) : 1
        return count.isInfinite ? .infinity : cycleDuration * count
    }

    /// The eased progress (0…1 through one pass, before the timing function's shape) at
    /// `local` seconds after the start, or `nil` when the animation shows nothing then.
    func progress(atLocalTime local: TimeInterval) -> Double? {
        let fill = fillMode
        if local < 0 {
            guard fill == .backwards || fill == .both else { return nil }
            return ease(0)
        }
        guard duration > 0 else { return ease(1) }
        if local >= activeDuration - 1e-6 {
            guard fill == .forwards || fill == .both else { return nil }
            return ease(endFraction)
        }
        let cycle = cycleDuration
        var within = local.truncatingRemainder(dividingBy: cycle)
        if autoreverses, within >= duration { within = cycle - within }
        return ease(within / duration)
    }

    /// The linear fraction of a pass at which the animation ends.
    private var endFraction: Double {
        let count = repeatCount > 0 ? Double(repeatCount) : 1
        let passes = count * (autoreverses ? 2 : 1)
        let remainder = passes - passes.rounded(.down)
        if remainder > 0 {
            let forward = Int(passes.rounded(.down)) % 2 == 0 || !autoreverses
            return forward ? remainder : 1 - remainder
        }
        return autoreverses ? 0 : 1
    }

    private func ease(_ fraction: Double) -> Double {
        (timingFunction ?? .linear).progress(atTime: fraction)
    }

    /// The value at eased `progress`, given `start` (the presentation value when the
    /// animation was added) and `model` (the property's model value now); `nil` when the
    /// animation does not apply. Subclasses override.
    func value(atProgress progress: Double, start: AnimationValue, model: AnimationValue)
        -> AnimationValue?
    {
        nil
    }

    /// A problem with the animation's values for a property of `kind`, or `nil`.
    func validationProblem(for kind: AnimationValue.Kind) -> String? { nil }
}
