import CCairo
import DamaskGraphics
import Foundation

/// DamaskGraphics against cairo (the image backend, the same pixman underneath) in the
/// same run: the cases issue 16 names, same geometry, samples interleaved pair by pair.
///
/// cairo is a benchmark-only dependency (the `CCairo` system-library target). Every cairo
/// object made here is destroyed before the function that made it returns; the image
/// surfaces wrapping a Damask bitmap's bytes never outlive that bitmap.
@MainActor struct CairoComparison {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    /// The canvas of the shape cases.
    static let canvas = 512

    /// Runs every case.
    func run() throws {
        try shapes()
        try glyphs()
        try png()
    }

    // MARK: Shapes

    /// The circle r=240 and the five-pointed star (outer 240, inner 96), filled and stroked
    /// 3 px wide, antialiased, opaque colour, 512×512 ARGB32.
    private func shapes() throws {
        let bitmap = try Bitmap(width: Self.canvas, height: Self.canvas)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color(red: 0.1, green: 0.5, blue: 0.3, alpha: 1))
        context.setStrokeColor(Color(red: 0.7, green: 0.1, blue: 0.2, alpha: 1))
        context.setLineWidth(3)
        let target = try CairoTarget(size: Self.canvas)
        defer { target.destroy() }
        let cr = target.cr
        cairo_set_line_width(cr, 3)

        // Built once, drawn every time (the seeds' pattern).
        let circle = Path(ellipseIn: CGRect(x: 16, y: 16, width: 480, height: 480))
        let star = Self.starPoints()
        var starPath = Path()
        starPath.move(to: star[0])
        for point in star.dropFirst() { starPath.addLine(to: point) }
        starPath.closeSubpath()

