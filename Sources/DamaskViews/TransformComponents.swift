import DamaskGraphics
import Foundation

/// An affine transform decomposed into scale, shear, rotation and translation:
/// `M = R(rotation) · [sx m; 0 sy]` (column vectors), then the translation (y-down, as every Damask
/// transform). Used to interpolate transforms as Core Animation does (a rotation stays a
/// rotation) and for the `transform.rotation` / `transform.scale` / `transform.translation`
/// key paths. A value type.
struct TransformComponents: Equatable {
    var scaleX: CGFloat
    var scaleY: CGFloat
    var shear: CGFloat
    var rotation: CGFloat
    var translationX: CGFloat
    var translationY: CGFloat

    /// Decomposes `transform`; `nil` when its linear part is degenerate (scale 0 in x).
    init?(_ transform: CGAffineTransform) {
        let sx = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        guard sx > 1e-12 else { return nil }
        let angle = atan2(transform.b, transform.a)
        let cosine = cos(angle)
        let sine = sin(angle)
        // Undo the rotation: [a c; b d] · R(-angle) = [sx m; 0 sy] (column form).
        scaleX = sx
        shear = transform.c * cosine + transform.d * sine
        scaleY = -transform.c * sine + transform.d * cosine
        rotation = angle
        translationX = transform.tx
        translationY = transform.ty
    }

    init(
        scaleX: CGFloat, scaleY: CGFloat, shear: CGFloat, rotation: CGFloat, translationX: CGFloat,
        translationY: CGFloat
    ) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shear = shear
        self.rotation = rotation
        self.translationX = translationX
        self.translationY = translationY
    }

    /// The transform these components describe.
    var transform: CGAffineTransform {
        let cosine = cos(rotation)
        let sine = sin(rotation)
        return CGAffineTransform(
            a: scaleX * cosine, b: scaleX * sine,
            c: shear * cosine - scaleY * sine, d: shear * sine + scaleY * cosine,
            tx: translationX, ty: translationY)
    }

    /// The transform `progress` of the way from `from` to `to`.
    static func interpolate(_ from: CGAffineTransform, _ to: CGAffineTransform, _ progress: CGFloat)
        -> CGAffineTransform
    {
        func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * progress }
        guard let a = TransformComponents(from), let b = TransformComponents(to) else {
            return CGAffineTransform(
                a: mix(from.a, to.a), b: mix(from.b, to.b), c: mix(from.c, to.c),
                d: mix(from.d, to.d), tx: mix(from.tx, to.tx), ty: mix(from.ty, to.ty))
        }
        var turn = b.rotation - a.rotation
        if turn > .pi { turn -= 2 * .pi }
        if turn < -.pi { turn += 2 * .pi }
        return TransformComponents(
            scaleX: mix(a.scaleX, b.scaleX), scaleY: mix(a.scaleY, b.scaleY),
            shear: mix(a.shear, b.shear), rotation: a.rotation + turn * progress,
            translationX: mix(a.translationX, b.translationX),
            translationY: mix(a.translationY, b.translationY)
        ).transform
    }
}
