import Glibc

/// What changed between two committed contents of a surface, measured against the damage
/// the client declared for the second one.
///
/// Built row by row (``addRow(_:old:new:width:format:damage:underDamage:)``), so the tracker can
/// compare rows as it reads them from the client's pool, without a copy of the whole buffer.
public struct ContentComparison: Sendable, Equatable {
    /// Pixels whose visible value differs.
    public var changedPixels = 0
    /// The bounding box of the changed pixels (empty when none changed).
    public var changedBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Changed pixels outside the damage: a compositor that honours damage never shows them.
    public var underDamagePixels = 0
    /// The bounding box of the under-damaged pixels.
    public var underDamageBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// The changed pixels grouped into separate changes, as fed row by row (see
    /// ``changedBoxes``).
    public var changes = ChangeClusters()

    /// The bounding boxes of the separate changes (``ChangeClusters``, finished).
    public var changedBoxes: [PixelRect] {
        var finished = changes
        finished.finish()
        return finished.boxes
    }

    public init() {}

    /// Equal counts and bounds, and the same changed boxes in any order (the order depends on
    /// how the rows were fed, the finished boxes do not).
    public static func == (a: ContentComparison, b: ContentComparison) -> Bool {
        a.changedPixels == b.changedPixels && a.changedBounds == b.changedBounds
            && a.underDamagePixels == b.underDamagePixels && a.underDamageBounds == b.underDamageBounds
            && Set(a.changedBoxes) == Set(b.changedBoxes)
    }

