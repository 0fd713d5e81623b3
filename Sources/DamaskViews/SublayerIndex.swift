import DamaskGraphics
import Foundation

/// A uniform grid over the presented subtree footprints of one layer's sublayers, so the
/// compositor finds the few sublayers a small repaint region touches among thousands
/// without looking at the others.
///
/// Built lazily by the compositor for a layer with many sublayers, from their
/// subtree footprints (``Layer/renderRecord``), and dropped whenever the sublayers change or one
/// of those footprints changes (the layer rebuilds it on the next repaint that needs it).
/// Main-actor isolated; owned by its layer, it holds the sublayers' positions only.
struct SublayerIndex {
    /// Layers with at least this many sublayers get an index.
    static let minimumSublayerCount = 64
    /// The side of a grid cell in buffer pixels.
    private static let cellSide: CGFloat = 64
    /// A footprint covering more cells than this is kept in ``wide`` instead.
    private static let maximumCellsPerEntry = 16

    private let origin: CGPoint
    private let columns: Int
    private let rows: Int
    /// Per cell, the positions (in ``Layer/sublayers``) of the sublayers reaching it, ascending.
    private var cells: [[Int32]]
    /// Positions of sublayers whose footprint spans too many cells, ascending.
    private var wide: [Int32] = []

    /// Indexes `sublayers` by their presented subtree footprints.
    @MainActor init(_ sublayers: [Layer]) {
        var extent = CGRect.null
        for sublayer in sublayers where !sublayer.renderRecord.subtreeFootprint.isNull {
            extent = extent.union(sublayer.renderRecord.subtreeFootprint)
        }
        let side = Self.cellSide
        if extent.isNull || extent.isInfinite || !extent.width.isFinite || !extent.height.isFinite {
            origin = .zero
            columns = 1
            rows = 1
        } else {
            origin = extent.origin
            columns = max(1, min(4096, Int((extent.width / side).rounded(.up))))
            rows = max(1, min(4096, Int((extent.height / side).rounded(.up))))
        }
        cells = Array(repeating: [], count: columns * rows)
        for (position, sublayer) in sublayers.enumerated() {
            let footprint = sublayer.renderRecord.subtreeFootprint
            guard !footprint.isNull else { continue }
            guard let span = cellSpan(of: footprint),
                (span.columns.count * span.rows.count) <= Self.maximumCellsPerEntry
            else {
                wide.append(Int32(position))
                continue
            }
            for row in span.rows {
                for column in span.columns { cells[row * columns + column].append(Int32(position)) }
            }
        }
    }

    /// The cells `rect` reaches (clamped to the grid), or `nil` when it is unbounded.
    private func cellSpan(of rect: CGRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        guard !rect.isNull, rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite
        else { return nil }
        let side = Self.cellSide
        func clampedCell(_ value: CGFloat, _ limit: Int) -> Int {
            Int(min(max((value / side).rounded(.down), 0), CGFloat(limit - 1)))
        }
        let firstColumn = clampedCell(rect.minX - origin.x, columns)
        let lastColumn = clampedCell(rect.maxX - origin.x - 0.5, columns)
        let firstRow = clampedCell(rect.minY - origin.y, rows)
        let lastRow = clampedCell(rect.maxY - origin.y - 0.5, rows)
        return (firstColumn...max(firstColumn, lastColumn), firstRow...max(firstRow, lastRow))
    }

    /// The positions of the sublayers whose footprint may meet `rect`, ascending (back to
    /// front), each once. A superset: the caller still tests each footprint.
    func candidates(meeting rect: CGRect) -> [Int] {
        guard let span = cellSpan(of: rect) else { return [] }
        var found: [Int32] = wide
        for row in span.rows {
            for column in span.columns { found.append(contentsOf: cells[row * columns + column]) }
        }
        found.sort()
        var result: [Int] = []
        result.reserveCapacity(found.count)
        var last: Int32 = -1
        for position in found where position != last {
            result.append(Int(position))
            last = position
        }
        return result
    }
}
