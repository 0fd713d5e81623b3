import CPixman
import Foundation

/// Drawing bitmaps and gradients.
extension GraphicsContext {
    /// Draws `bitmap` scaled into `rect` (user space), honouring the CTM (rotation
    /// included), the clip, the global alpha and the blend mode.
    ///
    /// An unscaled bitmap at an integer device offset is a direct pixman composite.
    /// Otherwise pixman resamples it: `.none` is nearest neighbour, the others bilinear
    /// (`.default` uses the context's interpolation quality). Edges are antialiased.
    public func draw(
        _ bitmap: Bitmap, in rect: CGRect, alpha: CGFloat = 1, interpolation: InterpolationQuality = .default
    ) {
        guard let rect = GraphicsContext.validRect(rect), !alpha.isNaN else { return }
        let opacity = Color.clampUnit(alpha) * state.alpha
        guard opacity > 0 || GraphicsContext.isUnbounded(state.blendMode) else { return }
        let imageToUser = CGAffineTransform(
            a: rect.width / CGFloat(bitmap.width), b: 0, c: 0, d: rect.height / CGFloat(bitmap.height),
            tx: rect.minX, ty: rect.minY)
        let imageToDevice = imageToUser.concatenating(state.ctm)
        guard imageToDevice.isInvertible else { return }
        guard let source = pixman_image_create_bits(
            bitmap.format.pixmanFormat, Int32(bitmap.width), Int32(bitmap.height),
            bitmap.bytes.assumingMemoryBound(to: UInt32.self), Int32(bitmap.bytesPerRow))
        else { return }
        defer { pixman_image_unref(source) }

        let limit = Rasterizer.coordinateLimit
        if imageToDevice.isTranslationOnly,
            abs(imageToDevice.tx) < limit, abs(imageToDevice.ty) < limit,
            imageToDevice.tx == imageToDevice.tx.rounded(), imageToDevice.ty == imageToDevice.ty.rounded()
        {
            let dx = Int32(imageToDevice.tx), dy = Int32(imageToDevice.ty)
            let box = pixman_box32_t(x1: dx, y1: dy, x2: dx + Int32(bitmap.width), y2: dy + Int32(bitmap.height))
            composite(source, coverage: .box(box), alpha: opacity, mode: state.blendMode, sourceOffset: (-dx, -dy))
            return
        }

        let quality = interpolation == .default ? state.interpolationQuality : interpolation
        var transform = GraphicsContext.pixmanTransform(imageToDevice.inverted())
        pixman_image_set_transform(source, &transform)
        GraphicsContext.setFilter(on: source, quality: quality, deviceToImage: imageToDevice.inverted())
        pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
        let coverage: Coverage
        if let box = deviceBox(for: rect) {
            coverage = .box(box)
        } else if let mask = rasterize([deviceCorners(of: rect)], rule: .winding) {
            coverage = .mask(mask)
        } else {
            return
        }
        composite(source, coverage: coverage, alpha: opacity, mode: state.blendMode)
    }

    /// Fills the clip with a linear gradient from `start` to `end` (user space).
    ///
    /// `locations` (0…1, one per colour) default to evenly spaced. Without options,
    /// nothing is painted before the start or after the end, as in Core Graphics.
    public func drawLinearGradient(
        colors: [Color], locations: [CGFloat]?, start: CGPoint, end: CGPoint,
        options: GradientDrawingOptions = []
    ) {
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { return }
        var p1 = GraphicsContext.fixedPoint(start), p2 = GraphicsContext.fixedPoint(end)
        drawGradient(colors: colors, locations: locations, options: options) { stops, count in
            pixman_image_create_linear_gradient(&p1, &p2, stops, count)
        }
    }

    /// Fills the clip with a radial gradient blending from the start circle to the
    /// end circle (user space), as `CGContext.drawRadialGradient`.
    public func drawRadialGradient(
        colors: [Color], locations: [CGFloat]?, startCenter: CGPoint, startRadius: CGFloat,
        endCenter: CGPoint, endRadius: CGFloat, options: GradientDrawingOptions = []
    ) {
        let values = [startCenter.x, startCenter.y, endCenter.x, endCenter.y, startRadius, endRadius]
        guard values.allSatisfy(\.isFinite), startRadius >= 0, endRadius >= 0 else { return }
        var inner = GraphicsContext.fixedPoint(startCenter), outer = GraphicsContext.fixedPoint(endCenter)
        let r0 = GraphicsContext.fixed(startRadius), r1 = GraphicsContext.fixed(endRadius)
        drawGradient(colors: colors, locations: locations, options: options) { stops, count in
            pixman_image_create_radial_gradient(&inner, &outer, r0, r1, stops, count)
        }
    }