    /// Compares `current` with `previous` (same size and format) pixel by pixel against
    /// `damage`.
    ///
    /// If `underDamage` is given it receives every under-damaged pixel (for evidence images).
    public init(previous: ContentSnapshot, current: ContentSnapshot, damage: DamageRegion, underDamage: ((Int, Int) -> Void)? = nil) {
        precondition(previous.isComparable(with: current), "compare snapshots of one size and format")
        let rowBytes = current.rowBytes
        previous.bytes.withUnsafeBytes { old in
            current.bytes.withUnsafeBytes { new in
                guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return }
                for y in 0..<current.height {
                    addRow(
                        y, old: oldBase + y * rowBytes, new: newBase + y * rowBytes, width: current.width,
                        format: current.format, damage: damage.spans(inRow: y), underDamage: underDamage)
                }
            }
        }
    }

    /// Adds row `y`: `old` and `new` each point at `width` pixels of `format` (read only
    /// during the call; the caller owns both). `damage` are the row's damaged x-ranges, sorted
    /// and disjoint (``DamageRegion/spans(inRow:)``).
    ///
    /// Exact, and cheap where nothing changed: an unchanged row costs one `memcmp`; in a row
    /// that differs, each damaged span and each gap between them is first checked with one
    /// `memcmp`, and only a segment that differs is counted pixel by pixel (4-byte formats:
    /// the first and last changed pixel are found, then one pass over the pixels between,
    /// eight at a time with the format's visible mask, both counts them and splits them into
    /// separate changes).
    ///
    /// - Returns: whether the row's bytes differ at all (a change of only the X byte of an
    ///   XRGB pixel differs, though it counts as no changed pixel).
    @discardableResult
    public mutating func addRow(
        _ y: Int, old: UnsafeRawPointer, new: UnsafeRawPointer, width: Int, format: BufferFormat,
        damage: [Range<Int>], underDamage: ((Int, Int) -> Void)? = nil
    ) -> Bool {
        let bpp = format.bytesPerPixel ?? 4
        guard width > 0, memcmp(old, new, width * bpp) != 0 else { return false }
        var x = 0
        var run = -1..<(-1)
        for span in damage {
            let lower = Swift.max(x, Swift.min(span.lowerBound, width)), upper = Swift.min(span.upperBound, width)
            if lower > x { addSegment(y, x..<lower, old: old, new: new, format: format, damaged: false, &run, underDamage) }
            if upper > lower { addSegment(y, lower..<upper, old: old, new: new, format: format, damaged: true, &run, underDamage) }
            x = Swift.max(x, upper)
        }
        if x < width { addSegment(y, x..<width, old: old, new: new, format: format, damaged: false, &run, underDamage) }
        if run.lowerBound >= 0 { changes.add(row: y, from: run.lowerBound, to: run.upperBound) }
        return true
    }

    /// Counts the changed pixels of `range` in row `y` (inside the damage or outside it).
    private mutating func addSegment(
        _ y: Int, _ range: Range<Int>, old: UnsafeRawPointer, new: UnsafeRawPointer, format: BufferFormat, damaged: Bool,
        _ run: inout Range<Int>, _ underDamage: ((Int, Int) -> Void)?
    ) {
        let bpp = format.bytesPerPixel ?? 4
        let start = range.lowerBound * bpp
        guard memcmp(old + start, new + start, range.count * bpp) != 0 else { return }
        var count = 0, first = -1, last = -1
        if bpp == 4 {
            let mask = format.visibleMask
            func differs(_ x: Int) -> Bool {
                (old.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) ^ new.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)) & mask != 0
            }
            var low = range.lowerBound
            while low < range.upperBound && !differs(low) { low += 1 }
            guard low < range.upperBound else { return }
            var high = range.upperBound - 1
            while !differs(high) { high -= 1 }
            (first, last) = (low, high)
            // Counted below, in the same pass that splits the changes into runs.
        } else {
            for x in range where memcmp(old + x * bpp, new + x * bpp, bpp) != 0 {
                count += 1
                if first < 0 { first = x }
                last = x
            }
            guard count > 0 else { return }
        }
        // Runs of changed pixels, split where more than the clusters' gap lies unchanged:
        // eight pixels at a time where all or none of them changed. For 4-byte formats this
        // pass also counts them (each pixel from `first` to `last` is counted once, in a block
        // of eight or alone).
        let mask = SIMD8<UInt32>(repeating: format.visibleMask), zero = SIMD8<UInt32>()
        var x = first
        while x <= last {
            if bpp == 4, x &+ 8 <= last &+ 1 {
                let a = old.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                let b = new.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                let same = (a ^ b) & mask .== zero
                if all(same) {
                    x &+= 8
                    continue
                }
                if !any(same), run.lowerBound >= 0, x - run.upperBound <= ChangeClusters.gap {
                    run = run.lowerBound..<(x &+ 8)
                    count &+= 8
                    x &+= 8
                    continue
                }
            }
            if Self.differs(x, old: old, new: new, format: format) {
                if bpp == 4 { count &+= 1 }
                if run.lowerBound >= 0, x - run.upperBound > ChangeClusters.gap {
                    changes.add(row: y, from: run.lowerBound, to: run.upperBound)
                    run = -1..<(-1)
                }
                run = (run.lowerBound >= 0 ? run.lowerBound : x)..<(x &+ 1)
            }
            x &+= 1
        }
        let bounds = PixelRect(x: first, y: y, width: last - first + 1, height: 1)
        changedPixels += count
        changedBounds = changedBounds.union(bounds)
        guard !damaged else { return }
        underDamagePixels += count
        underDamageBounds = underDamageBounds.union(bounds)
        if let underDamage {
            for x in first...last where Self.differs(x, old: old, new: new, format: format) {
                underDamage(x, y)
            }
        }
    }

    /// Whether pixel `x` differs in its visible bits.
    private static func differs(_ x: Int, old: UnsafeRawPointer, new: UnsafeRawPointer, format: BufferFormat) -> Bool {
        let bpp = format.bytesPerPixel ?? 4
        guard bpp == 4 else { return memcmp(old + x * bpp, new + x * bpp, bpp) != 0 }
        return (old.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) ^ new.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self))
            & format.visibleMask != 0
    }
}
