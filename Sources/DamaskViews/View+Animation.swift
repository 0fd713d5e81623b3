import Foundation

/// UIKit's block animations: the property changes made in the block animate from the
/// values shown to the new values, which are set at once.
extension View {
    /// Options of an animation block (UIKit's `UIView.AnimationOptions`, with its raw
    /// values). The curve is one of ``curveEaseInOut`` (the default), ``curveEaseIn``,
    /// ``curveEaseOut`` and ``curveLinear``. Animations always begin from the values shown
    /// (UIKit's ``beginFromCurrentState``); ``allowUserInteraction`` is accepted and has no
    /// effect (Damask hit-tests the model values and never blocks events while animating).
    /// A block nested in another inherits the outer block's duration, curve and options
    /// unless it says otherwise with ``overrideInheritedDuration``,
    /// ``overrideInheritedCurve`` and ``overrideInheritedOptions``.
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Accepted; views take events while animating either way.
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Accepted; animations always begin from the values shown.
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Repeats forever.
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Runs forwards, then backwards (then shows the model value).
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// In a nested block: use this block's duration, not the outer block's.
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// In a nested block: use this block's curve, not the outer block's.
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        /// In a nested block: do not take the outer block's ``repeat`` and ``autoreverse``.
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)
        /// Starts and ends slowly (the default curve).
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        /// Starts slowly.
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        /// Ends slowly.
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        /// Constant speed.
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        /// The bits of the curve option.
        static let curveMask = AnimationOptions(rawValue: 3 << 16)

        /// The timing function of the curve option.
        var timingFunction: TimingFunction {
            switch (rawValue >> 16) & 3 {
            case 1: .easeIn
            case 2: .easeOut
            case 3: .linear
            default: .easeInEaseOut
            }
        }
    }

    /// Animates the changes `animations` makes to views' animatable properties (`frame`,
    /// `bounds`, `center`, `transform`, `alpha`, `backgroundColor`) over `duration`
    /// seconds, after `delay`, along the curve in `options` (UIKit's
    /// `animate(withDuration:delay:options:animations:completion:)`).
    ///
    /// The new values are set at once (reading `center` inside or after the block returns
    /// the new value); each frame of the window shows the interpolated values and only
    /// recomposites (no `draw(_:)`). `completion` runs once, when every animation the
    /// block started has ended, with `true` when all ran to their end (`false` when one was
    /// replaced or removed); a block that animated nothing, or a `duration` of 0 or less
    /// (the changes are then made without animation), calls it on the next turn of the
    /// main queue. A completion never runs inside another block's `animations` closure (an
    /// animation replaced there ends its block on the next turn), so what it changes is not
    /// animated by that block by accident.
    ///
    /// Blocks nest as UIKit's do: a block inside another block's `animations` takes the
    /// outer block's duration, curve and ``AnimationOptions/repeat`` /
    /// ``AnimationOptions/autoreverse`` unless its options include
    /// ``AnimationOptions/overrideInheritedDuration``,
    /// ``AnimationOptions/overrideInheritedCurve`` or
    /// ``AnimationOptions/overrideInheritedOptions``; its delay is its own. Inside
    /// ``performWithoutAnimation(_:)`` nothing is inherited.
    public static func animate(
        withDuration duration: TimeInterval, delay: TimeInterval = 0, options: AnimationOptions = [],
        animations: () -> Void, completion: (@MainActor (Bool) -> Void)? = nil
    ) {
        let group = AnimationCompletionGroup(block: completion)
        animationContexts.append(
            AnimationContext(duration: duration, delay: delay, options: options)
                .inheriting(from: animationContexts.last))
        group.open()
        animations()
        group.close()
        animationContexts.removeLast()
    }

    /// Makes the changes in `actions` without animation, even inside an animation block
    /// (UIKit's `performWithoutAnimation(_:)`).
    public static func performWithoutAnimation(_ actions: () -> Void) {
        animationContexts.append(AnimationContext(duration: 0, delay: 0, options: []))
        actions()
        animationContexts.removeLast()
    }

    /// The duration of the innermost animation block open now, 0 outside one or inside
    /// ``performWithoutAnimation(_:)`` (UIKit's `inheritedAnimationDuration`).
    public static var inheritedAnimationDuration: TimeInterval {
        max(0, animationContexts.last?.duration ?? 0)
    }

    /// Whether changes made now are inside an animation block (UIKit's
    /// `areAnimationsEnabled` is the opposite of being inside ``performWithoutAnimation(_:)``).
    public static var isInsideAnimationBlock: Bool {
        (animationContexts.last?.duration ?? 0) > 0
    }

    /// The settings of one animation block.
    struct AnimationContext {
        var duration: TimeInterval
        var delay: TimeInterval
        var options: AnimationOptions

        /// These settings as a block nested in `outer` has them (see
        /// ``View/animate(withDuration:delay:options:animations:completion:)``).
        func inheriting(from outer: AnimationContext?) -> AnimationContext {
            guard let outer, outer.duration > 0 else { return self }
            var nested = self
            if !options.contains(.overrideInheritedDuration) { nested.duration = outer.duration }
            if !options.contains(.overrideInheritedCurve) {
                nested.options.subtract(AnimationOptions.curveMask)
                nested.options.formUnion(outer.options.intersection(AnimationOptions.curveMask))
            }
            if !options.contains(.overrideInheritedOptions) {
                nested.options.formUnion(outer.options.intersection([.repeat, .autoreverse]))
            }
            return nested
        }

        /// The animation a change of `key` runs inside the block.
        @MainActor func animation(forKey key: String) -> BasicAnimation {
            let animation = BasicAnimation(keyPath: key)
            animation.duration = duration
            animation.delay = max(0, delay)
            animation.timingFunction = options.timingFunction
            if delay > 0 { animation.fillMode = .backwards }
            if options.contains(.repeat) { animation.repeatCount = .infinity }
            animation.autoreverses = options.contains(.autoreverse)
            return animation
        }
    }

    /// The open animation blocks, outermost first.
    static var animationContexts: [AnimationContext] = []
}
