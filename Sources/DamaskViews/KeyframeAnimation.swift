/// Animates one property through a list of values (Core Animation's
/// `CAKeyframeAnimation`, without paths and cubic calculation modes).
///
/// ``values`` are spread over the duration evenly, or at ``keyTimes`` (fractions 0…1,
/// one per value, increasing). Each segment between two values follows its entry of
/// ``timingFunctions`` (one fewer than the values) or is linear. Main-actor isolated.
@MainActor public final class KeyframeAnimation: PropertyAnimation {
    /// How values between keyframes are computed.
    public enum CalculationMode: Sendable, Equatable {
        /// Interpolated linearly (shaped by ``KeyframeAnimation/timingFunctions``).
        case linear
        /// Each value holds until the next key time.
        case discrete
    }

    /// The keyframe values (at least one; each must suit the key path).
    public var values: [any AnimatableValue]?
    /// When each value is reached, as fractions of the duration (optional).
    public var keyTimes: [Double]?
    /// The timing of each segment (optional; one fewer than the values).
    public var timingFunctions: [TimingFunction]?
    /// How values between keyframes are computed. Default `.linear`.
    public var calculationMode: CalculationMode = .linear

    /// Creates an animation of `keyPath` with no values yet.
    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    override func copy() -> Animation {
        let copy = KeyframeAnimation(keyPath: keyPath)
        copy.copyTiming(from: self)
        copy.values = values
        copy.keyTimes = keyTimes
        copy.timingFunctions = timingFunctions
        copy.calculationMode = calculationMode
        return copy
    }

    override func validationProblem(for kind: AnimationValue.Kind) -> String? {
        guard let values, !values.isEmpty else { return "it has no values" }
        for (index, value) in values.enumerated() {
            if let problem = problem(with: value, named: "values[\(index)]", for: kind) { return problem }
        }
        if let keyTimes {
            if keyTimes.count != values.count {
                return "it has \(keyTimes.count) keyTimes for \(values.count) values"
            }
            if zip(keyTimes, keyTimes.dropFirst()).contains(where: { $0 > $1 })
                || keyTimes.contains(where: { !($0 >= 0 && $0 <= 1) })
            {
                return "its keyTimes are not increasing fractions within 0…1"
            }
        }
        return nil
    }

    override func value(atProgress progress: Double, start: AnimationValue, model: AnimationValue)
        -> AnimationValue?
    {
        let frames = (values ?? []).compactMap(AnimationValue.init)
        guard let first = frames.first else { return nil }
        guard frames.count > 1 else { return first }
        let times =
            keyTimes ?? frames.indices.map { Double($0) / Double(frames.count - 1) }
        guard progress > times[0] else { return first }
        guard let next = times.firstIndex(where: { $0 > progress }) else { return frames[frames.count - 1] }
        let index = next - 1
        if calculationMode == .discrete { return frames[index] }
        let span = times[next] - times[index]
        var fraction = span > 0 ? (progress - times[index]) / span : 1
        if let functions = timingFunctions, index < functions.count {
            fraction = functions[index].progress(atTime: fraction)
        }
        return AnimationValue.interpolate(frames[index], frames[next], fraction)
    }
}
