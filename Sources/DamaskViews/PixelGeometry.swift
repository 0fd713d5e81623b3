import DamaskGraphics
import Foundation

/// The one set of answers the compositing plan, the opaque area and the opaque-contents
/// repaint share: whether a footprint meets a region, whether a layer's paint is certainly
/// opaque, and where a bitmap lands pixel for pixel.
///
/// Each answer is conservative in the direction that keeps pixels right: "meets" may say
/// yes for a footprint that misses (it costs a visit), "opaque" and "pixel for pixel" say
/// no when in doubt (they cost blending or resampling). Pure functions of their arguments.
enum PixelGeometry {
    /// Whether `footprint` (device pixels, `.null` for none) meets `region`, whose bounding
    /// box is `box`: plain comparisons against the box first, pixman only for the few that
    /// pass.
    static func footprint(_ footprint: CGRect, meets region: Region, box: CGRect) -> Bool {
        if footprint.isNull || footprint.minX >= box.maxX || footprint.maxX <= box.minX
            || footprint.minY >= box.maxY || footprint.maxY <= box.minY
        {
            return false
        }
        return region.intersects(footprint)
    }

    /// Whether a background of `color` with corners of `cornerRadius` covers its whole
    /// rectangle with full alpha.
    static func isCertainlyOpaque(background color: Color?, cornerRadius: CGFloat) -> Bool {
        guard let color else { return false }
        return color.alpha >= 1 && cornerRadius <= 0
    }

    /// The whole device pixels inside `rect` (`.null` when none).
    static func innerPixels(of rect: CGRect) -> CGRect {
        guard !rect.isNull, rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite
        else { return .null }
        let minX = rect.minX.rounded(.up), minY = rect.minY.rounded(.up)
        let maxX = rect.maxX.rounded(.down), maxY = rect.maxY.rounded(.down)
        guard minX < maxX, minY < maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// `rect` mapped to device pixels when its edges land on whole pixels (within the
    /// tolerance the graphics context snaps with), else `nil`.
    static func exactDeviceRect(_ rect: CGRect, by transform: CGAffineTransform) -> CGRect? {
        guard transform.b == 0, transform.c == 0, transform.a != 0, transform.d != 0 else { return nil }
        let device = rect.applying(transform)
        func snapped(_ edge: CGFloat) -> CGFloat? {
            edge.isFinite && abs(edge - edge.rounded()) < 1e-9 ? edge.rounded() : nil
        }
        guard let minX = snapped(device.minX), let minY = snapped(device.minY),
            let maxX = snapped(device.maxX), let maxY = snapped(device.maxY)
        else { return nil }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The device pixels `bitmap` covers when drawn into `rect` under `transform` as a
    /// direct copy (each bitmap pixel on one whole device pixel, the graphics context's
    /// unresampled path), else `nil`.
    static func pixelForPixelRect(_ bitmap: Bitmap, in rect: CGRect, by transform: CGAffineTransform) -> CGRect? {
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { return nil }
        let imageToUser = CGAffineTransform(
            a: rect.width / CGFloat(bitmap.width), b: 0, c: 0, d: rect.height / CGFloat(bitmap.height),
            tx: rect.minX, ty: rect.minY)
        let imageToDevice = imageToUser.concatenating(transform)
        guard imageToDevice.isTranslationOnly, abs(imageToDevice.tx) < 1e9, abs(imageToDevice.ty) < 1e9,
            imageToDevice.tx == imageToDevice.tx.rounded(), imageToDevice.ty == imageToDevice.ty.rounded()
        else { return nil }
        return CGRect(
            x: imageToDevice.tx, y: imageToDevice.ty, width: CGFloat(bitmap.width), height: CGFloat(bitmap.height))
    }

    /// Whether drawing `bitmap` into `rect` under `ctm` lands each source pixel exactly on
    /// one device pixel, within a tolerance (then nearest sampling is exact and cheapest).
    static func mapsPixelForPixel(_ bitmap: Bitmap, into rect: CGRect, by ctm: CGAffineTransform) -> Bool {
        guard ctm.isPositiveAxisAligned else { return false }
        let device = rect.applying(ctm)
        let tolerance: CGFloat = 0.001
        return abs(device.width - CGFloat(bitmap.width)) < tolerance
            && abs(device.height - CGFloat(bitmap.height)) < tolerance
            && abs(device.minX - device.minX.rounded()) < tolerance
            && abs(device.minY - device.minY.rounded()) < tolerance
    }
}
