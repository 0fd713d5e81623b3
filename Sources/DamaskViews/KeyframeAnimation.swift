/// Animates one property through a list of values (Core Animation's
/// `CAKeyframeAnimation`, without paths and cubic calculation modes).
///
/// ``values`` are spread over the duration evenly, or at ``keyTimes`` (fractions 0…1,
/// one per value, increasing). Each segment between two values follows its entry of
/// ``timingFunctions`` (one fewer than the values) or is linear. With
/// ``CalculationMode/discrete`` the rules are Core Animation's: value `i` holds from key
/// time `i` to key time `i + 1`, so there is one more key time than values, the first 0
/// and the last 1 (without ``keyTimes`` each value holds for an equal share of the
/// duration). Key times that break these rules make the animation refused when added.
/// Main-actor isolated.
@MainActor public final class KeyframeAnimation: PropertyAnimation {
    /// How values between keyframes are computed.
    public enum CalculationMode: Sendable, Equatable {
        /// Interpolated linearly (shaped by ``KeyframeAnimation/timingFunctions``).
        case linear
        /// Each value holds from its key time until the next (n + 1 key times for n values).
        case discrete
    }

    /// The keyframe values (at least one; each must suit the key path).
    public var values: [any AnimatableValue]?
    /// When each value is reached, as fractions of the duration (optional; one per value,
    /// or for ``CalculationMode/discrete`` one more, from 0 to 1).
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
            if calculationMode == .discrete {
                // Core Animation: one more key time than values, from 0 to 1; each value
                // holds from its key time to the next.
                if keyTimes.count != values.count + 1 {
                    return "it is discrete with \(keyTimes.count) keyTimes for \(values.count) values (needs \(values.count + 1))"
                }
                if keyTimes.first != 0 || keyTimes.last != 1 {
                    return "it is discrete and its keyTimes do not run from 0 to 1"
                }
            } else if keyTimes.count != values.count {
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
        if calculationMode == .discrete {
            // Value i holds from key time i to key time i + 1 (n + 1 key times for n values,
            // evenly spaced without keyTimes).
            let times = keyTimes ?? (0...frames.count).map { Double($0) / Double(frames.count) }
            // A key time counts as reached within rounding of the frame clock's arithmetic
            // (a frame 100 ms into 400 ms is at 0.25, not 0.2499…).
            let index = (1..<frames.count).last { times[$0] <= progress + 1e-9 } ?? 0
            return frames[index]
        }
        guard frames.count > 1 else { return first }
        let times =
            keyTimes ?? frames.indices.map { Double($0) / Double(frames.count - 1) }
        guard progress > times[0] else { return first }
        guard let next = times.firstIndex(where: { $0 > progress }) else { return frames[frames.count - 1] }
        let index = next - 1
        let span = times[next] - times[index]
        var fraction = span > 0 ? (progress - times[index]) / span : 1
        if let functions = timingFunctions, index < functions.count {
            fraction = functions[index].progress(atTime: fraction)
        }
        return AnimationValue.interpolate(frames[index], frames[next], fraction)
    }
}
