import DamaskGraphics
import Foundation

/// A rectangular area of a window that draws, lays out its subviews and handles events
/// (UIKit's `UIView`).
///
/// Every view is backed by a ``layer`` and is that layer's delegate; geometry and the
/// compositing properties (``backgroundColor``, ``alpha``, ``isHidden``, ``transform``,
/// ``frame``) are the layer's, so changing them never calls ``draw(_:)``. Override
/// ``draw(_:)`` to draw: the system calls it, never app code, with the dirty area; a view
/// that does not override it gets no backing store at all. Invalidate with
/// ``setNeedsDisplay()``; the window draws each marked view once per display pass.
///
/// Main-actor isolated. A view owns its subviews and its layer. Its superview and its
/// layer's pointer to it are not counted (`unowned(unsafe)`) but cleared when the link
/// ends or the other end is freed (docs/performance.md, "Back-pointers, not weak").
@MainActor open class View: Responder, LayerDelegate {
    /// The class of layer created for each instance. Default: ``Layer``.
    open class var layerClass: Layer.Type { Layer.self }

    /// The layer that holds this view's pixels; the view is its delegate.
    public let layer: Layer

    /// Creates a view with `frame` in its superview's coordinates. It is marked for
    /// display, so it draws when it first appears in a window.
    public init(frame: CGRect = .zero) {
        layer = Self.layerClass.init()
        super.init()
        layer.ownerView = self
        self.frame = frame
        layer.setNeedsDisplay()
    }

    // MARK: Hierarchy

    /// The view this one is a subview of; cleared by `detachFromSuperview` and `deinit`.
    @exclusivity(unchecked) public private(set) unowned(unsafe) var superview: View?
    /// The subviews, back to front.
    public private(set) var subviews: [View] = []
    /// Set on a window's content view only; the window clears it (`contentView`, `deinit`).
    @exclusivity(unchecked) unowned(unsafe) var hostWindow: Window?

    isolated deinit {
        for subview in subviews { subview.superview = nil }  // they may outlive this view
        layer.ownerView = nil  // and so may the layer
    }

    /// The window showing this view, if any.
    public var window: Window? { layer.window }

    /// Appends `view` in front of the other subviews (removing it from its old parent).
    /// Adding a view (not reordering one) marks this view for layout.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` in ``subviews`` (clamped to the valid range).
    public func insertSubview(_ view: View, at index: Int) {
        insert(view) { index }
    }