    private func drawGradient(
        colors: [Color], locations: [CGFloat]?, options: GradientDrawingOptions,
        make: (UnsafePointer<pixman_gradient_stop_t>, Int32) -> OpaquePointer?
    ) {
        guard !colors.isEmpty, let bounds = clipBounds, state.ctm.isInvertible else { return }
        var stops: [pixman_gradient_stop_t] = colors.indices.map { i in
            let location: CGFloat
            if let locations, i < locations.count {
                location = Color.clampUnit(locations[i])
            } else {
                location = colors.count == 1 ? 0 : CGFloat(i) / CGFloat(colors.count - 1)
            }
            return pixman_gradient_stop_t(
                x: GraphicsContext.fixed(location), color: colors[i].pixmanColor(premultiplied: false))
        }
        stops.sort { $0.x < $1.x }
        guard let gradient = stops.withUnsafeBufferPointer({ make($0.baseAddress!, Int32($0.count)) }) else { return }
        defer { pixman_image_unref(gradient) }
        var transform = GraphicsContext.pixmanTransform(state.ctm.inverted())
        pixman_image_set_transform(gradient, &transform)
        pixman_image_set_repeat(gradient, options.isEmpty ? PIXMAN_REPEAT_NONE : PIXMAN_REPEAT_PAD)
        let box = pixman_box32_t(x1: Int32(bounds.x0), y1: Int32(bounds.y0), x2: Int32(bounds.x1), y2: Int32(bounds.y1))
        composite(gradient, coverage: .box(box), alpha: state.alpha, mode: state.blendMode)
    }

    /// Sets the sampling filter of `image`. `.high` averages the covered source area
    /// (a separable box filter) when the image is shrunk; otherwise bilinear or nearest.
    private static func setFilter(on image: OpaquePointer, quality: InterpolationQuality, deviceToImage t: CGAffineTransform) {
        let sx = (t.a * t.a + t.b * t.b).squareRoot(), sy = (t.c * t.c + t.d * t.d).squareRoot()
        if quality == .high, sx > 1.01 || sy > 1.01, sx < 1024, sy < 1024 {
            var count: Int32 = 0
            if let parameters = pixman_filter_create_separable_convolution(
                &count, fixed(max(sx, 1)), fixed(max(sy, 1)),
                PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 4, 4)
            {
                // pixman copies the parameters; the array is ours to free.
                defer { free(parameters) }
                if pixman_image_set_filter(image, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, parameters, count) != 0 { return }
            }
        }
        pixman_image_set_filter(image, quality.pixmanFilter, nil, 0)
    }

    static func isUnbounded(_ mode: BlendMode) -> Bool {
        switch mode {
        case .copy, .clear, .sourceIn, .sourceOut, .destinationIn: true
        default: false
        }
    }

    /// `value` as pixman 16.16 fixed point, clamped to its range.
    static func fixed(_ value: CGFloat) -> pixman_fixed_t {
        let clamped = min(max(Double(value), -32767), 32767)
        return pixman_fixed_t((clamped * 65536).rounded())
    }

    static func fixedPoint(_ p: CGPoint) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: fixed(p.x), y: fixed(p.y))
    }

    /// `t` as a pixman transform (which maps destination to source coordinates).
    static func pixmanTransform(_ t: CGAffineTransform) -> pixman_transform_t {
        var f = pixman_f_transform()
        f.m = ((Double(t.a), Double(t.c), Double(t.tx)),
               (Double(t.b), Double(t.d), Double(t.ty)),
               (0, 0, 1))
        var result = pixman_transform_t()
        if pixman_transform_from_pixman_f_transform(&result, &f) == 0 {
            pixman_transform_init_identity(&result)
        }
        return result
    }
}
