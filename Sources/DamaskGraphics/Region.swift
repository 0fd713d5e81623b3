import CPixman
import Foundation

/// A set of whole pixels, stored as non-overlapping integer rectangles (pixman_region32).
///
/// `Region` is a value type: copies share one pixman region until one of them is
/// mutated (copy-on-write). It is used for clips and for damage.
public struct Region: Equatable, Sendable, CustomStringConvertible {
    private var storage: RegionStorage

    /// The largest coordinate magnitude a region keeps; rectangles are clamped to it.
    public static let coordinateLimit = 1 << 29

    /// The empty region.
    public static let empty = Region()

    /// Creates an empty region.
    public init() {
        storage = RegionStorage()
    }

    /// Creates a region covering every pixel `rect` touches (rounded outward to
    /// integers). An empty, null, infinite or NaN rect gives the empty region.
    public init(_ rect: CGRect) {
        storage = RegionStorage()
        if let box = Region.box(rect) {
            pixman_region32_init_rect(storage.region, box.x1, box.y1, UInt32(box.x2 - box.x1), UInt32(box.y2 - box.y1))
        }
    }

    /// Creates the union of the pixels each rect touches.
    public init(rects: [CGRect]) {
        self.init()
        var boxes = rects.compactMap(Region.box)
        guard !boxes.isEmpty else { return }
        pixman_region32_fini(storage.region)
        pixman_region32_init_rects(storage.region, &boxes, Int32(boxes.count))
    }

    /// Creates a region from integer boxes.
    init(boxes: [pixman_box32_t]) {
        self.init()
        // Copied only when some box is empty: such a box is left out.
        let boxes = boxes.allSatisfy(Self.hasArea) ? boxes : boxes.filter(Self.hasArea)
        guard !boxes.isEmpty else { return }
        pixman_region32_fini(storage.region)
        pixman_region32_init_rects(storage.region, boxes, Int32(boxes.count))
    }

    /// Whether `box` covers at least one pixel.
    private static func hasArea(_ box: pixman_box32_t) -> Bool {
        box.x1 < box.x2 && box.y1 < box.y2
    }

    /// Whether the region covers no pixel.
    public var isEmpty: Bool {
        pixman_region32_not_empty(storage.region) == 0
    }

    /// Whether the region is exactly one rectangle (its bounding box).
    public var isRectangle: Bool {
        pixman_region32_n_rects(storage.region) == 1
    }

    /// How many rectangles make up the region (``rects``' count, without building it).
    var rectCount: Int {
        Int(pixman_region32_n_rects(storage.region))
    }

    /// The bounding box as a pixman box (all zero when empty); reads no rectangle list.
    private var extents: pixman_box32_t {
        pixman_region32_extents(storage.region)!.pointee
    }

    /// Whether box `outer` contains box `inner`.
    private static func contains(_ outer: pixman_box32_t, _ inner: pixman_box32_t) -> Bool {
        outer.x1 <= inner.x1 && outer.y1 <= inner.y1 && outer.x2 >= inner.x2 && outer.y2 >= inner.y2
    }

    /// Whether boxes `a` and `b` share no pixel.
    private static func disjoint(_ a: pixman_box32_t, _ b: pixman_box32_t) -> Bool {
        a.x2 <= b.x1 || b.x2 <= a.x1 || a.y2 <= b.y1 || b.y2 <= a.y1
    }

    /// The rectangles making up the region: disjoint, integer, in y-then-x order.
    public var rects: [CGRect] {
        boxes.map { CGRect(x: Int($0.x1), y: Int($0.y1), width: Int($0.x2 - $0.x1), height: Int($0.y2 - $0.y1)) }
    }

