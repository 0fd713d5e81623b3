import DamaskGraphics
import Foundation

/// A rectangle of content in a tree of layers: the object that really holds pixels and is
/// composited into the window (Core Animation's `CALayer`, reduced).
///
/// A layer shows, back to front: its ``backgroundColor`` over its bounds, its ``contents``
/// bitmap placed by ``contentsGravity``, then its ``sublayers``. Contents are either set
/// directly or produced by ``display()``: the ``delegate``'s `display(_:)` sets them, or
/// `draw(_:in:)` (or an override of ``draw(in:)``) draws into a backing store of
/// `bounds.size × contentsScale` pixels that the layer owns. A layer whose delegate does not
/// draw gets no backing store. The store is freed when the layer leaves its superlayer.
///
/// Geometry follows Core Animation: ``position`` is where ``anchorPoint`` (unit
/// coordinates in the bounds, default centre) sits in the superlayer, and ``transform``
/// applies around it. Coordinates are points, y-down.
///
/// Changing ``backgroundColor``, ``opacity``, ``isHidden``, ``position``, ``transform`` or
/// ``masksToBounds`` never redraws; it only repaints the window area affected (a bounds
/// size change redraws only with ``needsDisplayOnBoundsChange``). Main-actor isolated; the
/// layer owns its sublayers. Its superlayer, host and view are not counted but cleared when
/// the link ends or the other end is freed (docs/performance.md, "Back-pointers, not
/// weak"). The properties read on every frame skip the runtime's exclusivity checks
/// (docs/performance.md, "Exclusivity").
@MainActor open class Layer {
    /// Creates an empty layer with zero bounds.
    public required init() {}

    isolated deinit {
        for sublayer in sublayers { sublayer.superlayer = nil }  // they may outlive this one
    }

    // MARK: Tree

    /// The layer this one is a sublayer of; cleared by `detachFromSuperlayer` and `deinit`.
    @exclusivity(unchecked) public private(set) unowned(unsafe) var superlayer: Layer?
    /// The sublayers, back to front.
    @exclusivity(unchecked) public private(set) var sublayers: [Layer] = [] {
        didSet { sublayerIndex = nil }
    }
    /// Set on a window's root layer only; the window clears it in `deinit`.
    @exclusivity(unchecked) unowned(unsafe) var hostWindow: Window? {
        didSet { setHost(hostWindow) }
    }
    /// What this layer's tree is shown in (see ``LayerHost``): cached when the layer joins
    /// a hosted tree, dropped when it leaves or the host is freed; `nil` in no window.
    @exclusivity(unchecked) private(set) unowned(unsafe) var host: (any LayerHost)?

    /// The window showing this layer's tree, if any.
    public var window: Window? { host as? Window }

    /// Caches `newHost` in this subtree (its layers all share their root's host).
    private func setHost(_ newHost: (any LayerHost)?) {
        host = newHost
        for sublayer in sublayers where sublayer.host !== newHost { sublayer.setHost(newHost) }
    }

    /// Appends `layer` in front of the other sublayers (removing it from its old parent).
    public func addSublayer(_ layer: Layer) {
        insert(layer) { self.sublayers.count }
    }

    /// Inserts `layer` at `index` in ``sublayers`` (clamped to the valid range).
    public func insertSublayer(_ layer: Layer, at index: Int) {
        insert(layer) { index }
    }

