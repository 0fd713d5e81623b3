import DamaskGraphics
import Foundation

/// A value an animation can interpolate (the `fromValue`, `toValue`, `byValue` and
/// keyframe `values` of ``BasicAnimation`` and ``KeyframeAnimation``).
///
/// Conforming types: `CGFloat`, `Double`, `Float`, `Int`, `CGPoint`, `CGSize`, `CGRect`,
/// `CGAffineTransform` and `Color`. The type must suit the key path (a `CGPoint` for
/// `position`, a number for `opacity`); an animation whose values do not is reported once
/// on standard error and not added. A marker protocol: other conformances are reported the
/// same way.
public protocol AnimatableValue {}

extension CGFloat: AnimatableValue {}
extension Double: AnimatableValue {}
extension Float: AnimatableValue {}
extension Int: AnimatableValue {}
extension CGPoint: AnimatableValue {}
extension CGSize: AnimatableValue {}
extension CGRect: AnimatableValue {}
extension CGAffineTransform: AnimatableValue {}
extension Color: AnimatableValue {}

/// One interpolatable value, as the animation engine handles it.
enum AnimationValue: Equatable {
    case scalar(CGFloat)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case transform(CGAffineTransform)
    case color(Color)

    /// The kinds of value, to check an animation's values against its key path.
    enum Kind: String {
        case scalar = "a number"
        case point = "a CGPoint"
        case size = "a CGSize"
        case rect = "a CGRect"
        case transform = "a CGAffineTransform"
        case color = "a Color"
    }

    /// The value's kind.
    var kind: Kind {
        switch self {
        case .scalar: .scalar
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .transform: .transform
        case .color: .color
        }
    }

    /// Converts a public value; `nil` for a type the engine does not know.
    init?(_ value: any AnimatableValue) {
        switch value {
        case let number as CGFloat: self = .scalar(number)
        case let number as Double: self = .scalar(CGFloat(number))
        case let number as Float: self = .scalar(CGFloat(number))
        case let number as Int: self = .scalar(CGFloat(number))
        case let point as CGPoint: self = .point(point)
        case let size as CGSize: self = .size(size)
        case let rect as CGRect: self = .rect(rect)
        case let transform as CGAffineTransform: self = .transform(transform)
        case let color as Color: self = .color(color)
        default: return nil
        }
    }

    /// The value `progress` of the way from `from` to `to` (progress may leave 0…1 for
    /// overshooting curves). Transforms interpolate their decomposed translation,
    /// rotation (the shorter way round), scale and shear, so a rotation stays a rotation.
    static func interpolate(_ from: AnimationValue, _ to: AnimationValue, _ progress: Double)
        -> AnimationValue
    {
        if progress == 0 { return from }
        if progress == 1 { return to }
        let p = CGFloat(progress)
        func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * p }
        switch (from, to) {
        case (.scalar(let a), .scalar(let b)):
            return .scalar(mix(a, b))
        case (.point(let a), .point(let b)):
            return .point(CGPoint(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case (.size(let a), .size(let b)):
            return .size(CGSize(width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case (.rect(let a), .rect(let b)):
            return .rect(
                CGRect(
                    x: mix(a.minX, b.minX), y: mix(a.minY, b.minY), width: mix(a.width, b.width),
                    height: mix(a.height, b.height)))
        case (.transform(let a), .transform(let b)):
            return .transform(TransformComponents.interpolate(a, b, p))
        case (.color(var a), .color(var b)):
            // A clear end takes the other end's hue, so a fade in does not pass through black.
            if a.alpha == 0 { a = b.withAlphaComponent(0) }
            if b.alpha == 0 { b = a.withAlphaComponent(0) }
            return .color(
                Color(
                    red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue),
                    alpha: mix(a.alpha, b.alpha)))
        default:
            return p < 0.5 ? from : to  // kinds are checked when an animation is added
        }
    }

    /// `self` changed by `delta` (a `byValue`): componentwise sums; transforms concatenate.
    func adding(_ delta: AnimationValue) -> AnimationValue {
        switch (self, delta) {
        case (.scalar(let a), .scalar(let b)):
            return .scalar(a + b)
        case (.point(let a), .point(let b)):
            return .point(CGPoint(x: a.x + b.x, y: a.y + b.y))
        case (.size(let a), .size(let b)):
            return .size(CGSize(width: a.width + b.width, height: a.height + b.height))
        case (.rect(let a), .rect(let b)):
            return .rect(
                CGRect(
                    x: a.minX + b.minX, y: a.minY + b.minY, width: a.width + b.width,
                    height: a.height + b.height))
        case (.transform(let a), .transform(let b)):
            return .transform(b.concatenating(a))
        case (.color(let a), .color(let b)):
            return .color(
                Color(
                    red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue,
                    alpha: a.alpha + b.alpha))
        default:
            return self
        }
    }

    /// `self` changed by the opposite of `delta`.
    func subtracting(_ delta: AnimationValue) -> AnimationValue {
        switch delta {
        case .scalar(let b): return adding(.scalar(-b))
        case .point(let b): return adding(.point(CGPoint(x: -b.x, y: -b.y)))
        case .size(let b): return adding(.size(CGSize(width: -b.width, height: -b.height)))
        case .rect(let b):
            return adding(.rect(CGRect(x: -b.minX, y: -b.minY, width: -b.width, height: -b.height)))
        case .transform(let b): return adding(.transform(b.inverted()))
        case .color(let b):
            return adding(.color(Color(red: -b.red, green: -b.green, blue: -b.blue, alpha: -b.alpha)))
        }
    }
}
