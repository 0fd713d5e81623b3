import Foundation
import Synchronization

/// What a ``Path`` remembers of its last fill and its last stroke: the device-space
/// polygons (flattened, and for a stroke outlined) and the scan converter's edge table for
/// the clip box it was last drawn in, so a path built once and drawn every frame under the
/// same transform is flattened, outlined and sorted once.
///
/// ## Invalidation
///
/// An entry is used only when everything it was computed from is equal:
/// - the path's ``Path/geometryVersion``, which every change of the path's elements bumps
///   (a path shares its cache with its copies until one of them changes; the one that
///   changes first gets a fresh cache, so copies never see each other's geometry);
/// - the CTM, compared exactly;
/// - for strokes, the line width, cap, join, miter limit, dash lengths and dash phase;
/// - for the edge table, also the clip's bounding box;
/// - for the recorded coverage, also the fill rule and whether antialiasing was on.
///
/// ## Recorded coverage
///
/// When a solid fill or stroke is painted straight from the scan converter's spans for the
/// second time with the same edge table, rule and antialiasing, the spans are recorded
/// (``CoverageRecording``) next to the edge table, up to ``coverageLimit`` bytes, and the
/// next draw with the same key, box, rule and
/// antialiasing replays them into the bitmap instead of scan-converting again: the shape
/// is painted with the current colour, alpha and destination, pixel for pixel as a fresh
/// conversion would paint it. A recording holds about one byte per edge pixel plus 16
/// bytes per span, so the star of the benchmark keeps about 20 KB. The first conversion
/// only notes its rule and antialiasing (``Entry/unrecordedScan``): a path drawn once (most
/// are built inside `draw(_:)` and dropped after it) pays neither the recording's time nor
/// its memory.
///
/// A draw that misses replaces the entry, so a path holds at most one fill and one stroke
/// entry: memory proportional to its own geometry, released with the path.
///
/// Thread safety: the entries are guarded by a mutex, so copies of a path may be drawn on
/// several threads at once (each draw reads or replaces an entry under the lock and works
/// on its own copy of the arrays).
final class PathGeometryCache: Sendable {
    /// The stroke settings an outline depends on.
    struct StrokeStyle: Equatable, Sendable {
        var lineWidth: CGFloat
        var cap: LineCap
        var join: LineJoin
        var miterLimit: CGFloat
        var dashLengths: [CGFloat]
        var dashPhase: CGFloat
    }

    /// What one entry was computed from.
    struct Key: Equatable, Sendable {
        var version: UInt64
        var ctm: CGAffineTransform
        /// nil for a fill.
        var stroke: StrokeStyle?
    }

    /// Cached device geometry.
    struct Entry: Sendable {
        var key: Key
        /// The device-space polygons to fill with the non-zero (stroke) or the caller's rule.
        var polygons: [[CGPoint]]
        /// The clip box ``table`` was built for; nil when no table is cached.
        var tableBounds: Bounds?
        /// The edge table of ``polygons`` in ``tableBounds`` (nil inside when nothing of
        /// the shape reaches the box).
        var table: EdgeTable?
        /// What the scan conversion of ``table`` produced, and with which rule and
        /// antialiasing; nil until a draw records it, and whenever ``table`` changes.
        var coverage: RecordedCoverage?
        /// The rule and antialiasing of a conversion of ``table`` that was not recorded
        /// (the first one); a second conversion with the same settings records.
        var unrecordedScan: ScanSettings?
    }

    /// The settings a scan conversion's coverage depends on besides its edge table.
    struct ScanSettings: Equatable, Sendable {
        var rule: FillRule
        var antialias: Bool
    }

    /// A recording and what it depends on besides the edge table.
    struct RecordedCoverage: Sendable {
        var rule: FillRule
        var antialias: Bool
        var recording: CoverageRecording
    }

    /// The most bytes one path's recorded coverage may hold (per fill and per stroke); a
    /// larger shape is converted on every draw.
    static let coverageLimit = 256 * 1024

    /// An integer device box (`x0 ≤ x < x1`, `y0 ≤ y < y1`).
    struct Bounds: Equatable, Sendable {
        var x0: Int, y0: Int, x1: Int, y1: Int
    }

    private let entries = Mutex<(fill: Entry?, stroke: Entry?)>((nil, nil))

    /// The entry computed from `key`, if it is the one cached.
    func entry(for key: Key) -> Entry? {
        entries.withLock { entries in
            let entry = key.stroke == nil ? entries.fill : entries.stroke
            guard let entry, entry.key == key else { return nil }
            return entry
        }
    }

    /// Caches `entry` in place of the fill or stroke entry.
    func store(_ entry: Entry) {
        entries.withLock { entries in
            if entry.key.stroke == nil { entries.fill = entry } else { entries.stroke = entry }
        }
    }

    /// Whether anything is cached (for tests).
    var isEmpty: Bool {
        entries.withLock { $0.fill == nil && $0.stroke == nil }
    }
}
