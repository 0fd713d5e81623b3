import DamaskGraphics
import Foundation

/// The backing store of a layer too large for one bitmap: a grid of square tiles of
/// ``tileSize`` pixels, of which only those near the visible area exist (Core Animation's
/// `CATiledLayer`, without the asynchronous drawing).
///
/// A tile is allocated and drawn (`draw(_:)` with the tile's rect) when compositing first
/// needs it, that is when it intersects the area being repainted inside the window and the
/// clips of the layer's ancestors. Tiles farther than ``keptMargin`` tiles from the visible
/// area are freed when the layer is next composited, so the memory held is bounded by the
/// visible area, never by the layer's size. A dirty rect redraws only the allocated tiles
/// it touches. Owned by its layer; main-actor isolated.
@MainActor final class TiledBackingStore {
    /// The side of a tile, in pixels.
    static let tileSize = 512
    /// How many tiles around the visible area are kept when they go out of view.
    static let keptMargin = 1

    /// One allocated tile.
    struct Tile {
        /// The tile's pixels (owned by the store).
        let bitmap: Bitmap
        /// The tile's area in the layer's coordinates (points).
        let rect: CGRect
    }

    /// The size of the whole store, in pixels.
    let pixelWidth: Int
    let pixelHeight: Int
    /// Pixels per point.
    let scale: CGFloat
    /// The layer bounds the store was made for.
    let bounds: CGRect

    /// The allocated tiles, by (column, row).
    private(set) var tiles: [TileIndex: Tile] = [:]

    /// A tile's column and row.
    struct TileIndex: Hashable {
        let column: Int
        let row: Int
    }

    /// Creates an empty store (no tile allocated) for `bounds` at `scale`.
    init(bounds: CGRect, scale: CGFloat, pixelWidth: Int, pixelHeight: Int) {
        self.bounds = bounds
        self.scale = scale
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// The bytes held by the allocated tiles.
    var byteCount: Int { tiles.values.reduce(0) { $0 + $1.bitmap.byteCount } }

    /// The area of tile `index` in the layer's coordinates (pixel-aligned, within the
    /// store).
    func rect(of index: TileIndex) -> CGRect {
        let size = Self.tileSize
        let minX = index.column * size
        let minY = index.row * size
        assert(index.column >= 0 && index.row >= 0 && minX < pixelWidth && minY < pixelHeight, "a tile lies inside its store")
        let maxX = min(minX + size, pixelWidth)
        let maxY = min(minY + size, pixelHeight)
        return CGRect(
            x: bounds.minX + CGFloat(minX) / scale, y: bounds.minY + CGFloat(minY) / scale,
            width: CGFloat(maxX - minX) / scale, height: CGFloat(maxY - minY) / scale)
    }

    /// The tiles (allocated or not) intersecting `rect` (layer coordinates).
    func indices(intersecting rect: CGRect) -> [TileIndex] {
        let area = rect.intersection(bounds)
        guard !area.isNull, !area.isEmpty else { return [] }
        let size = CGFloat(Self.tileSize)
        let columns = Int((CGFloat(pixelWidth) / size).rounded(.up))
        let rows = Int((CGFloat(pixelHeight) / size).rounded(.up))
        let firstColumn = max(0, Int(((area.minX - bounds.minX) * scale / size).rounded(.down)))
        let lastColumn = min(columns - 1, Int(((area.maxX - bounds.minX) * scale / size).rounded(.up)) - 1)
        let firstRow = max(0, Int(((area.minY - bounds.minY) * scale / size).rounded(.down)))
        let lastRow = min(rows - 1, Int(((area.maxY - bounds.minY) * scale / size).rounded(.up)) - 1)
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return [] }
        var result: [TileIndex] = []
        result.reserveCapacity((lastColumn - firstColumn + 1) * (lastRow - firstRow + 1))
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                result.append(TileIndex(column: column, row: row))
            }
        }
        return result
    }

    /// Allocates tile `index` (cleared); `nil` when the allocation fails.
    func allocate(_ index: TileIndex) -> Tile? {
        let rect = rect(of: index)
        let width = Int((rect.width * scale).rounded())
        let height = Int((rect.height * scale).rounded())
        guard let bitmap = try? Bitmap(width: max(1, width), height: max(1, height)) else { return nil }
        let tile = Tile(bitmap: bitmap, rect: rect)
        tiles[index] = tile
        return tile
    }

    /// Frees every tile not intersecting `keep` (layer coordinates); returns the bytes freed.
    func freeTiles(outside keep: CGRect) -> Int {
        var freed = 0
        for (index, tile) in tiles where keep.isNull || !tile.rect.intersects(keep) {
            freed += tile.bitmap.byteCount
            tiles[index] = nil
        }
        return freed
    }

    /// Frees every tile; returns the bytes freed.
    func freeAll() -> Int {
        let freed = byteCount
        tiles.removeAll()
        return freed
    }

    /// A context drawing into `tile` in the layer's coordinates, clipped to `rect`.
    func context(for tile: Tile, clippedTo rect: CGRect) -> GraphicsContext {
        let context = GraphicsContext(bitmap: tile.bitmap)
        let origin = CGPoint(
            x: ((tile.rect.minX - bounds.minX) * scale).rounded(),
            y: ((tile.rect.minY - bounds.minY) * scale).rounded())
        context.translateBy(x: -origin.x, y: -origin.y)
        context.scaleBy(x: scale, y: scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        context.clip(to: rect)
        return context
    }
}