        func cairoCircle() {
            cairo_new_path(cr)
            cairo_arc(cr, 256, 256, 240, 0, 2 * .pi)
            cairo_close_path(cr)
        }
        func cairoStar() {
            cairo_new_path(cr)
            cairo_move_to(cr, Double(star[0].x), Double(star[0].y))
            for point in star.dropFirst() { cairo_line_to(cr, Double(point.x), Double(point.y)) }
            cairo_close_path(cr)
        }
        compare("circle r=240 fill", { context.fill(circle) }) {
            cairo_set_source_rgba(cr, 0.1, 0.5, 0.3, 1)
            cairoCircle()
            cairo_fill(cr)
        }
        compare("circle r=240 stroke 3 px", { context.stroke(circle) }) {
            cairo_set_source_rgba(cr, 0.7, 0.1, 0.2, 1)
            cairoCircle()
            cairo_stroke(cr)
        }
        compare("5-point star fill", { context.fill(starPath) }) {
            cairo_set_source_rgba(cr, 0.1, 0.5, 0.3, 1)
            cairoStar()
            cairo_fill(cr)
        }
        compare("5-point star stroke 3 px", { context.stroke(starPath) }) {
            cairo_set_source_rgba(cr, 0.7, 0.1, 0.2, 1)
            cairoStar()
            cairo_stroke(cr)
        }
        // The same shapes as a new Path on every draw, as cairo builds them (and as most
        // draw(_:) code does): flattening, outlining, the edge table and the scan
        // conversion every time, nothing from the path's cache. Targets like the rest.
        func freshStar() -> Path {
            var path = Path()
            path.move(to: star[0])
            for point in star.dropFirst() { path.addLine(to: point) }
            path.closeSubpath()
            return path
        }
        let uncachedNote = "new Path per draw: no cached geometry or coverage"
        compare("5-point star fill, new path", note: uncachedNote, { context.fill(freshStar()) }) {
            cairo_set_source_rgba(cr, 0.1, 0.5, 0.3, 1)
            cairoStar()
            cairo_fill(cr)
        }
        compare("5-point star stroke 3 px, new path", note: uncachedNote, {
            context.stroke(freshStar())
        }) {
            cairo_set_source_rgba(cr, 0.7, 0.1, 0.2, 1)
            cairoStar()
            cairo_stroke(cr)
        }
        compare("circle r=240 fill, new path", note: uncachedNote, {
            context.fill(Path(ellipseIn: CGRect(x: 16, y: 16, width: 480, height: 480)))
        }) {
            cairo_set_source_rgba(cr, 0.1, 0.5, 0.3, 1)
            cairoCircle()
            cairo_fill(cr)
        }
        compare("circle r=240 stroke 3 px, new path", note: uncachedNote, {
            context.stroke(Path(ellipseIn: CGRect(x: 16, y: 16, width: 480, height: 480)))
        }) {
            cairo_set_source_rgba(cr, 0.7, 0.1, 0.2, 1)
            cairoCircle()
            cairo_stroke(cr)
        }
    }

    /// The star's ten vertices, centred in the canvas.
    static func starPoints() -> [CGPoint] {
        (0..<10).map { index in
            let radius: CGFloat = index.isMultiple(of: 2) ? 240 : 96
            let angle = -CGFloat.pi / 2 + CGFloat(index) * .pi / 5
            return CGPoint(x: 256 + radius * cos(angle), y: 256 + radius * sin(angle))
        }
    }

    // MARK: Glyphs

    /// 80 glyphs of DejaVu Sans at 14 px, black, glyph caches warm.
    private func glyphs() throws {
        guard sampler.includes("80 glyphs DejaVu Sans 14 px") else { return }
        let line = String(String(repeating: "The quick brown fox jumps over a lazy dog ", count: 2).prefix(80))
        let font = try Font(family: "DejaVu Sans", size: 14)
        let bitmap = try Bitmap(width: 640, height: 24)
        let context = GraphicsContext(bitmap: bitmap)
        let target = try CairoTarget(width: 640, height: 24)
        defer { target.destroy() }
        let cr = target.cr
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 14)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        compare("80 glyphs DejaVu Sans 14 px", {
            context.draw(line, at: CGPoint(x: 2, y: 17), font: font, color: .black)
        }) {
            cairo_move_to(cr, 2, 17)
            cairo_show_text(cr, line)
        }
    }

    // MARK: PNG

    /// Encoding and decoding an opaque 1920×1080 image (a gradient under shapes and text,
    /// drawn once by Damask); both libraries encode and decode the same pixels and bytes.
    private func png() throws {
        guard ["PNG encode 1920x1080", "PNG encoded size 1920x1080", "PNG decode 1920x1080"].contains(where: sampler.includes)
        else { return }
        let bitmap = try Bitmap(width: 1920, height: 1080)
        let context = GraphicsContext(bitmap: bitmap)
        context.drawLinearGradient(
            colors: [Color(red: 0.15, green: 0.2, blue: 0.45, alpha: 1), Color(red: 0.9, green: 0.85, blue: 0.7, alpha: 1)],
            locations: nil, start: .zero, end: CGPoint(x: 1920, y: 1080), options: [])
        for index in 0..<40 {
            let x = CGFloat(index % 8) * 240 + 20, y = CGFloat(index / 8) * 210 + 20
            context.setFillColor(Color(red: CGFloat(index % 5) / 5, green: 0.4, blue: CGFloat(index % 3) / 3, alpha: 1))
            context.fillEllipse(in: CGRect(x: x, y: y, width: 180, height: 160))
            context.draw("Damask \(index)", at: CGPoint(x: x + 30, y: y + 90), font: Font.system(size: 24), color: .white)
        }
        guard let surface = cairo_image_surface_create_for_data(
            bitmap.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.bytesPerRow))
        else { throw BenchError.helper("cairo could not wrap the bitmap") }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { throw BenchError.helper("cairo could not wrap the bitmap") }

        compare("PNG encode 1920x1080", { _ = try? bitmap.pngData() }) {
            _ = CairoPNG.encode(surface)
        }
        if sampler.includes("PNG encoded size 1920x1080") {
            let damaskBytes = Double((try bitmap.pngData()).count)
            let cairoBytes = Double(CairoPNG.encode(surface).count)
            report.add(
                Figure(
                    suite: "graphics", name: "PNG encoded size 1920x1080", metric: "size", unit: "bytes",
                    value: Statistics([damaskBytes]), baseline: "cairo \(CairoComparison.cairoVersion)",
                    baselineValue: Statistics([cairoBytes]), ratio: Statistics([damaskBytes / max(cairoBytes, 1)])))
        }
        let encoded = CairoPNG.encode(surface)
        guard !encoded.isEmpty else { throw BenchError.helper("cairo could not encode the PNG") }
        compare("PNG decode 1920x1080", { _ = try? Bitmap(pngData: encoded) }) {
            CairoPNG.decode(encoded)
        }
    }

    // MARK: Reporting

    /// Measures `damask` against `cairo`, records the figure and, with `target`, checks
    /// issue 16's target (median ratio ≤ 1.0× cairo).
    private func compare(
        _ name: String, note: String? = nil, target: Bool = true, _ damask: () -> Void, cairo: () -> Void
    ) {
        guard sampler.includes(name) else { return }
        let result = sampler.compare(damask, against: cairo)
        report.add(
            Figure(
                suite: "graphics", name: name, metric: "time", unit: "µs",
                value: result.subject.scaled(by: 1e-3), baseline: "cairo \(CairoComparison.cairoVersion)",
                baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio, note: note))
        guard target else { return }
        report.check(Target(statement: "\(name) ≤ 1.0× cairo", measured: result.ratio.median, limit: 1.0, unit: "×"))
    }

    /// The cairo library version the baseline ran against.
    static var cairoVersion: String { String(cString: cairo_version_string()) }
}
