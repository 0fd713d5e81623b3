import DamaskGraphics
import Foundation

/// The rounded rectangles and ellipses one control class fills, kept as ``Path`` values so
/// that a shape drawn again reuses what the path remembers of its last fill.
///
/// A control draws into its own backing store in its own coordinates, so every control of
/// a class with the same size and state fills the same shapes, bit for bit, under the same
/// transform: the tracks of forty sliders, the faces of forty buttons. A `Path` caches its
/// device polygons and edge table for the transform and clip box it was last filled with,
/// and from its second conversion on the coverage too (``PathGeometryCache`` in
/// DamaskGraphics); a path built inside `draw(_:)` is dropped before it can profit. Taking
/// the path from here instead means that only the first fill of a shape builds, flattens
/// and scan-converts it; the others replay the recorded coverage with the current colour,
/// pixel for pixel what a fresh conversion paints (the key is the shape's exact
/// geometry, and the path's own cache checks the transform and clip box).
///
/// ## Ownership and bounds
///
/// Each control class that draws shapes owns one cache (a `static let`, main-actor
/// isolated like the class), not the process: the entries are that class's shapes. It keeps
/// at most ``capacity`` paths and drops the least recently used one beyond that, so a
/// slider dragged through many values does not grow it; the memory of an entry is its
/// path's polygons, edge table and recording (a few KB for a control-sized shape).
@MainActor final class ShapePathCache {
    /// A shape's exact geometry (the values' bit patterns: `-0.0` and `0.0` differ, as
    /// they may for the path built from them).
    private struct Key: Hashable {
        /// 0: rounded rectangle, 1: ellipse.
        var kind: UInt8
        var x: UInt
        var y: UInt
        var width: UInt
        var height: UInt
        var radius: UInt

        init(kind: UInt8, rect: CGRect, radius: CGFloat) {
            self.kind = kind
            x = rect.origin.x.bitPattern
            y = rect.origin.y.bitPattern
            width = rect.size.width.bitPattern
            height = rect.size.height.bitPattern
            self.radius = radius.bitPattern
        }
    }

    private struct Entry {
        var path: Path
        var lastUse: UInt64
    }

    /// The most paths kept.
    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0

    /// Shapes asked for that were kept (hits) and that had to be built (misses).
    private(set) var hits = 0
    private(set) var misses = 0

    /// Creates an empty cache keeping at most `capacity` paths (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many paths are kept.
    var count: Int { entries.count }

    /// The path of the rectangle `rect` with corners of `cornerRadius`
    /// (`Path(roundedRect:cornerRadius:)`), built once.
    func roundedRect(_ rect: CGRect, cornerRadius: CGFloat) -> Path {
        path(for: Key(kind: 0, rect: rect, radius: cornerRadius)) { Path(roundedRect: rect, cornerRadius: cornerRadius) }
    }

    /// The path of the ellipse inscribed in `rect` (`Path(ellipseIn:)`), built once.
    func ellipse(in rect: CGRect) -> Path {
        path(for: Key(kind: 1, rect: rect, radius: 0)) { Path(ellipseIn: rect) }
    }

    private func path(for key: Key, make: () -> Path) -> Path {
        clock &+= 1
        if let index = entries.index(forKey: key) {
            hits += 1
            entries.values[index].lastUse = clock
            return entries.values[index].path
        }
        misses += 1
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
        }
        let path = make()
        entries[key] = Entry(path: path, lastUse: clock)
        assert(entries.count <= capacity, "a shape cache holds at most its capacity")
        return path
    }

    /// Drops every path and zeroes the counts (for tests).
    func removeAll() {
        entries.removeAll()
        hits = 0
        misses = 0
    }
}
