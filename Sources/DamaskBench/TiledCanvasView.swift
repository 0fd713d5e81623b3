import DamaskGraphics
import DamaskViews
import Foundation

/// A document-like view covering the window: 64×64 tiles whose colours change one at a
/// time (``changeTile(at:)``) or all at once (``changeAll()``).
///
/// Drawing is idempotent: a tile's colour depends only on its generation.
final class TiledCanvasView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    /// The tile side in points.
    static let tileSide = 64
    private var generations: [Int: Int] = [:]
    private var globalGeneration = 0

    /// How many tile columns the canvas has.
    var columns: Int { max(1, Int(bounds.width) / Self.tileSide) }

    /// Changes tile number `index` (row-major, wrapping) and marks exactly its rect.
    func changeTile(at index: Int) {
        let rows = max(1, Int(bounds.height) / Self.tileSide)
        let tile = index % (columns * rows)
        generations[tile, default: 0] += 1
        setNeedsDisplay(rect(ofTile: tile))
    }

    /// Changes every tile and marks the whole canvas.
    func changeAll() {
        globalGeneration += 1
        setNeedsDisplay()
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let side = CGFloat(Self.tileSide)
        let firstColumn = max(0, Int(rect.minX / side)), lastColumn = Int((rect.maxX - 1) / side)
        let firstRow = max(0, Int(rect.minY / side)), lastRow = Int((rect.maxY - 1) / side)
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return }
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let tile = row * columns + column
                let shade = CGFloat((generations[tile, default: 0] + globalGeneration + row + column) % 8) / 8
                context.setFillColor(Color(red: 0.95 - shade * 0.3, green: 0.95, blue: 0.9 + shade * 0.1, alpha: 1))
                context.fill(CGRect(x: CGFloat(column) * side, y: CGFloat(row) * side, width: side, height: side))
            }
        }
    }

    private func rect(ofTile tile: Int) -> CGRect {
        let side = CGFloat(Self.tileSide)
        return CGRect(x: CGFloat(tile % columns) * side, y: CGFloat(tile / columns) * side, width: side, height: side)
    }
}
