import Foundation

/// The part of a ``GraphicsContext`` that `saveGState` / `restoreGState` save and restore.
struct GraphicsState {
    /// User space → device space.
    var ctm = CGAffineTransform.identity
    /// The device pixels drawing may touch (always within the bitmap).
    var clipRegion: Region
    /// Extra antialiased coverage for path clips (device space); nil when the clip is
    /// exactly `clipRegion`. Shared between saved states, never mutated.
    var clipMask: CoverageMask?
    var fillColor = Color.black
    var strokeColor = Color.black
    var alpha: CGFloat = 1
    var lineWidth: CGFloat = 1
    var lineCap = LineCap.butt
    var lineJoin = LineJoin.miter
    var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    var dashLengths: [CGFloat] = []
    var shouldAntialias = true
    var blendMode = BlendMode.normal
    var interpolationQuality = InterpolationQuality.default
}
