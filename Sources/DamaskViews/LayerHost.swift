import DamaskGraphics

/// What a layer tree is shown in, as its layers see it: the object they report their
/// changes, draws and allocations to. ``Window`` is the one host.
///
/// Every layer of a hosted tree caches its host (``Layer/host``) when it joins the tree and
/// drops it when it leaves, so an upcall is one load instead of a walk to the root.
/// Invariant (asserted when a layer joins): a layer's host is its superlayer's host, and a
/// root layer's host is the window whose root it is (`nil` for a tree in no window).
/// Main-actor isolated; layers point to their host uncounted (the window owns the tree and
/// clears the pointers when it is freed).
@MainActor protocol LayerHost: AnyObject {
    /// The counters the tree's work is added to.
    var statistics: WindowStatistics { get }
    /// The host's knowledge of which kinds of layer draw (see ``DrawingClassifier``).
    var drawingClassifier: DrawingClassifier { get }
    /// The host's animation driver, created on first use.
    var animationDriver: AnimationDriver { get }
    /// The animation driver, if an animation ever ran in the host.
    var existingAnimationDriver: AnimationDriver? { get }

    /// A subtree joined the tree (its layers already know their host).
    func layerDidEnter(_ layer: Layer)
    /// A subtree is leaving the tree (its layers still know their host).
    func layerWillLeave(_ layer: Layer)
    /// A layer was marked for display.
    func layerNeedsDisplay(_ layer: Layer)
    /// A layer's compositing state (placement, opacity, visibility, paint) changed.
    func layerCompositingDidChange(_ layer: Layer)
    /// A layer drew what ``LayerDisplayResult`` describes.
    func layer(_ layer: Layer, didDisplay result: LayerDisplayResult)
    /// A layer moved its drawn pixels inside its backing store (a scroll): `rect` (layer
    /// coordinates) changed on screen without a draw.
    func layerDidMoveContents(_ layer: Layer, in rect: CGRect)
    /// A tiled layer drew a tile that compositing needed.
    func layerDidDrawWhileCompositing(_ layer: Layer)
    /// Something the opaque area reads changed without a compositing change.
    func layerOpaqueAreaMayHaveChanged()
}
