/// What an animation shows outside its active time (Core Animation's `CAMediaTimingFillMode`).
public enum FillMode: Sendable, Equatable {
    /// Nothing: before it starts and after it ends the layer shows its model values.
    case removed
    /// After it ends it keeps showing its final value (while it stays added: see
    /// ``Animation/isRemovedOnCompletion``).
    case forwards
    /// During its ``Animation/delay`` it already shows its first value.
    case backwards
    /// Both ``forwards`` and ``backwards``.
    case both
}
