/// Whether a gradient also paints beyond its start and end.
public struct GradientDrawingOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Extend the first colour before the start. pixman pads both ends together, so
    /// either option extends both.
    public static let drawsBeforeStartLocation = GradientDrawingOptions(rawValue: 1)
    /// Extend the last colour after the end (see ``drawsBeforeStartLocation``).
    public static let drawsAfterEndLocation = GradientDrawingOptions(rawValue: 2)
}
