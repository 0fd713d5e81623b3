import Foundation

/// An affine transform with Core Graphics' names and conventions.
///
/// Foundation on Linux has no `CGAffineTransform`, so Damask provides one. A point
/// `(x, y)` maps to `(a·x + c·y + tx, b·x + d·y + ty)`. `t1.concatenating(t2)` applies
/// `t1` first, then `t2`, exactly as in Core Graphics.
public struct CGAffineTransform: Equatable, Sendable {
    /// The entry at row 1, column 1 (x scale when there is no rotation).
    public var a: CGFloat
    /// The entry at row 1, column 2.
    public var b: CGFloat
    /// The entry at row 2, column 1.
    public var c: CGFloat
    /// The entry at row 2, column 2 (y scale when there is no rotation).
    public var d: CGFloat
    /// The x translation.
    public var tx: CGFloat
    /// The y translation.
    public var ty: CGFloat

    /// The transform that maps every point to itself.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Creates a transform from its six entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// Creates a pure translation.
    public init(translationX x: CGFloat, y: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// Creates a pure scale about the origin.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Creates a rotation about the origin by `angle` radians.
    ///
    /// In Damask's y-down device space a positive angle turns clockwise on screen,
    /// as in UIKit.
    public init(rotationAngle angle: CGFloat) {
        let cosine = cos(angle)
        let sine = sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// Whether this is the identity transform.
    public var isIdentity: Bool { self == .identity }

    /// Returns the transform that applies `other` after `self`.
    public func concatenating(_ other: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Returns the transform that translates by `(x, y)` before applying `self`.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// Returns the transform that scales by `(sx, sy)` before applying `self`.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// Returns the transform that rotates by `angle` radians before applying `self`.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The determinant of the linear part (`a·d − b·c`).
    public var determinant: CGFloat { a * d - b * c }

    /// Returns the inverse transform, or `self` unchanged when it is not invertible
    /// (as Core Graphics does).
    public func inverted() -> CGAffineTransform {
        let det = determinant
        guard det != 0, det.isFinite else { return self }
        let ia = d / det
        let ib = -b / det
        let ic = -c / det
        let id = a / det
        return CGAffineTransform(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic),
            ty: -(tx * ib + ty * id))
    }

    /// Whether the transform has an inverse (a finite, non-zero determinant).
    public var isInvertible: Bool {
        let det = determinant
        return det != 0 && det.isFinite && tx.isFinite && ty.isFinite
    }

    /// Whether the transform is a pure translation (possibly zero).
    public var isTranslationOnly: Bool { a == 1 && b == 0 && c == 0 && d == 1 }

    /// Whether the transform maps axis-aligned rectangles to axis-aligned rectangles
    /// without flipping or rotating (no rotation or skew, positive scales).
    public var isPositiveAxisAligned: Bool { b == 0 && c == 0 && a > 0 && d > 0 }

    /// The largest factor by which the transform stretches any length.
    public var maximumScale: CGFloat {
        let sx = (a * a + b * b).squareRoot()
        let sy = (c * c + d * d).squareRoot()
        return Swift.max(sx, sy)
    }
}

extension CGPoint {
    /// Returns the point mapped by `t`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// Returns the size mapped by the linear part of `t` (translation ignored), as
    /// Core Graphics does; components may become negative.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// Returns the bounding box of the four corners of this rectangle mapped by `t`.
    ///
    /// The null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let r = standardized
        // Four corners, no arrays: this runs for every fill, clip and footprint. The
        // comparisons are those of `Sequence.min()`/`max()` (NaN behaves the same).
        let p0 = CGPoint(x: r.minX, y: r.minY).applying(t), p1 = CGPoint(x: r.maxX, y: r.minY).applying(t)
        let p2 = CGPoint(x: r.minX, y: r.maxY).applying(t), p3 = CGPoint(x: r.maxX, y: r.maxY).applying(t)
        var minX = p0.x, maxX = p0.x, minY = p0.y, maxY = p0.y
        func include(_ p: CGPoint) {
            if p.x < minX { minX = p.x }
            if maxX < p.x { maxX = p.x }
            if p.y < minY { minY = p.y }
            if maxY < p.y { maxY = p.y }
        }
        include(p1)
        include(p2)
        include(p3)
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
