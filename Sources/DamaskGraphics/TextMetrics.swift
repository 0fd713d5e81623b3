import Foundation

/// The measurements of a run of text in one font (user units).
public struct TextMetrics: Equatable, Sendable {
    /// The advance width: how far the pen moves across the whole string.
    public var width: CGFloat
    /// The font's ascent above the baseline (positive).
    public var ascent: CGFloat
    /// The font's descent below the baseline (positive).
    public var descent: CGFloat
    /// The recommended distance between baselines.
    public var lineHeight: CGFloat

    /// Creates metrics from their parts.
    public init(width: CGFloat, ascent: CGFloat, descent: CGFloat, lineHeight: CGFloat) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.lineHeight = lineHeight
    }
}
