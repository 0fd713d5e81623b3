import DamaskGraphics

/// One call of a layer's delegate `display(_:)`: the area marked before it, and what the
/// layer drew when the delegate declined (the default implementation ran).
///
/// Owned by ``Layer/displayMarkedArea()``'s frame; the layer points at it only while the
/// call runs.
@MainActor final class DelegateDisplayCall {
    /// The dirty rect and pieces taken from the layer before the call.
    let markedRect: CGRect
    let markedPieces: [CGRect]
    /// What drawing produced when the delegate declined; nil while it has not.
    var fallbackResult: LayerDisplayResult?

    init(markedRect: CGRect, markedPieces: [CGRect]) {
        self.markedRect = markedRect
        self.markedPieces = markedPieces
    }
}