    /// Inserts `layer` just behind `sibling` (appends when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer) {
        insert(layer) { self.sublayers.firstIndex { $0 === sibling } ?? self.sublayers.count }
    }

    /// Inserts `layer` just in front of `sibling` (appends when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer) {
        insert(layer) {
            self.sublayers.firstIndex { $0 === sibling }.map { $0 + 1 } ?? self.sublayers.count
        }
    }

    /// Inserts or reorders `layer`; `index` is evaluated once `layer` is out of the array.
    private func insert(_ layer: Layer, at index: () -> Int) {
        precondition(!isDescendant(of: layer), "a layer cannot contain itself")
        let isReorder = layer.superlayer === self
        if isReorder {
            sublayers.removeAll { $0 === layer }
        } else {
            layer.detachFromSuperlayer()  // moving keeps the contents
        }
        sublayers.insert(layer, at: min(max(index(), 0), sublayers.count))
        if !isReorder {
            layer.superlayer = self
            if layer.host !== host { layer.setHost(host) }
            assert(layer.host === host, "a layer's host is its superlayer's host")
            host?.layerDidEnter(layer)
            if layer.needsDisplayWalk {  // marks made while elsewhere: report them here
                layer.needsDisplayWalk = false
                layer.markDisplayPath()
            }
        }
        layer.subtreeNeedsRepaint = true
        layer.needsCompositingWalk = false
        layer.compositingDidChange()
    }

    /// Detaches the layer from its superlayer, repaints the area it covered, and frees
    /// the backing stores of its subtree.
    public func removeFromSuperlayer() {
        guard superlayer != nil else { return }
        detachFromSuperlayer()
        releaseBackingStores()
    }

    /// Takes the layer out of its superlayer, keeping its contents (for moves).
    func detachFromSuperlayer() {
        guard let parent = superlayer else { return }
        assert(host === parent.host, "a layer's host is its superlayer's host")
        host?.layerWillLeave(self)
        parent.sublayers.removeAll { $0 === self }
        superlayer = nil
        if host != nil { setHost(nil) }
        needsCompositingWalk = false  // the subtree is walked whole when it is added again
    }

    // MARK: Geometry

    /// The layer's own coordinate space: its origin and size in points.
    ///
    /// A size change redraws only when ``needsDisplayOnBoundsChange`` is set; otherwise
    /// the cached contents are placed by ``contentsGravity``.
    @exclusivity(unchecked) open var bounds: CGRect = .zero {
        didSet {
            guard bounds != oldValue else { return }
            if tiledBackingStore != nil {
                setNeedsDisplay()  // tiles are laid out on the bounds: redraw, as CATiledLayer
            } else if bounds.size != oldValue.size, needsDisplayOnBoundsChange {
                setNeedsDisplay()
            } else if needsDisplay, !needsDisplayWalk {
                markDisplayPath()  // a mark that waited for a size
            }
            compositingDidChange()
            propertyDidChange(.bounds, from: .rect(oldValue))
        }
    }

    /// Where the ``anchorPoint`` sits in the superlayer's coordinates.
    @exclusivity(unchecked) open var position: CGPoint = .zero {
        didSet {
            guard position != oldValue else { return }
            compositingDidChange()
            propertyDidChange(.position, from: .point(oldValue))
        }
    }

    /// The point of the bounds (unit coordinates) that ``position`` refers to and that
    /// ``transform`` turns around. Default: the centre, (0.5, 0.5).
    @exclusivity(unchecked) open var anchorPoint = CGPoint(x: 0.5, y: 0.5) {
        didSet { if anchorPoint != oldValue { compositingDidChange() } }
    }

    /// A transform applied around the anchor point, in the superlayer's space.
    @exclusivity(unchecked) open var transform: CGAffineTransform = .identity {
        didSet {
            guard transform != oldValue else { return }
            compositingDidChange()
            propertyDidChange(.transform, from: .transform(oldValue))
        }
    }

    /// The bounding box of the layer in its superlayer's coordinates.
    ///
    /// Setting it moves ``position`` and resizes ``bounds`` (keeping the bounds origin) as
    /// if ``transform`` were the identity.
    open var frame: CGRect {
        get {
            CGRect(origin: .zero, size: bounds.size).applying(transformToSuperlayerFromUnitOrigin)
        }
        set {
            let rect = newValue.standardized
            position = CGPoint(
                x: rect.minX + anchorPoint.x * rect.width, y: rect.minY + anchorPoint.y * rect.height)
            bounds.size = rect.size
        }
    }

    // MARK: Compositing properties

    /// Filled over the bounds beneath the contents, by the compositor (never by drawing).
    @exclusivity(unchecked) open var backgroundColor: Color? {
        didSet {
            guard backgroundColor != oldValue else { return }
            appearanceDidChange()
            propertyDidChange(.backgroundColor, from: .color(oldValue ?? .clear))
        }
    }

    /// The radius of the corners of the background, in points (0, the default, for square
    /// corners). With ``masksToBounds`` the contents and sublayers are clipped to the
    /// rounded shape too. Compositing only: never redraws.
    @exclusivity(unchecked) open var cornerRadius: CGFloat = 0 {
        didSet {
            guard cornerRadius != oldValue else { return }
            appearanceDidChange()
            propertyDidChange(.cornerRadius, from: .scalar(oldValue))
        }
    }

    /// The layer's opacity, 0…1, multiplied into its sublayers'.
    @exclusivity(unchecked) open var opacity: CGFloat = 1 {
        didSet {
            guard opacity != oldValue else { return }
            compositingDidChange()
            propertyDidChange(.opacity, from: .scalar(oldValue))
        }
    }

    /// Whether the layer and its sublayers are left out of compositing (and of drawing).
    @exclusivity(unchecked) open var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            if !isHidden, needsDisplayWalk {  // marks that waited while hidden
                needsDisplayWalk = false
                markDisplayPath()
            }
            compositingDidChange()
        }
    }

    /// Whether contents and sublayers are clipped to the bounds.
    @exclusivity(unchecked) open var masksToBounds = false {
        didSet {
            guard masksToBounds != oldValue else { return }
            subtreeNeedsRepaint = true  // clip edges may be antialiased
            compositingDidChange()
        }
    }

    // MARK: Contents

    private(set) var storedContents: Bitmap?

    /// The bitmap shown over the background: set directly, by the delegate's
    /// `display(_:)`, or by drawing into the backing store.
    ///
    /// Setting it drops the backing store; the bitmap is shown as is (no `draw`). Setting
    /// the same bitmap again after changing its pixels repaints the layer.
    open var contents: Bitmap? {
        get { storedContents }
        set {
            if newValue !== backing?.bitmap { freeBackingStore() }
            storedContents = newValue
            contentsOpacity = nil
            appearanceDidChange()
        }
    }

    /// Pixels per point of the contents (set to the window's scale while in a window).
    @exclusivity(unchecked) open var contentsScale: CGFloat = 1 {
        didSet {
            guard contentsScale != oldValue else { return }
            if backing?.isAllocated == true || needsDisplay { setNeedsDisplay() }
            appearanceDidChange()
        }
    }

    /// How contents are placed when their size differs from the bounds.
    @exclusivity(unchecked) open var contentsGravity: ContentsGravity = .resize {
        didSet { if contentsGravity != oldValue { appearanceDidChange() } }
    }

    /// Whether a change of bounds size marks the layer for redrawing.
    open var needsDisplayOnBoundsChange = false

    /// The layer's delegate: supplies contents. A view's layer points to its view uncounted
    /// (``ownerView``); any other delegate is held weakly.
    open var delegate: (any LayerDelegate)? {
        get { ownerView ?? otherDelegate }
        set { (ownerView, otherDelegate) = (nil, newValue) }
    }
    /// The view whose layer this is: set by `View.init`, cleared by the view's `deinit`.
    @exclusivity(unchecked) unowned(unsafe) var ownerView: View?
    @exclusivity(unchecked) private weak var otherDelegate: (any LayerDelegate)?

    /// The store this layer draws into (see ``LayerBackingStore``), made when it first
    /// draws; `nil` for a layer that never drew.
    private(set) var backing: LayerBackingStore?

    /// The number of pixels above which a backing store is tiled (64 MiB of ARGB32).
    public static let tilingPixelCount = 16_777_216

    /// Whether every pixel of the contents is known to be opaque (`nil`: not checked since
    /// they last changed). A partial redraw of opaque contents re-checks only the redrawn
    /// pixels; contents found not opaque stay so until replaced or wholly redrawn (a
    /// conservative answer only costs compositing speed, never correctness).
    private var contentsOpacity: Bool?

    /// Whether every pixel of ``contents`` has full alpha (checked once per change of the
    /// contents, by reading them; `false` without contents). The compositor paints such
    /// contents with SRC and skips what they hide.
    var contentsAreOpaque: Bool {
        if let known = contentsOpacity { return known }
        let opaque = storedContents?.isOpaque() ?? false
        contentsOpacity = opaque
        return opaque
    }

    /// Whether the contents shown are `store` (the backing store's bitmap).
    func showsBackingStore(_ store: Bitmap) -> Bool { storedContents === store }

    /// The backing store drew `store` anew: it becomes the contents, known to be opaque
    /// when the drawing `isKnownOpaque` everywhere (otherwise read when first asked).
    func showBackingStore(_ store: Bitmap, isKnownOpaque: Bool = false) {
        assert(!isKnownOpaque || store.isOpaque(), "a store a drawing made opaque is opaque")
        storedContents = store
        contentsOpacity = isKnownOpaque ? true : nil
        appearanceDidChange()
    }

    /// The backing store freed `store`: the contents go if they were it.
    func backingStoreDidFree(_ store: Bitmap) {
        guard storedContents === store else { return }
        storedContents = nil
        contentsOpacity = nil
        appearanceDidChange()
    }

    /// The backing store redrew `pixels` of `store`, the contents: opaque contents may
    /// have lost their opacity there (only those pixels are read, unless the drawing
    /// `isKnownOpaque` there).
    func backingStoreDidRedraw(_ store: Bitmap, pixels: CGRect, isKnownOpaque: Bool) {
        assert(storedContents === store, "a redraw draws into the contents shown")
        assert(!isKnownOpaque || store.isOpaque(in: pixels), "pixels a drawing made opaque are opaque")
        guard contentsOpacity == true, !isKnownOpaque, !store.isOpaque(in: pixels) else { return }
        contentsOpacity = false
        host?.layerOpaqueAreaMayHaveChanged()
    }

    // MARK: Display

    /// The dirty area in the layer's coordinates (`.null` when clean; `.infinite` for all).
    /// Any assignment but ``setNeedsDisplay(_:)``'s forgets ``dirtyPieces``.
    @exclusivity(unchecked) var dirtyRect: CGRect = .null {
        didSet { if !dirtyPieces.isEmpty { dirtyPieces.removeAll(keepingCapacity: true) } }
    }
    /// The separate rects ``setNeedsDisplay(_:)`` marked since the layer was clean, when
    /// there are at least two and at most ``dirtyPieceLimit``: their bounding box is
    /// ``dirtyRect``. A redraw clips to them and damages only them, so two small changes far
    /// apart in one view (two numbers at the ends of a label) do not damage the pixels
    /// between them. Empty means all of ``dirtyRect``.
    @exclusivity(unchecked) var dirtyPieces: [CGRect] = []
    /// More separate dirty rects than this are redrawn as their bounding box.
    static let dirtyPieceLimit = 8

    /// Whether the layer is marked for redrawing.
    public var needsDisplay: Bool { !dirtyRect.isNull }

    /// How many times this layer's contents were drawn or displayed.
    @exclusivity(unchecked) public internal(set) var displayCount = 0
    /// How many times this layer moved its drawn pixels instead of redrawing them
    /// (``scrollContents(dx:dy:)``).
    public internal(set) var contentsScrollCount = 0

    /// The delegate `display(_:)` call in progress: set only for the duration of that call
    /// (nil otherwise), so that the default implementation can hand the display back to
    /// the layer (``displayDeclinedByDelegate()``), whose result the call returns. Why this
    /// cannot be a return value: see ``DelegateDisplayCall``.
    @exclusivity(unchecked) var delegateDisplayCall: DelegateDisplayCall?
    /// Whether the drawing path clears the dirty area before drawing.
    var clearsContextBeforeDrawing = true

    /// Draws the layer's contents into `context`. Default: asks the delegate's
    /// `draw(_:in:)`; without a delegate the layer does not draw. Override to draw in a
    /// layer subclass (Core Animation's `drawInContext:`); never call it directly.
    open func draw(in context: GraphicsContext) {
        if let delegate {
            delegate.draw(self, in: context)
        } else {
            context.noteDefaultDrawing()
        }
    }

    /// The store this layer draws into, made on first use.
    func makeBackingIfNeeded() -> LayerBackingStore {
        if let backing { return backing }
        let made = LayerBackingStore()
        backing = made
        return made
    }

    // MARK: Animation state (see Layer+Animation.swift)

    /// The animations added to this layer, in the order they apply.
    var runningAnimations: [RunningAnimation] = []
    /// The values the last animation frame computed, or `nil` when no animation applies
    /// (the compositor then shows the model values).
    var presentationValues: LayerPresentationValues?
    /// The actions for keys, consulted by ``action(forKey:)`` after the delegate (Core
    /// Animation's `actions` dictionary); a ``NullAction`` disables a key's animation.
    public var actions: [String: any Action]?
    /// The property being changed while its action runs, with its old value.
    var changeInProgress: (AnimatableKeyPath, AnimationValue)?

    // MARK: Actions

    /// The action for `key` (Core Animation's `action(forKey:)`): the delegate's
    /// ``LayerDelegate/action(for:forKey:)``, else ``actions``, else
    /// ``defaultAction(forKey:)``. A ``NullAction`` means none.
    open func action(forKey key: String) -> (any Action)? {
        if let action = delegate?.action(for: self, forKey: key) { return action }
        if let action = actions?[key] { return action }
        return Self.defaultAction(forKey: key)
    }

    /// The action for `key` when neither the delegate nor ``actions`` has one: for the
    /// animatable properties, a ``BasicAnimation`` of the current transaction's duration
    /// and timing function, from the value shown to the new model value (an implicit
    /// animation); `nil` otherwise.
    open class func defaultAction(forKey key: String) -> (any Action)? {
        guard AnimatableKeyPath.actionKeys.contains(key) else { return nil }
        let animation = BasicAnimation(keyPath: key)
        animation.duration = Transaction.animationDuration()
        animation.timingFunction = Transaction.animationTimingFunction()
        return animation
    }

    // MARK: Change tracking (for the window's damage)

    /// What the window last composited for this layer and its subtree (see
    /// ``LayerRenderRecord``): written by the window's ``DamageCollector`` only. A change of
    /// the subtree footprint drops the superlayer's sublayer grid.
    @exclusivity(unchecked) var renderRecord = LayerRenderRecord() {
        didSet {
            if renderRecord.subtreeFootprint != oldValue.subtreeFootprint { superlayer?.sublayerIndex = nil }
        }
    }
    /// Set when the layer's own pixels changed as a whole (background, contents).
    var appearanceChanged = false
    /// Set when the whole subtree must be repainted (added, or moved in z-order).
    var subtreeNeedsRepaint = false
    /// Set when a property that places the subtree changed (geometry, opacity,
    /// visibility, masking): the compositing walk visits the whole subtree.
    var placementChanged = false
    /// The grid over the sublayers' presented subtree footprints, built by the compositor
    /// when there are many sublayers; dropped when they or their footprints change.
    @exclusivity(unchecked) var sublayerIndex: SublayerIndex?

    /// Whether the compositing walk must visit this layer (it or a descendant changed).
    var needsCompositingWalk = false
    /// The sublayers the compositing walk must visit (may hold stale or repeated entries:
    /// the walk checks).
    var sublayersNeedingCompositingWalk: [Layer] = []

    /// Whether the display walk must visit this layer (it or a shown descendant is marked).
    @exclusivity(unchecked) var needsDisplayWalk = false
    /// The sublayers the display walk must visit (may hold stale entries: the walk checks).
    @exclusivity(unchecked) var sublayersNeedingDisplayWalk: [Layer] = []
}
