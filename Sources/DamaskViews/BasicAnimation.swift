/// Animates one property from one value to another (Core Animation's `CABasicAnimation`).
///
/// Which values are interpolated follows Core Animation: ``fromValue`` and ``toValue``;
/// ``fromValue`` to ``fromValue`` + ``byValue``; ``toValue`` − ``byValue`` to ``toValue``;
/// ``fromValue`` to the model value; the value shown when added to ``toValue``, or to that
/// value + ``byValue``; with no values at all, from the value shown when added to the model
/// value (what implicit animations use). Values must suit the key path (see
/// ``AnimatableValue``). Main-actor isolated.
@MainActor public final class BasicAnimation: PropertyAnimation {
    /// The value at the start.
    public var fromValue: (any AnimatableValue)?
    /// The value at the end.
    public var toValue: (any AnimatableValue)?
    /// The change over the animation.
    public var byValue: (any AnimatableValue)?

    /// Creates an animation of `keyPath` with no values yet.
    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    override func copy() -> Animation {
        let copy = BasicAnimation(keyPath: keyPath)
        copy.copyTiming(from: self)
        copy.fromValue = fromValue
        copy.toValue = toValue
        copy.byValue = byValue
        return copy
    }

    override func validationProblem(for kind: AnimationValue.Kind) -> String? {
        for (name, value) in [("fromValue", fromValue), ("toValue", toValue), ("byValue", byValue)] {
            if let value, let problem = problem(with: value, named: name, for: kind) { return problem }
        }
        return nil
    }

    override func value(atProgress progress: Double, start: AnimationValue, model: AnimationValue)
        -> AnimationValue?
    {
        let from = fromValue.flatMap(AnimationValue.init)
        let to = toValue.flatMap(AnimationValue.init)
        let by = byValue.flatMap(AnimationValue.init)
        let ends: (AnimationValue, AnimationValue)
        switch (from, to, by) {
        case (let from?, let to?, _): ends = (from, to)
        case (let from?, nil, let by?): ends = (from, from.adding(by))
        case (nil, let to?, let by?): ends = (to.subtracting(by), to)
        case (let from?, nil, nil): ends = (from, model)
        case (nil, let to?, nil): ends = (start, to)
        case (nil, nil, let by?): ends = (start, start.adding(by))
        case (nil, nil, nil): ends = (start, model)
        }
        return AnimationValue.interpolate(ends.0, ends.1, progress)
    }
}
