import CDamaskInspectScan
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

    /// What a row's scan does to the inspector's stored copy of the row (see
    /// ``addRow(_:old:new:width:format:damage:store:storeMode:)``).
    enum StoreMode {
        /// Writes every pixel of the new row into the store.
        case copy
        /// Writes only where the new row differs from `old`: for a store known to equal
        /// `old` (the rows the tracker knows are equal), so unchanged rows cost no write.
        case copyChanged
        /// Compares the store with the new row and writes what differs, reporting whether
        /// anything did (a write into a buffer the compositor still holds).
        case update

        var code: Int32 {
            switch self {
            case .copy: Int32(DAMASK_SCAN_STORE_COPY.rawValue)
            case .copyChanged: Int32(DAMASK_SCAN_STORE_COPY_CHANGED.rawValue)
            case .update: Int32(DAMASK_SCAN_STORE_UPDATE.rawValue)
            }
        }
    }

    /// Adds row `y`: `old` and `new` each point at `width` pixels of `format` (read only
    /// during the call; the caller owns both). `damage` are the row's damaged x-ranges, sorted
    /// and disjoint (``DamageRegion/spans(inRow:)``).
    ///
    /// Exact, and cheap where nothing changed: an unchanged row costs one `memcmp`. A row that
    /// differs is scanned once (4-byte formats: ``CDamaskInspectScan``, 16 pixels at a time with
    /// the format's visible mask, counting changed pixels inside and outside the damage and
    /// splitting them into separate changes in the same pass).
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
        if bpp == 4 {
            _ = scan(y, old: old, new: new, width: width, format: format, damage: damage, store: nil, storeMode: nil, underDamage: underDamage)
            return true
        }
        addRowBytewise(y, old: old, new: new, width: width, format: format, damage: damage, underDamage: underDamage)
        return true
    }

    /// Adds row `y` as ``addRow(_:old:new:width:format:damage:underDamage:)`` does (`old` nil:
    /// nothing to compare with, nothing is counted), and in the same pass brings `store` (the
    /// inspector's copy of the row, `width` pixels, owned by the caller, 64-byte aligned for
    /// the fastest copy) up to date with `new` as `storeMode` says.
    ///
    /// - Returns: whether the row's bytes differ from `old` (true without `old`), and, for
    ///   ``StoreMode/update``, whether `store` differed from `new`.
    mutating func addRow(
        _ y: Int, old: UnsafeRawPointer?, new: UnsafeRawPointer, width: Int, format: BufferFormat,
        damage: [Range<Int>], store: UnsafeMutableRawPointer, storeMode: StoreMode
    ) -> (differs: Bool, storeDiffered: Bool) {
        let bpp = format.bytesPerPixel ?? 4
        guard width > 0 else { return (false, false) }
        if bpp == 4 {
            return scan(y, old: old, new: new, width: width, format: format, damage: damage, store: store, storeMode: storeMode, underDamage: nil)
        }
        let rowBytes = width * bpp
        var differs = true
        if let old {
            differs = memcmp(old, new, rowBytes) != 0
            if differs { addRowBytewise(y, old: old, new: new, width: width, format: format, damage: damage, underDamage: nil) }
        }
        var storeDiffered = false
        switch storeMode {
        case .copy: memcpy(store, new, rowBytes)
        case .copyChanged: if differs { memcpy(store, new, rowBytes) }
        case .update:
            if memcmp(store, new, rowBytes) != 0 {
                storeDiffered = format.visibleBytes == bpp
                    || (0..<width).contains { Self.differs($0, old: store, new: new, format: format) }
                memcpy(store, new, rowBytes)
            }
        }
        return (differs, storeDiffered)
    }

    /// One pass of the C row scan over a 4-byte-format row (see ``CDamaskInspectScan``): its
    /// counts, bounds and runs are added here. The run and damage arrays live on the stack
    /// for the call.
    private mutating func scan(
        _ y: Int, old: UnsafeRawPointer?, new: UnsafeRawPointer, width: Int, format: BufferFormat,
        damage: [Range<Int>], store: UnsafeMutableRawPointer?, storeMode: StoreMode?, underDamage: ((Int, Int) -> Void)?
    ) -> (differs: Bool, storeDiffered: Bool) {
        let gap = Int64(ChangeClusters.gap)
        let capacity = Int(damask_scan_run_capacity(Int64(width), gap))
        var row = damask_scan_row()
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * max(1, damage.count)) { spans in
            for (index, span) in damage.enumerated() {
                spans[2 * index] = Int64(Swift.max(0, Swift.min(span.lowerBound, width)))
                spans[2 * index + 1] = Int64(Swift.max(0, Swift.min(span.upperBound, width)))
            }
            withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * capacity) { runs in
                row.old = old
                row.current = new
                row.store = store
                row.store_mode = storeMode?.code ?? Int32(DAMASK_SCAN_STORE_NONE.rawValue)
                row.visible_mask = format.visibleMask
                row.width = Int64(width)
                row.damage = UnsafePointer(spans.baseAddress)
                row.damage_count = Int64(damage.count)
                row.gap = gap
                row.runs = runs.baseAddress
                row.run_capacity = Int64(capacity)
                damask_scan_row32(&row)
                for index in 0..<Int(row.run_count) {
                    changes.add(row: y, from: Int(runs[2 * index]), to: Int(runs[2 * index + 1]))
                }
            }
        }
        if row.changed > 0 {
            changedPixels += Int(row.changed)
            changedBounds = changedBounds.union(PixelRect(x: Int(row.first), y: y, width: Int(row.last - row.first) + 1, height: 1))
        }
        if row.under_damage > 0 {
            underDamagePixels += Int(row.under_damage)
            underDamageBounds = underDamageBounds.union(
                PixelRect(x: Int(row.under_first), y: y, width: Int(row.under_last - row.under_first) + 1, height: 1))
            if let underDamage, let old {
                for x in Int(row.under_first)...Int(row.under_last)
                where Self.differs(x, old: old, new: new, format: format) && !damage.contains(where: { $0.contains(x) }) {
                    underDamage(x, y)
                }
            }
        }
        return (row.bytes_differ != 0, row.store_differed != 0)
    }

    /// Adds row `y` of a format that is not 4 bytes per pixel, segment by segment (damaged
    /// spans and the gaps between them), pixel by pixel where a segment differs.
    private mutating func addRowBytewise(
        _ y: Int, old: UnsafeRawPointer, new: UnsafeRawPointer, width: Int, format: BufferFormat,
        damage: [Range<Int>], underDamage: ((Int, Int) -> Void)?
    ) {
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
    }

    /// Counts the changed pixels of `range` in row `y` (inside the damage or outside it), for
    /// formats that are not 4 bytes per pixel, and extends `run`, the open run of changed
    /// pixels (split where more than the clusters' gap lies unchanged).
    private mutating func addSegment(
        _ y: Int, _ range: Range<Int>, old: UnsafeRawPointer, new: UnsafeRawPointer, format: BufferFormat, damaged: Bool,
        _ run: inout Range<Int>, _ underDamage: ((Int, Int) -> Void)?
    ) {
        let bpp = format.bytesPerPixel ?? 4
        let start = range.lowerBound * bpp
        guard memcmp(old + start, new + start, range.count * bpp) != 0 else { return }
        var count = 0, first = -1, last = -1
        let visible = format.visibleBytes
        for x in range where memcmp(old + x * bpp, new + x * bpp, visible) != 0 {
            count += 1
            if first < 0 { first = x }
            last = x
            if run.lowerBound >= 0, x - run.upperBound > ChangeClusters.gap {
                changes.add(row: y, from: run.lowerBound, to: run.upperBound)
                run = -1..<(-1)
            }
            run = (run.lowerBound >= 0 ? run.lowerBound : x)..<(x + 1)
            if !damaged { underDamage?(x, y) }
        }
        guard count > 0 else { return }
        let bounds = PixelRect(x: first, y: y, width: last - first + 1, height: 1)
        changedPixels += count
        changedBounds = changedBounds.union(bounds)
        guard !damaged else { return }
        underDamagePixels += count
        underDamageBounds = underDamageBounds.union(bounds)
    }

    /// Whether pixel `x` differs in its visible bits.
    private static func differs(_ x: Int, old: UnsafeRawPointer, new: UnsafeRawPointer, format: BufferFormat) -> Bool {
        let bpp = format.bytesPerPixel ?? 4
        guard bpp == 4 else { return memcmp(old + x * bpp, new + x * bpp, format.visibleBytes) != 0 }
        return (old.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) ^ new.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self))
            & format.visibleMask != 0
    }
}
