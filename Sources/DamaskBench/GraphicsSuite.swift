import CPixman
import DamaskGraphics
import Foundation

/// Rasterizer throughput, each case against pixman or a `memset`/`memcpy` of the same bytes,
/// then issue 16's cases against cairo (``CairoComparison``).
@MainActor struct GraphicsSuite {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    /// Runs every graphics case.
    func run() throws {
        try opaqueRectFill()
        try circleFill()
        try starStroke()
        try textLine()
        try shapedTextLines()
        try bilinearScale()
        try currentContextLookup()
        try CairoComparison(report: report, sampler: sampler).run()
    }

    /// What a view's draw pays to find its context: `GraphicsContext.push`, `current` and
    /// `pop`, against the same three steps on a bare `pthread_key_t` stack. DamaskGraphics
    /// adopted that design after this figure showed its old thread-dictionary look-up at
    /// 15× the cost; the ratio now guards against a regression (it should stay near 1).
    private func currentContextLookup() throws {
        let context = GraphicsContext(bitmap: try Bitmap(width: 1, height: 1))
        let damask = {
            GraphicsContext.push(context)
            precondition(GraphicsContext.current === context)
            GraphicsContext.pop()
        }
        let proposed = {
            ThreadLocalContextStack.forCurrentThread.contexts.append(context)
            precondition(ThreadLocalContextStack.forCurrentThread.contexts.last === context)
            _ = ThreadLocalContextStack.forCurrentThread.contexts.popLast()
        }
        add("current context push+current+pop", sampler.compare(damask, against: proposed), baseline: "pthread_getspecific stack")
    }

    /// Opaque rect fill of a whole 1920×1080 bitmap, vs pixman_image_fill_rectangles and memset.
    private func opaqueRectFill() throws {
        let bitmap = try Bitmap(width: 1920, height: 1080)
        let context = GraphicsContext(bitmap: bitmap)
        let rect = CGRect(x: 0, y: 0, width: 1920, height: 1080)
        let colors = [Color(red: 0.2, green: 0.4, blue: 0.8, alpha: 1), Color(red: 0.8, green: 0.4, blue: 0.2, alpha: 1)]
        var flip = 0
        let fill = {
            flip ^= 1
            context.setFillColor(colors[flip])
            context.fill(rect)
        }
        var pixmanColor = pixman_color_t(red: 0x3333, green: 0x6666, blue: 0xcccc, alpha: 0xffff)
        var box = pixman_rectangle16_t(x: 0, y: 0, width: 1920, height: 1080)
        let pixmanFill = {
            pixmanColor.red ^= 0xffff
            _ = pixman_image_fill_rectangles(PIXMAN_OP_OVER, bitmap.image, &pixmanColor, 1, &box)
        }
        let name = "opaque rect fill 1920x1080"
        add(name, sampler.compare(fill, against: pixmanFill), baseline: "pixman_image_fill_rectangles")
        var byte: Int32 = 0x33
        let bytes = bitmap.bytes
        let count = bitmap.bytesPerRow * bitmap.height
        let clear = {
            byte ^= 0xff
            memset(bytes, byte, count)
        }
        add(name, sampler.compare(fill, against: clear), baseline: "memset same bytes")
    }

