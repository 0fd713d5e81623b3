@testable import DamaskGraphics
import Foundation
import Testing

/// A ``Path`` caches its device polygons and edge table per CTM, stroke style and clip box
/// (``PathGeometryCache``). Every cached draw must paint exactly what a path that never
/// drew before paints, and any change of the path, transform, style or clip must be seen.
@Suite("Path geometry cache", .timeLimit(.minutes(5)))
struct PathGeometryCacheTests {
    /// A concave pentagon built afresh on every call (so it has no cached geometry).
    static func shape() -> Path {
        var path = Path()
        path.move(to: CGPoint(x: 6.3, y: 5.1))
        path.addLine(to: CGPoint(x: 50.7, y: 9.4))
        path.addLine(to: CGPoint(x: 30.2, y: 24.6))
        path.addCurve(to: CGPoint(x: 44.9, y: 55.3), control1: CGPoint(x: 52, y: 30), control2: CGPoint(x: 58, y: 50))
        path.addLine(to: CGPoint(x: 9.8, y: 41.2))
        path.closeSubpath()
        return path
    }

    /// The shape with one more subpath, built afresh.
    static func changedShape() -> Path {
        var path = shape()
        path.addEllipse(in: CGRect(x: 34.5, y: 36.25, width: 20, height: 14))
        return path
    }

