import Foundation

/// How an animation's progress follows time: a cubic Bézier from (0, 0) to (1, 1) with
/// two control points, as Core Animation's `CAMediaTimingFunction`.
///
/// The x axis is the fraction of the duration elapsed, the y axis the fraction of the
/// change shown. The named functions have Core Animation's control points. A value type.
public struct TimingFunction: Equatable, Sendable {
    /// The named timing functions (`CAMediaTimingFunctionName`).
    public enum Name: String, Sendable, CaseIterable {
        /// Constant speed: (0, 0), (1, 1).
        case linear
        /// Starts slowly: (0.42, 0), (1, 1).
        case easeIn
        /// Ends slowly: (0, 0), (0.58, 1).
        case easeOut
        /// Starts and ends slowly: (0.42, 0), (0.58, 1).
        case easeInEaseOut
        /// Core Animation's default for implicit animations: (0.25, 0.1), (0.25, 1).
        case `default`
    }

    /// The first control point.
    public let controlPoint1: CGPoint
    /// The second control point.
    public let controlPoint2: CGPoint

    /// A function with control points (`c1x`, `c1y`) and (`c2x`, `c2y`). The x coordinates
    /// are clamped to 0…1 (outside it time would run backwards); y may leave 0…1 to
    /// overshoot.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        controlPoint1 = CGPoint(x: min(max(CGFloat(c1x), 0), 1), y: CGFloat(c1y))
        controlPoint2 = CGPoint(x: min(max(CGFloat(c2x), 0), 1), y: CGFloat(c2y))
    }

    /// The named function.
    public init(name: Name) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// Constant speed.
    public static let linear = TimingFunction(name: .linear)
    /// Starts slowly.
    public static let easeIn = TimingFunction(name: .easeIn)
    /// Ends slowly.
    public static let easeOut = TimingFunction(name: .easeOut)
    /// Starts and ends slowly.
    public static let easeInEaseOut = TimingFunction(name: .easeInEaseOut)
    /// Core Animation's default curve.
    public static let `default` = TimingFunction(name: .default)

    /// The fraction of the change shown when `fraction` of the duration has elapsed
    /// (`fraction` is clamped to 0…1; the ends map to exactly 0 and 1).
    public func progress(atTime fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        let x1 = Double(controlPoint1.x)
        let y1 = Double(controlPoint1.y)
        let x2 = Double(controlPoint2.x)
        let y2 = Double(controlPoint2.y)
        if x1 == y1, x2 == y2 { return fraction }  // a straight line
        let t = Self.parameter(forX: fraction, x1: x1, x2: x2)
        return Self.bezier(t, y1, y2)
    }

    /// The coordinate of a unit cubic Bézier (ends 0 and 1) with inner values `p1`, `p2`.
    private static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private static func derivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// Solves x(t) = `x` for t: Newton steps, then bisection if they stall. x(t) is
    /// monotonic because the control x coordinates lie in 0…1.
    private static func parameter(forX x: Double, x1: Double, x2: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = bezier(t, x1, x2) - x
            if abs(error) < 1e-9 { return t }
            let slope = derivative(t, x1, x2)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }
        }
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<60 {
            let value = bezier(t, x1, x2)
            if abs(value - x) < 1e-9 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }
}
