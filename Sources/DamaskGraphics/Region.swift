import CPixman
import Foundation

/// A set of whole pixels, stored as non-overlapping integer rectangles (pixman_region32).
///
/// `Region` is a value type. No rectangle or one — most damage and clips — is held inline
/// and costs no allocation; two or more live in a pixman region on the heap that copies
/// share until one of them is mutated (copy-on-write). It is used for clips and for damage.
public struct Region: Equatable, Sendable, CustomStringConvertible {
    /// The pixels, held by how many rectangles they take. Invariant: a ``Shape/box`` is
    /// empty (all zero) or has area; a ``Shape/complex`` region has two or more rectangles,
    /// so equal regions always have the same case.
    private enum Shape: Sendable {
        /// No pixel (all zero) or one rectangle, inline.
        case box(pixman_box32_t)
        /// Two or more rectangles, on the heap, shared by copies until one mutates.
        case complex(RegionStorage)
    }

    private var shape: Shape

    /// The box of the empty region: all zero, as pixman's empty extents.
    private static let noBox = pixman_box32_t(x1: 0, y1: 0, x2: 0, y2: 0)

    /// The largest coordinate magnitude a region keeps; rectangles are clamped to it.
    public static let coordinateLimit = 1 << 29

    /// The empty region.
    public static let empty = Region()

    /// Creates an empty region.
    public init() {
        shape = .box(Self.noBox)
    }

    /// Creates a region covering every pixel `rect` touches (rounded outward to
    /// integers). An empty, null, infinite or NaN rect gives the empty region.
    public init(_ rect: CGRect) {
        shape = .box(Region.box(rect) ?? Self.noBox)
    }

    /// Creates the union of the pixels each rect touches.
    public init(rects: [CGRect]) {
        if rects.count == 1 {
            self.init(rects[0])
            return
        }
        self.init(boxes: rects.compactMap(Region.box))
    }

    /// Creates a region from integer boxes.
    init(boxes: [pixman_box32_t]) {
        // Copied only when some box is empty: such a box is left out.
        let boxes = boxes.allSatisfy(Self.hasArea) ? boxes : boxes.filter(Self.hasArea)
        switch boxes.count {
        case 0: self.init()
        case 1: self.init(shape: .box(boxes[0]))
        default:
            var region = pixman_region32_t()
            boxes.withUnsafeBufferPointer { _ = pixman_region32_init_rects(&region, $0.baseAddress, Int32($0.count)) }
            self.init(taking: &region)
        }
    }

    /// Takes an initialised pixman region (left to be dropped without `fini`): its one
    /// rectangle inline, or the region itself moved to the heap.
    private init(taking region: inout pixman_region32_t) {
        if pixman_region32_n_rects(&region) > 1 {
            shape = .complex(RegionStorage(moving: &region))
        } else {
            shape = .box(Self.onlyBox(of: &region))
            pixman_region32_fini(&region)
        }
    }

    /// The one rectangle of `region` (which has one or none), or ``noBox``.
    private static func onlyBox(of region: UnsafePointer<pixman_region32_t>) -> pixman_box32_t {
        assert(pixman_region32_n_rects(region) <= 1, "a region of two or more rectangles has no one box")
        return pixman_region32_not_empty(region) == 0 ? noBox : pixman_region32_extents(region)!.pointee
    }

    /// Runs `body` with the region as a pixman region: the heap one, or one made on the
    /// stack for the inline box (no allocation; it lives only during the call).
    private func withRegion<R>(_ body: (UnsafeMutablePointer<pixman_region32_t>) throws -> R) rethrows -> R {
        switch shape {
        case .complex(let storage):
            return try body(storage.region)
        case .box(let box):
            var region = pixman_region32_t()
            if Self.hasArea(box) {
                pixman_region32_init_rect(&region, box.x1, box.y1, UInt32(box.x2 - box.x1), UInt32(box.y2 - box.y1))
            } else {
                pixman_region32_init(&region)
            }
            defer { pixman_region32_fini(&region) }
            return try body(&region)
        }
    }

    /// Whether `box` covers at least one pixel.
    private static func hasArea(_ box: pixman_box32_t) -> Bool {
        box.x1 < box.x2 && box.y1 < box.y2
    }

    /// Whether the region covers no pixel.
    public var isEmpty: Bool {
        switch shape {
        case .box(let box): return !Self.hasArea(box)
        case .complex: return false
        }
    }

    /// Whether the region is exactly one rectangle (its bounding box).
    public var isRectangle: Bool {
        switch shape {
        case .box(let box): return Self.hasArea(box)
        case .complex: return false
        }
    }

    /// How many rectangles make up the region (``rects``' count, without building it).
    public var rectCount: Int {
        switch shape {
        case .box(let box): return Self.hasArea(box) ? 1 : 0
        case .complex(let storage): return Int(pixman_region32_n_rects(storage.region))
        }
    }

