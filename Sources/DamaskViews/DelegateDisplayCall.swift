import DamaskGraphics

/// One call of a layer's delegate `display(_:)`: the area marked before it, and what the
/// layer drew when the delegate declined (its default implementation ran).
///
/// **Why this is stored, not returned.** `LayerDelegate.display(_:)` (and `View`'s `open`
/// override of it) is public API that returns nothing, and the layer must learn whether the
/// delegate set its contents or declined, and what drawing produced when it declined. Swift
/// cannot ask a conformance whether it uses a protocol's default implementation (there are
/// no optional requirements without the Objective-C runtime, which Linux lacks), and a
/// requirement of a public protocol cannot be internal, so no internal entry returning the
/// result can be dispatched to the delegate in its place; a `View` subclass overrides the
/// same public method. The only way back from the default implementation to the layer is
/// through the layer, so ``Layer/delegateDisplayCall`` holds this value for the duration of
/// the call, and ``Layer/displayDeclinedByDelegate()`` (which every default funnels into)
/// writes the result there. Inferring "declined" from the layer's state after the call
/// instead (the dirty rect taken, the draw count moved) would misread a declined display
/// that drew nothing (a layer of zero size stays marked) as one that set contents.
///
/// A value: the call costs no allocation. Set by ``Layer/displayMarkedArea()`` before the
/// call and cleared right after it; never set outside a call (asserted there).
struct DelegateDisplayCall {
    /// The dirty rect and pieces taken from the layer before the call.
    let markedRect: CGRect
    let markedPieces: [CGRect]
    /// What drawing produced when the delegate declined; nil while it has not.
    var fallbackResult: LayerDisplayResult?
}