    /// A 64×64 bitmap after `draw` (white background, translucent colours so every pixel's
    /// coverage shows).
    static func render(_ draw: (GraphicsContext) -> Void) throws -> Bitmap {
        let bitmap = try Bitmap(width: 64, height: 64)
        bitmap.fill(.white)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.7))
        context.setStrokeColor(Color(red: 0.8, green: 0.2, blue: 0.1, alpha: 0.6))
        context.setLineWidth(3)
        draw(context)
        return bitmap
    }

    /// How many pixels differ between `a` and `b` (same size).
    static func differences(_ a: Bitmap, _ b: Bitmap) -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 }
        }
        return count
    }

    @Test("a fill and a stroke drawn again reuse the cached geometry and paint the same pixels")
    func repeatedDrawsHitTheCache() throws {
        let path = Self.shape()
        let first = try Self.render { $0.fill(path); $0.stroke(path) }
        let cache = try #require(path.geometryCache)
        let fillKey = PathGeometryCache.Key(version: path.geometryVersion, ctm: .identity, stroke: nil)
        let fillEntry = try #require(cache.entry(for: fillKey), "the fill was not cached")
        #expect(fillEntry.table != nil, "the edge table was not cached")
        let strokeStyle = PathGeometryCache.StrokeStyle(
            lineWidth: 3, cap: .butt, join: .miter, miterLimit: 10, dashLengths: [], dashPhase: 0)
        let strokeKey = PathGeometryCache.Key(version: path.geometryVersion, ctm: .identity, stroke: strokeStyle)
        #expect(cache.entry(for: strokeKey) != nil, "the stroke outline was not cached")
        let again = try Self.render { $0.fill(path); $0.stroke(path) }
        #expect(Self.differences(first, again) == 0)
        let fresh = try Self.render { $0.fill(Self.shape()); $0.stroke(Self.shape()) }
        #expect(Self.differences(first, fresh) == 0)
    }

    @Test("changing a path after it was drawn draws the changed path")
    func mutationInvalidates() throws {
        var path = Self.shape()
        let before = try Self.render { $0.fill(path); $0.stroke(path) }
        let version = path.geometryVersion
        path.addEllipse(in: CGRect(x: 34.5, y: 36.25, width: 20, height: 14))
        #expect(path.geometryVersion != version)
        let after = try Self.render { $0.fill(path); $0.stroke(path) }
        let expected = try Self.render { $0.fill(Self.changedShape()); $0.stroke(Self.changedShape()) }
        #expect(Self.differences(before, expected) > 0, "the change must show in the pixels")
        #expect(Self.differences(after, expected) == 0)
    }

    @Test("a copy changed after drawing gets its own cache; the original keeps its geometry")
    func copiesDoNotShareChangedGeometry() throws {
        let original = Self.shape()
        let before = try Self.render { $0.fill(original) }
        var copy = original
        #expect(copy.geometryCache === original.geometryCache)
        copy.addEllipse(in: CGRect(x: 34.5, y: 36.25, width: 20, height: 14))
        #expect(copy.geometryCache !== original.geometryCache)
        let copyPixels = try Self.render { $0.fill(copy) }
        let expected = try Self.render { $0.fill(Self.changedShape()) }
        #expect(Self.differences(copyPixels, expected) == 0)
        let originalAgain = try Self.render { $0.fill(original) }
        #expect(Self.differences(originalAgain, before) == 0)
        #expect(Self.differences(originalAgain, copyPixels) > 0)
    }

    @Test("a new transform, line settings, dash or clip box never reuses stale geometry")
    func keyChangesInvalidate() throws {
        let path = Self.shape()
        let draws: [(String, (GraphicsContext, Path) -> Void)] = [
            ("translated", { c, p in c.translateBy(x: 3.25, y: -2.5); c.fill(p); c.stroke(p) }),
            ("scaled", { c, p in c.scaleBy(x: 0.75, y: 1.1); c.fill(p); c.stroke(p) }),
            ("wider line", { c, p in c.setLineWidth(5); c.stroke(p) }),
            ("round joins", { c, p in c.setLineJoin(.round); c.stroke(p) }),
            ("dashed", { c, p in c.setLineDash(phase: 1, lengths: [4, 2]); c.stroke(p) }),
            ("clipped", { c, p in c.clip(to: CGRect(x: 10, y: 12, width: 30, height: 25)); c.fill(p); c.stroke(p) }),
            ("plain", { c, p in c.fill(p); c.stroke(p) }),
        ]
        let plain = try Self.render { $0.fill(Self.shape()); $0.stroke(Self.shape()) }
        for (name, draw) in draws {
            // The same path object, drawn after every other variant: each must equal a
            // path that never drew before.
            _ = try Self.render { $0.fill(path); $0.stroke(path) }
            let cached = try Self.render { draw($0, path) }
            let fresh = try Self.render { draw($0, Self.shape()) }
            #expect(Self.differences(cached, fresh) == 0, "\(name)")
            if name != "plain" {
                #expect(Self.differences(fresh, plain) > 0, "\(name) must change the pixels")
            }
        }
    }

    @Test("a path converted once records nothing; its second conversion records the coverage")
    func coverageIsRecordedByTheSecondConversion() throws {
        let path = Self.shape()
        let first = try Self.render { $0.fill(path) }
        let cache = try #require(path.geometryCache)
        let fillKey = PathGeometryCache.Key(version: path.geometryVersion, ctm: .identity, stroke: nil)
        let entry = try #require(cache.entry(for: fillKey))
        #expect(entry.coverage == nil, "a path drawn once must not keep recorded coverage")
        #expect(entry.unrecordedScan == PathGeometryCache.ScanSettings(rule: .winding, antialias: true))
        let second = try Self.render { $0.fill(path) }
        #expect(cache.entry(for: fillKey)?.coverage != nil, "the second conversion was not recorded")
        let replayed = try Self.render { $0.fill(path) }
        #expect(Self.differences(first, second) == 0 && Self.differences(second, replayed) == 0)
    }

    @Test("a fill or stroke drawn again replays its recorded coverage with the new colour and alpha")
    func recordedCoverageReplaysWithNewColours() throws {
        let path = Self.shape()
        for _ in 0..<2 { _ = try Self.render { $0.fill(path); $0.stroke(path) } }
        let cache = try #require(path.geometryCache)
        let fillKey = PathGeometryCache.Key(version: path.geometryVersion, ctm: .identity, stroke: nil)
        let recorded = try #require(cache.entry(for: fillKey)?.coverage, "the fill's coverage was not recorded")
        #expect(recorded.rule == .winding && recorded.antialias)
        #expect(!recorded.recording.items.isEmpty && !recorded.recording.values.isEmpty)
        func recoloured(_ context: GraphicsContext, _ shape: Path) {
            context.setFillColor(Color(red: 0.9, green: 0.6, blue: 0.05, alpha: 1))
            context.setStrokeColor(Color(red: 0.2, green: 0.7, blue: 0.4, alpha: 0.35))
            context.setAlpha(0.8)
            context.fill(shape)
            context.stroke(shape)
        }
        let replayed = try Self.render { recoloured($0, path) }
        let fresh = try Self.render { recoloured($0, Self.shape()) }
        #expect(Self.differences(replayed, fresh) == 0)
        #expect(Self.differences(replayed, try Self.render { $0.fill(path); $0.stroke(path) }) > 0)
    }

    @Test("recorded coverage is not replayed under another fill rule or antialiasing")
    func recordedCoverageFollowsRuleAndAntialiasing() throws {
        // A self-intersecting pentagram: its centre is inside by the non-zero rule only.
        var path = Path()
        let points = (0..<5).map { index -> CGPoint in
            let angle = -CGFloat.pi / 2 + CGFloat(index) * 4 * .pi / 5
            return CGPoint(x: 32.3 + 27 * cos(angle), y: 33.1 + 27 * sin(angle))
        }
        path.move(to: points[0])
        for point in points.dropFirst() { path.addLine(to: point) }
        path.closeSubpath()
        let fresh = { () -> Path in
            var copy = Path()
            copy.move(to: points[0])
            for point in points.dropFirst() { copy.addLine(to: point) }
            copy.closeSubpath()
            return copy
        }
        let draws: [(String, (GraphicsContext, Path) -> Void)] = [
            ("non-zero", { c, p in c.fill(p, using: .winding) }),
            ("even-odd", { c, p in c.fill(p, using: .evenOdd) }),
            ("aliased even-odd", { c, p in c.setShouldAntialias(false); c.fill(p, using: .evenOdd) }),
            ("aliased non-zero", { c, p in c.setShouldAntialias(false); c.fill(p, using: .winding) }),
            ("non-zero again", { c, p in c.fill(p, using: .winding) }),
        ]
        for (name, draw) in draws {
            let expected = try Self.render { draw($0, fresh()) }
            // Converted, converted and recorded, replayed: each must equal a fresh path.
            for round in 1...3 {
                let cached = try Self.render { draw($0, path) }
                #expect(Self.differences(cached, expected) == 0, "\(name), draw \(round)")
            }
        }
        let nonZero = try Self.render { $0.fill(fresh(), using: .winding) }
        let evenOdd = try Self.render { $0.fill(fresh(), using: .evenOdd) }
        #expect(Self.differences(nonZero, evenOdd) > 0, "the rules must differ on this shape")
    }
}
