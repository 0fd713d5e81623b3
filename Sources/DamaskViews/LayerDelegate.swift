import DamaskGraphics

/// Supplies a ``Layer``'s contents: either by setting them (``display(_:)``) or by drawing
/// into the layer's backing store (``draw(_:in:)``).
///
/// Both methods have default implementations, so a delegate implements only the one it
/// needs (Swift's stand-in for Objective-C optional methods). The layer notices when a
/// default ran: when `display(_:)` is not implemented it falls back to drawing, and when
/// `draw(_:in:)` is not implemented either the layer keeps no backing store. Every
/// ``View`` is its layer's delegate. Main-actor isolated; a layer does not retain its
/// delegate (its own view uncounted, cleared when the view is freed; another weakly).
@MainActor public protocol LayerDelegate: AnyObject {
    /// Sets `layer.contents` directly instead of drawing. Default: not implemented.
    func display(_ layer: Layer)
    /// Draws the layer's contents into `context`, which is clipped to the dirty area and
    /// maps the layer's bounds (points) onto its backing store. Default: not implemented.
    func draw(_ layer: Layer, in context: GraphicsContext)
    /// The action for a change of `key` on `layer`: `nil` to let the layer search on,
    /// ``NullAction`` for none. Default: `nil`. A ``View`` answers ``NullAction`` outside
    /// its animation blocks, so a view animates only inside one.
    func action(for layer: Layer, forKey key: String) -> (any Action)?
}

extension LayerDelegate {
    /// Not implemented: the layer falls back to ``LayerDelegate/draw(_:in:)``.
    public func display(_ layer: Layer) {
        layer.displayDeclinedByDelegate()
    }

    /// Not implemented: the layer learns that this kind of delegate does not draw.
    public func draw(_ layer: Layer, in context: GraphicsContext) {
        context.noteDefaultDrawing()
    }

    /// No opinion: the layer searches its ``Layer/actions``, then its default action.
    public func action(for layer: Layer, forKey key: String) -> (any Action)? {
        nil
    }
}
