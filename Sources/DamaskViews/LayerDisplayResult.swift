import DamaskGraphics

/// What one display of a layer changed, returned by the drawing step and handed to the
/// layer's host, which counts the draws and damages what they changed.
enum LayerDisplayResult: Equatable {
    /// Nothing was drawn (clean, of zero size, too large to allocate, or a kind that does
    /// not draw).
    case nothing
    /// The contents were set or drawn as a whole (a new store, or a delegate's
    /// `display(_:)`): one draw, damaged by compositing as an appearance change.
    case replacedContents
    /// One draw redrew `rect` (layer coordinates) of the contents.
    case redrew(CGRect)
    /// One draw redrew the separate `pieces` (layer coordinates): each is damaged on its
    /// own, not their bounding box.
    case redrewPieces([CGRect])
    /// Each rect (layer coordinates) is a tile's redrawn part: one draw each.
    case redrewTiles([CGRect])

    /// How many draws the display counts.
    var drawCount: Int {
        switch self {
        case .nothing: 0
        case .replacedContents, .redrew, .redrewPieces: 1
        case let .redrewTiles(rects): rects.count
        }
    }
}