    /// The rectangles as pixman boxes.
    var boxes: [pixman_box32_t] {
        var count: Int32 = 0
        guard let first = pixman_region32_rectangles(storage.region, &count), count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: first, count: Int(count)))
    }

    /// Calls `body` with each rectangle of the region as a pixman box, read in place (no
    /// array is built), in y-then-x order.
    func forEachBox(_ body: (pixman_box32_t) -> Void) {
        var count: Int32 = 0
        guard let first = pixman_region32_rectangles(storage.region, &count), count > 0 else { return }
        for index in 0..<Int(count) { body(first[index]) }
    }

    /// Whether every pixel of the region lies inside `rect` (integral pixel coordinates);
    /// true for the empty region. Reads only the extents.
    func isWithin(_ rect: CGRect) -> Bool {
        guard !isEmpty else { return true }
        let e = extents
        return CGFloat(e.x1) >= rect.minX && CGFloat(e.y1) >= rect.minY
            && CGFloat(e.x2) <= rect.maxX && CGFloat(e.y2) <= rect.maxY
    }

    /// The smallest rectangle containing the region; `.zero` when empty.
    public var boundingBox: CGRect {
        guard !isEmpty else { return .zero }
        let e = pixman_region32_extents(storage.region)!.pointee
        return CGRect(x: Int(e.x1), y: Int(e.y1), width: Int(e.x2 - e.x1), height: Int(e.y2 - e.y1))
    }

    /// The number of pixels covered.
    public var area: Int {
        var count: Int32 = 0
        guard let first = pixman_region32_rectangles(storage.region, &count), count > 0 else { return 0 }
        var total = 0
        for index in 0..<Int(count) {
            let box = first[index]
            total += Int(box.x2 - box.x1) * Int(box.y2 - box.y1)
        }
        return total
    }

    /// Returns the pixels in either region.
    public func union(_ other: Region) -> Region {
        // Cases answered from the extents share a storage instead of allocating one.
        if other.isEmpty { return self }
        if isEmpty { return other }
        return combined(with: other, pixman_region32_union)
    }

    /// Adds the pixels of `other`: in place when this region's storage is its own (damage
    /// gathered rect by rect then allocates nothing per rect).
    public mutating func formUnion(_ other: Region) {
        guard !other.isEmpty else { return }
        guard !isEmpty, isKnownUniquelyReferenced(&storage) else { return self = union(other) }
        pixman_region32_union(storage.region, storage.region, other.storage.region)
    }

    /// Returns this region plus the pixels `rect` touches.
    public func union(_ rect: CGRect) -> Region {
        union(Region(rect))
    }

    /// Adds the pixels `rect` touches: in place when this region's storage is its own.
    public mutating func formUnion(_ rect: CGRect) {
        guard let box = Region.box(rect) else { return }
        guard isKnownUniquelyReferenced(&storage) else { return self = union(Region(rect)) }
        pixman_region32_union_rect(storage.region, storage.region, box.x1, box.y1, UInt32(box.x2 - box.x1), UInt32(box.y2 - box.y1))
    }

    /// Returns the pixels in both regions.
    public func intersection(_ other: Region) -> Region {
        if isEmpty { return self }
        if other.isEmpty { return other }
        let mine = extents, theirs = other.extents
        if Region.disjoint(mine, theirs) { return Region() }
        if other.isRectangle && Region.contains(theirs, mine) { return self }
        if isRectangle && Region.contains(mine, theirs) { return other }
        return combined(with: other, pixman_region32_intersect)
    }

    /// Returns the pixels of this region that `rect` touches (rounded outward, as
    /// ``init(_:)``), without building a region for `rect` when it holds this one whole.
    public func intersection(_ rect: CGRect) -> Region {
        guard let box = Region.box(rect), !isEmpty else { return Region() }
        let mine = extents
        if Region.contains(box, mine) { return self }
        if Region.disjoint(box, mine) { return Region() }
        return intersection(Region(rect))
    }

    /// Keeps only the pixels also in `other`.
    public mutating func formIntersection(_ other: Region) {
        self = intersection(other)
    }

    /// Returns the pixels of this region that are not in `other`.
    public func subtracting(_ other: Region) -> Region {
        if isEmpty || other.isEmpty { return self }
        let mine = extents, theirs = other.extents
        if Region.disjoint(mine, theirs) { return self }
        if other.isRectangle && Region.contains(theirs, mine) { return Region() }
        return combined(with: other, pixman_region32_subtract)
    }

    /// Removes the pixels of `other`.
    public mutating func subtract(_ other: Region) {
        self = subtracting(other)
    }

    /// Returns the region moved by whole pixels.
    public func translatedBy(dx: Int, dy: Int) -> Region {
        let limit = Region.coordinateLimit
        let dx = Int32(clamping: min(max(dx, -limit), limit))
        let dy = Int32(clamping: min(max(dy, -limit), limit))
        let result = Region(boxes: boxes)
        pixman_region32_translate(result.storage.region, dx, dy)
        return result
    }

    /// Returns the region scaled about the origin, each rectangle rounded outward.
    /// A non-positive or non-finite factor gives the empty region.
    public func scaled(by factor: CGFloat) -> Region {
        guard factor > 0, factor.isFinite else { return Region() }
        return Region(rects: rects.map {
            CGRect(x: $0.minX * factor, y: $0.minY * factor, width: $0.width * factor, height: $0.height * factor)
        })
    }

    /// Whether the pixel containing `point` is in the region.
    public func contains(_ point: CGPoint) -> Bool {
        guard point.x.isFinite, point.y.isFinite else { return false }
        let limit = CGFloat(Region.coordinateLimit)
        let x = Int32(min(max(point.x.rounded(.down), -limit), limit))
        let y = Int32(min(max(point.y.rounded(.down), -limit), limit))
        return pixman_region32_contains_point(storage.region, x, y, nil) != 0
    }

    /// Whether the region shares a pixel with the pixels `rect` touches.
    public func intersects(_ rect: CGRect) -> Bool {
        guard var box = Region.box(rect) else { return false }
        // No allocation: compositing asks this once per layer it considers.
        return pixman_region32_contains_rectangle(storage.region, &box) != PIXMAN_REGION_OUT
    }

    /// Whether both regions cover exactly the same pixels.
    public static func == (lhs: Region, rhs: Region) -> Bool {
        lhs.storage === rhs.storage || pixman_region32_equal(lhs.storage.region, rhs.storage.region) != 0
    }

    /// Lists the rectangles, e.g. `Region[(0, 0, 10, 10), (20, 0, 5, 5)]`.
    public var description: String {
        let parts = boxes.map { "(\($0.x1), \($0.y1), \($0.x2 - $0.x1), \($0.y2 - $0.y1))" }
        return "Region[\(parts.joined(separator: ", "))]"
    }

    /// Runs `body` with a read-only pointer to the pixman region (valid only inside).
    public func withPixmanRegion<R>(_ body: (UnsafeMutablePointer<pixman_region32_t>) throws -> R) rethrows -> R {
        try body(storage.region)
    }

    private func combined(
        with other: Region,
        _ operation: (UnsafeMutablePointer<pixman_region32_t>?, UnsafePointer<pixman_region32_t>?,
            UnsafePointer<pixman_region32_t>?) -> pixman_bool_t
    ) -> Region {
        let result = Region()
        _ = operation(result.storage.region, storage.region, other.storage.region)
        return result
    }

    /// The integer box `rect` touches, clamped to ``coordinateLimit``; nil when empty.
    static func box(_ rect: CGRect) -> pixman_box32_t? {
        guard !rect.isNull, rect.origin.x.isFinite, rect.origin.y.isFinite,
            rect.width.isFinite, rect.height.isFinite
        else { return nil }
        let r = rect.standardized
        guard r.width > 0, r.height > 0 else { return nil }
        let limit = CGFloat(coordinateLimit)
        func clamp(_ v: CGFloat) -> Int32 { Int32(min(max(v, -limit), limit)) }
        let box = pixman_box32_t(
            x1: clamp(r.minX.rounded(.down)), y1: clamp(r.minY.rounded(.down)),
            x2: clamp(r.maxX.rounded(.up)), y2: clamp(r.maxY.rounded(.up)))
        return box.x1 < box.x2 && box.y1 < box.y2 ? box : nil
    }
}

/// The heap box behind ``Region``: owns one initialised `pixman_region32_t`
/// (allocated and `init`ed here, `fini`ed and freed in `deinit`).
///
/// `@unchecked Sendable` because a storage object is only written while it is
/// uniquely referenced (a mutation of a shared storage builds a new one), so
/// shared instances are read-only.
private final class RegionStorage: @unchecked Sendable {
    let region: UnsafeMutablePointer<pixman_region32_t>

    init() {
        region = .allocate(capacity: 1)
        pixman_region32_init(region)
    }

    deinit {
        pixman_region32_fini(region)
        region.deallocate()
    }
}
