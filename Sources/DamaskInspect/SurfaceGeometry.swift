/// The double-buffered geometry state of a surface that maps surface coordinates to buffer
/// pixels: buffer scale, buffer transform and a `wp_viewport`.
public struct SurfaceGeometry: Sendable, Equatable {
    /// `wl_surface.set_buffer_scale`.
    public var scale = 1
    /// `wl_surface.set_buffer_transform` (`wl_output.transform`, 0…7).
    public var transform = 0
    /// `wp_viewport.set_source` in surface-local units (nil: unset).
    public var source: (x: Double, y: Double, width: Double, height: Double)?
    /// `wp_viewport.set_destination` (nil: unset).
    public var destination: (width: Int, height: Int)?

    public init() {}

    public static func == (a: SurfaceGeometry, b: SurfaceGeometry) -> Bool {
        a.scale == b.scale && a.transform == b.transform
            && a.source.map { [$0.x, $0.y, $0.width, $0.height] } == b.source.map { [$0.x, $0.y, $0.width, $0.height] }
            && a.destination.map { [$0.width, $0.height] } == b.destination.map { [$0.width, $0.height] }
    }

    /// Whether the buffer's axes are swapped by the transform (90° and 270° variants).
    var swapsAxes: Bool { transform & 1 == 1 }

    /// The rectangle of buffer pixels that surface-coordinate `rect` covers on a buffer of
    /// `bufferWidth`×`bufferHeight`, rounded outward and clipped to the buffer.
    public func bufferRect(fromSurface rect: PixelRect, bufferWidth: Int, bufferHeight: Int) -> PixelRect {
        let scale = Double(max(1, self.scale))
        // The buffer as the surface sees it: transformed, then divided by the scale. A size
        // that is not a multiple of the scale counts as the multiple below it, as Weston's
        // surface size (integer division) and its transforms take it (mutter refuses it).
        let whole = max(1, self.scale)
        let transformedWidth = Double((swapsAxes ? bufferHeight : bufferWidth) / whole * whole)
        let transformedHeight = Double((swapsAxes ? bufferWidth : bufferHeight) / whole * whole)
        let logical = (width: transformedWidth / scale, height: transformedHeight / scale)
        let crop = source ?? (0, 0, logical.width, logical.height)
        let surfaceSize: (width: Double, height: Double) =
            destination.map { (Double($0.width), Double($0.height)) } ?? (crop.width, crop.height)
        guard surfaceSize.width > 0, surfaceSize.height > 0 else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        // Clamp first (past any surface: a viewport destination may be up to 2³¹−1 wide):
        // clients often damage with INT32_MAX sizes.
        let x0 = Double(max(-1 << 32, min(rect.x, 1 << 32)))
        let y0 = Double(max(-1 << 32, min(rect.y, 1 << 32)))
        let x1 = Double(max(-1 << 32, min(rect.x.addingReportingOverflow(rect.width).partialValue, 1 << 32)))
        let y1 = Double(max(-1 << 32, min(rect.y.addingReportingOverflow(rect.height).partialValue, 1 << 32)))
        var xs: [Double] = [], ys: [Double] = []
        for (sx, sy) in [(x0, y0), (x1, y1)] {
            let u = (crop.x + sx * crop.width / surfaceSize.width) * scale
            let v = (crop.y + sy * crop.height / surfaceSize.height) * scale
            let (bx, by) = untransform(u, v, width: transformedWidth, height: transformedHeight)
            xs.append(bx)
            ys.append(by)
        }
        // A hostile but decodable geometry (scale 2³¹−1, a huge viewport source shown at 1×1)
        // puts these far beyond Int: clamp to just outside the buffer before converting,
        // which the intersection below makes no difference to.
        func near(_ value: Double?, _ size: Int) -> Double {
            guard let value, !value.isNaN else { return 0 }
            return min(max(value, -1), Double(size) + 1)
        }
        let left = Int(near(xs.min(), bufferWidth).rounded(.down)), right = Int(near(xs.max(), bufferWidth).rounded(.up))
        let top = Int(near(ys.min(), bufferHeight).rounded(.down)), bottom = Int(near(ys.max(), bufferHeight).rounded(.up))
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
            .intersection(PixelRect(x: 0, y: 0, width: bufferWidth, height: bufferHeight))
    }

    /// Maps a point of the transformed buffer (`width`×`height` as the surface sees it) to
    /// the stored buffer, per the `wl_output.transform` definitions.
    private func untransform(_ x: Double, _ y: Double, width: Double, height: Double) -> (Double, Double) {
        switch transform {
        case 1: return (y, width - x)            // 90
        case 2: return (width - x, height - y)   // 180
        case 3: return (height - y, x)           // 270
        case 4: return (width - x, y)            // flipped
        case 5: return (y, x)                    // flipped-90
        case 6: return (x, height - y)           // flipped-180
        case 7: return (height - y, width - x)   // flipped-270
        default: return (x, y)
        }
    }
}