    /// Antialiased circle fill in 512×512.
    private func circleFill() throws {
        let bitmap = try Bitmap(width: 512, height: 512)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color(red: 0.1, green: 0.5, blue: 0.3, alpha: 1))
        let circle = Path(ellipseIn: CGRect(x: 6.5, y: 6.5, width: 499, height: 499))
        try compareWithMemcpy("antialiased circle fill 512x512", bitmap: bitmap) { context.fill(circle) }
    }

    /// A five-pointed star stroked 3 wide in 512×512.
    private func starStroke() throws {
        let bitmap = try Bitmap(width: 512, height: 512)
        let context = GraphicsContext(bitmap: bitmap)
        context.setStrokeColor(Color(red: 0.7, green: 0.1, blue: 0.2, alpha: 1))
        context.setLineWidth(3)
        var star = Path()
        for index in 0..<10 {
            let radius: CGFloat = index.isMultiple(of: 2) ? 240 : 96
            let angle = -CGFloat.pi / 2 + CGFloat(index) * .pi / 5
            let point = CGPoint(x: 256 + radius * cos(angle), y: 256 + radius * sin(angle))
            if index == 0 { star.move(to: point) } else { star.addLine(to: point) }
        }
        star.closeSubpath()
        try compareWithMemcpy("star stroke width 3 512x512", bitmap: bitmap) { context.stroke(star) }
    }

    /// One line of 80 glyphs (14 pt system font), glyph caches warm.
    private func textLine() throws {
        let font = Font.system(size: 14)
        let text = String(repeating: "The quick brown fox jumps over a lazy dog ", count: 2).prefix(80)
        let line = String(text)
        let metrics = font.measure(line)
        let width = Int(metrics.width.rounded(.up)) + 4
        let height = Int((metrics.ascent + metrics.descent).rounded(.up)) + 4
        let bitmap = try Bitmap(width: width, height: height)
        let context = GraphicsContext(bitmap: bitmap)
        let origin = CGPoint(x: 2, y: 2 + metrics.ascent)
        try compareWithMemcpy("text line of 80 glyphs (\(width)x\(height))", bitmap: bitmap) {
            context.draw(line, at: origin, font: font, color: .black)
        }
    }

    /// A shaped Bengali line and an Arabic (right-to-left, joined) line of 80 characters
    /// against a Latin line of 80 (14 pt system font, line and glyph caches warm).
    ///
    /// Issue 20 asks that these cost at most 1.5× the Latin line. It counts characters as
    /// code points (font coverage is per code point there; grapheme clusters are named as
    /// such), and the Latin line's 80 characters are 80 code points, so the target lines
    /// are 80 code points each. A Bengali line of 80 grapheme clusters (127 code points)
    /// is measured too, without a target: a warm draw is one composite of a cached mask,
    /// so its cost follows the ink blended, and that line has 1.50× the Latin line's
    /// inked pixels (docs/performance.md, "text in other scripts").
    private func shapedTextLines() throws {
        let font = Font.system(size: 14)
        let latin = String(String(repeating: "The quick brown fox jumps over a lazy dog ", count: 2).prefix(80))
        let bengali = String(repeating: "আমি আমার অ্যাপ্লিকেশনে একটি ভিউ আঁকি এবং সিস্টেম পুনরায় রেন্ডার করে। ", count: 3)
        let arabic = String(repeating: "مرحبا بالعالم، هذا سطر من النص العربي يرسمه دمشق من اليمين إلى اليسار. ", count: 3)
        func codePoints(_ text: String, _ count: Int) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.prefix(count)))
        }
        let clusters = String(bengali.prefix(80))
        let lines: [(name: String, text: String, hasTarget: Bool)] = [
            ("Bengali line of 80 characters (code points)", codePoints(bengali, 80), true),
            ("Arabic line of 80 characters (code points)", codePoints(arabic, 80), true),
            (
                "Bengali line of 80 grapheme clusters (\(clusters.unicodeScalars.count) code points)",
                clusters, false
            ),
        ]
        for (name, text, hasTarget) in lines {
            guard sampler.includes(name) else { continue }
            let metrics = font.measure(text), latinMetrics = font.measure(latin)
            let width = Int(max(metrics.width, latinMetrics.width).rounded(.up)) + 4
            let height = Int((max(metrics.ascent, latinMetrics.ascent) + max(metrics.descent, latinMetrics.descent)).rounded(.up)) + 4
            let bitmap = try Bitmap(width: width, height: height)
            let context = GraphicsContext(bitmap: bitmap)
            let origin = CGPoint(x: 2, y: 2 + max(metrics.ascent, latinMetrics.ascent))
            let shaped = { context.draw(text, at: origin, font: font, color: .black) }
            let plain = { context.draw(latin, at: origin, font: font, color: .black) }
            // What the warm draw's cost follows: the inked pixels it blends, and the groups
            // of 4 pixels pixman's SSE2 loop blends (it skips a group with no coverage).
            let counts = [shaped, plain].map { draw -> (pixels: Double, groups: Double) in
                bitmap.fill(.clear)
                draw()
                return (Double(Self.inkedPixels(in: bitmap)), Double(Self.inkedGroups(in: bitmap)))
            }
            let inkRatio = counts[0].pixels / max(counts[1].pixels, 1)
            let result = sampler.compare(shaped, against: plain)
            report.add(
                Figure(
                    suite: "graphics", name: name, metric: "time", unit: "µs",
                    value: result.subject.scaled(by: 1e-3), baseline: "Latin line of 80",
                    baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio,
                    note: hasTarget
                        ? nil
                        : "no target; ink-bound: ×\(String(format: "%.2f", inkRatio)) the Latin line's inked pixels"))
            if hasTarget {
                report.check(Target(statement: "\(name) ≤ 1.5× Latin line", measured: result.ratio.median, limit: 1.5, unit: "×"))
            }
            for (metric, unit, value, latin) in [
                ("inked pixels", "px", counts[0].pixels, counts[1].pixels),
                ("inked 4-pixel groups", "groups", counts[0].groups, counts[1].groups),
            ] {
                report.add(
                    Figure(
                        suite: "graphics", name: name, metric: metric, unit: unit, value: Statistics([value]),
                        baseline: "Latin line of 80", baselineValue: Statistics([latin]),
                        ratio: Statistics([value / max(latin, 1)])))
            }
        }
    }

    /// How many pixels of `bitmap` have any alpha.
    private static func inkedPixels(in bitmap: Bitmap) -> Int {
        var count = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) >> 24 != 0 { count += 1 }
        }
        return count
    }

    /// How many aligned groups of 4 pixels of `bitmap` have any alpha (pixman's SSE2
    /// `OVER` of a solid colour through an `a8` mask blends 4 pixels at a time and skips
    /// a group whose mask is zero).
    private static func inkedGroups(in bitmap: Bitmap) -> Int {
        var count = 0
        for y in 0..<bitmap.height {
            for x in stride(from: 0, to: bitmap.width, by: 4)
            where (x..<min(x + 4, bitmap.width)).contains(where: { bitmap.pixel(x: $0, y: y) >> 24 != 0 }) {
                count += 1
            }
        }
        return count
    }

    /// A 256×256 bitmap drawn scaled 2× with bilinear filtering.
    private func bilinearScale() throws {
        let source = try Bitmap(width: 256, height: 256)
        let sourceContext = GraphicsContext(bitmap: source)
        for index in 0..<16 {
            sourceContext.setFillColor(Color(red: CGFloat(index) / 15, green: 0.5, blue: 1 - CGFloat(index) / 15, alpha: 1))
            sourceContext.fill(CGRect(x: index * 16, y: 0, width: 16, height: 256))
        }
        let bitmap = try Bitmap(width: 512, height: 512)
        let context = GraphicsContext(bitmap: bitmap)
        let target = CGRect(x: 0, y: 0, width: 512, height: 512)
        try compareWithMemcpy("bitmap scaled 2x bilinear 512x512", bitmap: bitmap) {
            context.draw(source, in: target, interpolation: .low)
        }
    }

    /// Measures `body` against a `memcpy` of all of `bitmap`'s bytes.
    private func compareWithMemcpy(_ name: String, bitmap: Bitmap, _ body: () -> Void) throws {
        guard sampler.includes(name) else { return }
        let count = bitmap.bytesPerRow * bitmap.height
        let source = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        defer { source.deallocate() }
        memset(source, 0x5a, count)
        let destination = bitmap.bytes
        let copy = { _ = memcpy(destination, source, count) }
        add(name, sampler.compare(body, against: copy), baseline: "memcpy same bytes")
    }

    /// Measures (through `result`) and records the figure `name`, unless `--case` excludes it.
    private func add(
        _ name: String, _ result: @autoclosure () -> (subject: Statistics, baseline: Statistics, ratio: Statistics),
        baseline: String
    ) {
        guard sampler.includes(name) else { return }
        let result = result()
        report.add(
            Figure(
                suite: "graphics", name: name, metric: "time", unit: "µs",
                value: result.subject.scaled(by: 1e-3), baseline: baseline,
                baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio))
    }
}
