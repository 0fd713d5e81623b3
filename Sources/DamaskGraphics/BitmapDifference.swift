/// The result of ``Bitmap/difference(_:_:tolerance:)``.
public struct BitmapDifference {
    /// How many pixels differ by more than the tolerance in some channel.
    public var differingPixelCount: Int
    /// The largest channel difference found anywhere (0…255).
    public var maximumChannelDelta: Int
    /// A picture of the differences: red where pixels differ, faded grey elsewhere.
    public var image: Bitmap

    /// Whether no pixel differs beyond the tolerance.
    public var isWithinTolerance: Bool { differingPixelCount == 0 }
}