    /// Inserts `view` just in front of `sibling` (appends when it is not a subview).
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        insert(view) { self.indexOf(sibling).map { $0 + 1 } ?? self.subviews.count }
    }

    /// Inserts `view` just behind `sibling` (appends when it is not a subview).
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        insert(view) { self.indexOf(sibling) ?? self.subviews.count }
    }

    /// Inserts or reorders `view`; `index` is evaluated once `view` is out of the array.
    private func insert(_ view: View, at index: () -> Int) {
        precondition(!isDescendant(of: view), "a view cannot contain itself")
        let isReorder = view.superview === self
        let oldWindow = view.window
        if isReorder {
            subviews.removeAll { $0 === view }
        } else {
            view.detachFromSuperview()  // moving keeps the contents
        }
        let position = min(max(index(), 0), subviews.count)
        if position < subviews.count {
            layer.insertSublayer(view.layer, below: subviews[position].layer)
        } else {
            layer.addSublayer(view.layer)  // frontmost, above any standalone sublayers too
        }
        subviews.insert(view, at: position)
        guard !isReorder else { return }
        setNeedsLayout()  // as UIKit: adding a subview lays out the superview
        view.superview = self
        if view.needsLayoutWalk {  // layout marked while elsewhere: report it here
            view.needsLayoutWalk = false
            view.markLayoutPath()
        }
        didAddSubview(view)
        accessibilityChildrenDidChange()
        view.didMoveToSuperview()
        if view.window !== oldWindow { view.notifyDidMoveToWindow() }
    }

    /// Removes the view from its superview; the area it covered is repainted and its
    /// backing stores (and those of its subviews) are freed.
    public func removeFromSuperview() {
        guard superview != nil else { return }
        let oldWindow = window
        detachFromSuperview()
        layer.releaseBackingStores()
        didMoveToSuperview()
        if oldWindow != nil { notifyDidMoveToWindow() }
    }

    /// Takes the view out of its superview, keeping its contents (for moves).
    private func detachFromSuperview() {
        guard let parent = superview else { return }
        parent.willRemoveSubview(self)
        window?.viewWillLeave(self)
        parent.subviews.removeAll { $0 === self }
        superview = nil
        layer.detachFromSuperlayer()
        parent.accessibilityChildrenDidChange()
    }

    /// Called after `subview` was added. Default: nothing.
    open func didAddSubview(_ subview: View) {}
    /// Called before `subview` is removed. Default: nothing.
    open func willRemoveSubview(_ subview: View) {}
    /// Called after the superview changed. Default: nothing.
    open func didMoveToSuperview() {}
    /// Called after the view entered or left a window. Default: nothing.
    open func didMoveToWindow() {}

    private func indexOf(_ view: View) -> Int? { subviews.firstIndex { $0 === view } }

    private func notifyDidMoveToWindow() {
        didMoveToWindow()
        for subview in subviews { subview.notifyDidMoveToWindow() }
    }

    // MARK: Geometry

    /// The view's rectangle in its superview's coordinates (the layer's frame).
    open var frame: CGRect {
        get { layer.frame }
        set {
            let oldSize = layer.bounds.size
            layer.frame = newValue
            if layer.bounds.size != oldSize { setNeedsLayout() }
            accessibilityFrameDidChange()
        }
    }

    /// The view's own coordinate space. A size change redraws only with `.redraw`.
    open var bounds: CGRect {
        get { layer.bounds }
        set {
            let oldSize = layer.bounds.size
            layer.bounds = newValue
            if newValue.size != oldSize { setNeedsLayout() }
        }
    }

    /// The centre of the frame, in the superview's coordinates (the layer's position).
    open var center: CGPoint {
        get { layer.position }
        set { layer.position = newValue }
    }

    /// A transform around the centre (compositing only: never redraws).
    open var transform: CGAffineTransform {
        get { layer.transform }
        set { layer.transform = newValue }
    }

    // MARK: Appearance

    /// Filled behind the contents by the compositor (never by ``draw(_:)``).
    open var backgroundColor: Color? {
        get { layer.backgroundColor }
        set { layer.backgroundColor = newValue }
    }

    /// The view's opacity, 0…1 (compositing only).
    open var alpha: CGFloat {
        get { layer.opacity }
        set { layer.opacity = newValue }
    }

    /// Whether the view and its subviews are hidden (compositing only; no events).
    open var isHidden: Bool {
        get { layer.isHidden }
        set {
            let wasHidden = layer.isHidden
            layer.isHidden = newValue
            if wasHidden != newValue { accessibilityVisibilityDidChange() }
            if !newValue, needsLayoutWalk {  // layout that waited while hidden
                needsLayoutWalk = false
                markLayoutPath()
                window?.viewNeedsLayout()
            }
        }
    }

    /// Whether subviews are clipped to the bounds.
    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    /// A hint that ``draw(_:)`` fills its whole rect with opaque pixels. Default `true`,
    /// as in UIKit. Damask composites every view with alpha whatever its value, so a view
    /// that draws translucent pixels shows correctly either way.
    open var isOpaque = true

    /// Whether the dirty rect is cleared to transparent before ``draw(_:)``. Default `true`.
    open var clearsContextBeforeDrawing: Bool {
        get { layer.clearsContextBeforeDrawing }
        set { layer.clearsContextBeforeDrawing = newValue }
    }

    /// What happens to the drawn contents when the bounds change size. Default
    /// `.scaleToFill`, as in UIKit: a resized view stretches the pixels it drew last and is
    /// not asked to ``draw(_:)`` again. A view whose drawing depends on its size sets
    /// `.redraw` (usually in its initializer), as UIKit code does.
    open var contentMode: ContentMode = .scaleToFill {
        didSet {
            layer.needsDisplayOnBoundsChange = contentMode == .redraw
            layer.contentsGravity = contentMode.gravity
        }
    }

    /// Backing-store pixels per point (follows the window's scale while in a window).
    open var contentScaleFactor: CGFloat {
        get { layer.contentsScale }
        set { layer.contentsScale = newValue }
    }

    /// Whether the view receives events (when `false`, neither it nor its subviews do).
    open var isUserInteractionEnabled = true

    /// A number apps may use to find the view (``viewWithTag(_:)``).
    open var tag = 0

    /// The pointer image while the pointer is over this view; `nil` (the default) shows
    /// the superview's. A text field sets ``PointerCursor/text``.
    open var cursor: PointerCursor?

    // MARK: Drawing

    /// Draws the view's contents. Called by the system, never by app code.
    ///
    /// `rect` (view coordinates) is the area to redraw: the bounding box of the dirty rects,
    /// rounded out to whole pixels and clipped to the bounds. The current
    /// ``GraphicsContext`` is clipped to it (to the dirty rects themselves when up to
    /// eight separate ones were marked) and its origin is the bounds origin. The
    /// default does nothing; a view that does not override it gets no backing store.
    /// Overrides need not call `super`; calling it is harmless.
    open func draw(_ rect: CGRect) {
        GraphicsContext.top?.noteDefaultDrawing()
    }

    /// Marks the whole view for redrawing in the next display pass; only records.
    open func setNeedsDisplay() {
        layer.setNeedsDisplay()
    }

    /// Adds `rect` (view coordinates, clipped to the bounds) to the area to redraw in the
    /// next display pass; only records.
    open func setNeedsDisplay(_ rect: CGRect) {
        layer.setNeedsDisplay(rect)
    }

    /// Draws now if the view is marked (``draw(_:)`` has run when this returns); otherwise
    /// does nothing.
    public func displayIfNeeded() {
        layer.displayIfNeeded()
    }

    /// Redraws the whole view now: ``setNeedsDisplay()`` then ``displayIfNeeded()``. The
    /// window still presents the result with its next commit (``Window/flush()`` presents
    /// at once).
    public func displayNow() {
        setNeedsDisplay()
        displayIfNeeded()
    }

    /// Sets the layer's contents directly instead of drawing (UIKit calls a view's
    /// `display(_:)` as its layer's delegate). Override to supply ``Layer/contents``
    /// yourself: then ``draw(_:)`` is not called and no backing store is allocated. The
    /// default declines, and the view draws with ``draw(_:)``.
    open func display(_ layer: Layer) {
        layer.displayDeclinedByDelegate()
    }

    /// The action for a change of `key` on the view's layer: inside an animation block
    /// (``View/animate(withDuration:delay:options:animations:completion:)``), a
    /// ``BasicAnimation`` with the block's duration, delay and curve for the animatable
    /// properties; otherwise ``NullAction``, so that a view changes at once outside
    /// animation blocks, as in UIKit.
    open func action(for layer: Layer, forKey key: String) -> (any Action)? {
        guard layer === self.layer, let context = View.animationContexts.last,
            context.duration > 0, AnimatableKeyPath.actionKeys.contains(key)
        else { return NullAction() }
        return context.animation(forKey: key)
    }

    /// Forwards the layer's drawing to ``draw(_:)``. Override to draw with the context
    /// passed in instead (the current context is the same one).
    open func draw(_ layer: Layer, in context: GraphicsContext) {
        draw(context.drawingRect)
    }

    // MARK: Layout

    /// Whether ``layoutSubviews()`` will run in the next layout pass.
    public private(set) var needsLayout = true

    /// Positions the subviews. Called by the layout pass for views marked with
    /// ``setNeedsLayout()`` (and after a bounds size change). Default: nothing.
    open func layoutSubviews() {}

    /// Whether the layout walk must visit this view (it or a shown descendant needs
    /// layout).
    @exclusivity(unchecked) var needsLayoutWalk = true
    /// The subviews the layout walk must visit (may hold stale entries: the walk checks).
    private var subviewsNeedingLayoutWalk: [View] = []

    /// Marks the view for layout in the next pass; only records.
    public func setNeedsLayout() {
        needsLayout = true
        markLayoutPath()
        window?.viewNeedsLayout()
    }

    /// Marks this view and its superviews for the layout walk, stopping at the first one
    /// already marked.
    private func markLayoutPath() {
        var view = self
        while !view.needsLayoutWalk {
            view.needsLayoutWalk = true
            guard let parent = view.superview else { return }
            parent.subviewsNeedingLayoutWalk.append(view)
            view = parent
        }
    }

    /// Runs pending layout in this view's subtree now, parents before children; visits
    /// only the paths to views marked with ``setNeedsLayout()`` (hidden subtrees wait
    /// until shown).
    public func layoutIfNeeded() {
        layoutIfNeeded(counting: layer.host?.statistics)
    }

    /// ``layoutIfNeeded()``, adding each visit to `statistics` (the window's).
    private func layoutIfNeeded(counting statistics: WindowStatistics?) {
        guard needsLayoutWalk else { return }
        statistics?.layoutWalkVisitCount += 1
        needsLayoutWalk = false
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        let marked = subviewsNeedingLayoutWalk
        subviewsNeedingLayoutWalk.removeAll(keepingCapacity: true)
        for subview in marked where subview.superview === self {
            if subview.isHidden {
                subview.needsLayoutWalk = true  // re-reported when shown
            } else {
                subview.layoutIfNeeded(counting: statistics)
            }
        }
    }

    // MARK: Sizing (UIKit's intrinsic content size and size that fits)

    /// The value of a dimension of ``intrinsicContentSize`` the view has no size of its own
    /// for (UIKit's `UIView.noIntrinsicMetric`).
    public static let noIntrinsicMetric: CGFloat = -1

    /// The size the view's content wants, ``noIntrinsicMetric`` in a dimension it has no
    /// preference in. Stacks (`DamaskControls.StackView`) lay out by it. Default: no
    /// preference in either dimension.
    open var intrinsicContentSize: CGSize {
        CGSize(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
    }

    /// Tells the superview that ``intrinsicContentSize`` changed: it lays out again.
    open func invalidateIntrinsicContentSize() {
        superview?.setNeedsLayout()
    }

    /// The size that best fits `size` (a text view wraps to its width, for example).
    /// Default: the intrinsic size where there is one, the current size elsewhere.
    open func sizeThatFits(_ size: CGSize) -> CGSize {
        let intrinsic = intrinsicContentSize
        return CGSize(
            width: intrinsic.width == View.noIntrinsicMetric ? bounds.width : intrinsic.width,
            height: intrinsic.height == View.noIntrinsicMetric ? bounds.height : intrinsic.height)
    }

    /// Resizes the view to ``sizeThatFits(_:)`` its current size, keeping its origin.
    public func sizeToFit() {
        frame.size = sizeThatFits(bounds.size)
    }

    // MARK: Accessibility (the rest, and the defaults' reasons, in View+Accessibility.swift)

    /// Whether assistive technologies see this view as one element (its subviews are then
    /// not visited). Default: `false`, a container; controls return `true`.
    open var isAccessibilityElement = false
    /// The element's short name; a control's default is its title.
    open var accessibilityLabel: String? {
        didSet { if accessibilityLabel != oldValue { AccessibilityNotification.propertyChanged(self, .label).post() } }
    }
    /// The element's value as text.
    open var accessibilityValue: String? {
        didSet { if accessibilityValue != oldValue { AccessibilityNotification.valueChanged(self).post() } }
    }
    /// What activating the element does, when the label does not say it.
    open var accessibilityHint: String?
    /// A name for tests and tools that does not change with the language.
    open var accessibilityIdentifier: String?
    /// The element's kind and state. Default: none.
    open var accessibilityTraits: AccessibilityTraits = [] {
        didSet {
            if accessibilityTraits != oldValue {
                AccessibilityNotification.propertyChanged(self, .traits(old: oldValue)).post()
            }
        }
    }
    /// The nodes inside this container in reading order (`nil`: the visible subviews).
    open var accessibilityElements: [any Accessible]? {
        didSet { accessibilityChildrenDidChange() }
    }
    /// How this container's children belong together. Default: ``AccessibilityContainerType/none``.
    open var accessibilityContainerType = AccessibilityContainerType.none
    /// Whether this view and its subtree are hidden from assistive technologies.
    open var accessibilityElementsHidden = false {
        didSet { if accessibilityElementsHidden != oldValue { accessibilityVisibilityDidChange() } }
    }
    /// Performs the default action for an assistive technology; returns whether there was
    /// one. Default: `false`.
    open func accessibilityActivate() -> Bool { false }
    /// Moves an adjustable element's value one step up. Default: nothing.
    open func accessibilityIncrement() {}
    /// Moves an adjustable element's value one step down. Default: nothing.
    open func accessibilityDecrement() {}

    // MARK: Events

    /// The superview, or the window for its content view.
    open override var next: Responder? { superview ?? hostWindow }

    override var responderWindow: Window? { window }

    // MARK: Keyboard focus (see View+Focus.swift)

    /// Whether the key-view loop (Tab, Shift+Tab) stops at this view, so that it can be
    /// used without a pointer. Default: `false`. A control returns `true` and handles the
    /// keys that use it (Space and Return press a button) in `keyDown(_:)`.
    open var canBecomeFocused: Bool { false }

    /// The subviews the key-view loop visits inside this view, in order. Default: the
    /// visible subviews in reading order (``readingOrder(_:)``); a container overrides it
    /// to order its children otherwise.
    open var focusOrderedSubviews: [View] { View.readingOrder(subviews) }

    /// Whether the window draws its focus ring around this view while it has focus.
    /// Default: unless the view takes focus itself (``canBecomeFirstResponder``): such a
    /// view, a text field, shows focus its own way (a caret, a border).
    open var wantsFocusRing: Bool { !canBecomeFirstResponder }

    /// Whether `point` (view coordinates) is inside the view. Default: inside the bounds.
    /// `event` is the event being delivered, or `nil` when asked outside delivery.
    open func point(inside point: CGPoint, with event: Event?) -> Bool {
        bounds.contains(point)
    }

    /// Returns the frontmost descendant (or this view) that contains `point` (view
    /// coordinates) and accepts events; `nil` when the point is outside, or the view is
    /// hidden, nearly transparent (alpha < 0.01) or not interactive. `event` is the event
    /// being delivered, or `nil` when asked outside delivery; it is passed down to the
    /// subviews' `hitTest(_:with:)` and `point(inside:with:)`.
    open func hitTest(_ point: CGPoint, with event: Event?) -> View? {
        guard !isHidden, alpha >= 0.01, isUserInteractionEnabled,
            self.point(inside: point, with: event)
        else {
            return nil
        }
        for subview in subviews.reversed() {
            let local = subview.layer.convert(point, from: layer)
            if let hit = subview.hitTest(local, with: event) { return hit }
        }
        return self
    }
}