    /// The rectangle `index` (0..<``rectCount``) of ``rects``, read in place: a loop over
    /// the indices sends a region's rectangles somewhere without building an array (a
    /// commit's damage, every frame).
    public func rect(at index: Int) -> CGRect {
        Self.rect(of: box(at: index))
    }

    /// The rectangle `index` (0..<``rectCount``) as a pixman box, read in place.
    package func box(at index: Int) -> pixman_box32_t {
        precondition(index >= 0 && index < rectCount, "rectangle \(index) of a region of \(rectCount)")
        switch shape {
        case .box(let only):
            return only
        case .complex(let storage):
            var count: Int32 = 0
            return pixman_region32_rectangles(storage.region, &count)![index]
        }
    }

    /// `box` as a rectangle.
    private static func rect(of box: pixman_box32_t) -> CGRect {
        CGRect(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))
    }

    /// The bounding box as a pixman box (all zero when empty); reads no rectangle list.
    package var extents: pixman_box32_t {
        switch shape {
        case .box(let box): return box
        case .complex(let storage): return pixman_region32_extents(storage.region)!.pointee
        }
    }

    /// Whether box `outer` contains box `inner`.
    package static func contains(_ outer: pixman_box32_t, _ inner: pixman_box32_t) -> Bool {
        outer.x1 <= inner.x1 && outer.y1 <= inner.y1 && outer.x2 >= inner.x2 && outer.y2 >= inner.y2
    }

    /// Whether boxes `a` and `b` share no pixel.
    private static func disjoint(_ a: pixman_box32_t, _ b: pixman_box32_t) -> Bool {
        a.x2 <= b.x1 || b.x2 <= a.x1 || a.y2 <= b.y1 || b.y2 <= a.y1
    }

    /// The rectangles making up the region: disjoint, integer, in y-then-x order.
    public var rects: [CGRect] {
        var result: [CGRect] = []
        result.reserveCapacity(rectCount)
        forEachBox { result.append(Self.rect(of: $0)) }
        return result
    }

    /// The rectangles as pixman boxes.
    var boxes: [pixman_box32_t] {
        switch shape {
        case .box(let box):
            return Self.hasArea(box) ? [box] : []
        case .complex(let storage):
            var count: Int32 = 0
            guard let first = pixman_region32_rectangles(storage.region, &count), count > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: first, count: Int(count)))
        }
    }

    /// Calls `body` with each rectangle of the region as a pixman box, read in place (no
    /// array is built), in y-then-x order.
    func forEachBox(_ body: (pixman_box32_t) -> Void) {
        switch shape {
        case .box(let box):
            if Self.hasArea(box) { body(box) }
        case .complex(let storage):
            var count: Int32 = 0
            guard let first = pixman_region32_rectangles(storage.region, &count), count > 0 else { return }
            for index in 0..<Int(count) { body(first[index]) }
        }
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
        return Self.rect(of: extents)
    }

    /// The number of pixels covered.
    public var area: Int {
        var total = 0
        forEachBox { total += Int($0.x2 - $0.x1) * Int($0.y2 - $0.y1) }
        return total
    }

    /// Returns the pixels in either region.
    public func union(_ other: Region) -> Region {
        // Cases answered from the extents share a storage instead of allocating one.
        if other.isEmpty { return self }
        if isEmpty { return other }
        if other.isRectangle && Region.contains(other.extents, extents) { return other }
        if isRectangle && Region.contains(extents, other.extents) { return self }
        return combined(with: other, pixman_region32_union)
    }

    /// Adds the pixels of `other`: in place when this region's heap storage is its own
    /// (damage gathered rect by rect then allocates nothing per rect).
    public mutating func formUnion(_ other: Region) {
        guard !other.isEmpty else { return }
        guard let storage = takeUniqueStorage() else { return self = union(other) }
        other.withRegion { _ = pixman_region32_union(storage.region, storage.region, $0) }
        adopt(storage)
    }

    /// Returns this region plus the pixels `rect` touches.
    public func union(_ rect: CGRect) -> Region {
        union(Region(rect))
    }

    /// Adds the pixels `rect` touches: in place when this region's heap storage is its own.
    public mutating func formUnion(_ rect: CGRect) {
        guard let box = Region.box(rect) else { return }
        guard let storage = takeUniqueStorage() else { return self = union(Region(rect)) }
        pixman_region32_union_rect(storage.region, storage.region, box.x1, box.y1, UInt32(box.x2 - box.x1), UInt32(box.y2 - box.y1))
        adopt(storage)
    }

    /// The heap storage, when this region holds one that nothing else references, taken
    /// out of the shape (left empty) for a change in place; ``adopt(_:)`` puts it back.
    private mutating func takeUniqueStorage() -> RegionStorage? {
        guard case .complex(var storage) = shape else { return nil }
        shape = .box(Self.noBox)  // the shape's reference goes: only outside ones remain
        if isKnownUniquelyReferenced(&storage) { return storage }
        shape = .complex(storage)
        return nil
    }

    /// Holds `storage` again after a change in place (``takeUniqueStorage()``), as the
    /// inline box when one rectangle or none is left.
    private mutating func adopt(_ storage: RegionStorage) {
        if pixman_region32_n_rects(storage.region) > 1 {
            shape = .complex(storage)
        } else {
            shape = .box(Self.onlyBox(of: storage.region))
        }
    }

    /// Returns the pixels in both regions.
    public func intersection(_ other: Region) -> Region {
        if isEmpty { return self }
        if other.isEmpty { return other }
        let mine = extents, theirs = other.extents
        if Region.disjoint(mine, theirs) { return Region() }
        if other.isRectangle && Region.contains(theirs, mine) { return self }
        if isRectangle && Region.contains(mine, theirs) { return other }
        if isRectangle && other.isRectangle {
            // Two boxes meet in a box.
            return Region(shape: .box(pixman_box32_t(
                x1: max(mine.x1, theirs.x1), y1: max(mine.y1, theirs.y1),
                x2: min(mine.x2, theirs.x2), y2: min(mine.y2, theirs.y2))))
        }
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
        var result = pixman_region32_t()
        pixman_region32_init(&result)
        withRegion { _ = pixman_region32_copy(&result, $0) }
        pixman_region32_translate(&result, dx, dy)
        return Region(taking: &result)
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
        switch shape {
        case .box(let box): return x >= box.x1 && x < box.x2 && y >= box.y1 && y < box.y2
        case .complex(let storage): return pixman_region32_contains_point(storage.region, x, y, nil) != 0
        }
    }

    /// Whether every pixel of `box` (at least one) is in the region.
    package func contains(_ box: pixman_box32_t) -> Bool {
        guard Self.hasArea(box) else { return false }
        switch shape {
        case .box(let mine): return Region.contains(mine, box)
        case .complex(let storage):
            var inner = box
            return pixman_region32_contains_rectangle(storage.region, &inner) == PIXMAN_REGION_IN
        }
    }

    /// Whether the region shares a pixel with the pixels `rect` touches.
    public func intersects(_ rect: CGRect) -> Bool {
        guard var box = Region.box(rect) else { return false }
        // No allocation: compositing asks this once per layer it considers.
        switch shape {
        case .box(let mine): return Self.hasArea(mine) && !Region.disjoint(mine, box)
        case .complex(let storage): return pixman_region32_contains_rectangle(storage.region, &box) != PIXMAN_REGION_OUT
        }
    }

    /// Whether both regions cover exactly the same pixels.
    public static func == (lhs: Region, rhs: Region) -> Bool {
        switch (lhs.shape, rhs.shape) {
        case let (.box(a), .box(b)):
            return a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2
        case let (.complex(a), .complex(b)):
            return a === b || pixman_region32_equal(a.region, b.region) != 0
        default:
            return false  // one rectangle or none against two or more (the shape's invariant)
        }
    }

    /// Lists the rectangles, e.g. `Region[(0, 0, 10, 10), (20, 0, 5, 5)]`.
    public var description: String {
        let parts = boxes.map { "(\($0.x1), \($0.y1), \($0.x2 - $0.x1), \($0.y2 - $0.y1))" }
        return "Region[\(parts.joined(separator: ", "))]"
    }

    /// Runs `body` with a read-only pointer to the pixman region (valid only inside).
    public func withPixmanRegion<R>(_ body: (UnsafeMutablePointer<pixman_region32_t>) throws -> R) rethrows -> R {
        try withRegion(body)
    }

    private init(shape: Shape) {
        self.shape = shape
    }

    private func combined(
        with other: Region,
        _ operation: (UnsafeMutablePointer<pixman_region32_t>?, UnsafePointer<pixman_region32_t>?,
            UnsafePointer<pixman_region32_t>?) -> pixman_bool_t
    ) -> Region {
        var result = pixman_region32_t()
        pixman_region32_init(&result)
        withRegion { mine in other.withRegion { theirs in _ = operation(&result, mine, theirs) } }
        return Region(taking: &result)
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

/// The heap box behind ``Region``'s regions of two or more rectangles: owns one
/// initialised `pixman_region32_t` (allocated here and moved in from the caller's, `fini`ed
/// and freed in `deinit`).
///
/// `@unchecked Sendable` because a storage object is only written while it is
/// uniquely referenced (a mutation of a shared storage builds a new one), so
/// shared instances are read-only.
private final class RegionStorage: @unchecked Sendable {
    let region: UnsafeMutablePointer<pixman_region32_t>

    /// Takes `source` (initialised; its rectangle list now belongs here, so the caller drops
    /// it without `fini`).
    init(moving source: inout pixman_region32_t) {
        assert(pixman_region32_n_rects(&source) > 1, "a region of one rectangle or none is held inline")
        region = .allocate(capacity: 1)
        region.initialize(to: source)
    }

    deinit {
        pixman_region32_fini(region)
        region.deallocate()
    }
}
