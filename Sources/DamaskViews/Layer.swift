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
/// layer owns its sublayers and holds its superlayer and delegate weakly.
@MainActor open class Layer {
    /// Creates an empty layer with zero bounds.
    public required init() {}

    // MARK: Tree

    /// The layer this one is a sublayer of (weak).
    public private(set) weak var superlayer: Layer?
    /// The sublayers, back to front.
    public private(set) var sublayers: [Layer] = [] {
        didSet { sublayerIndex = nil }
    }
    /// Set on a window's root layer only.
    weak var hostWindow: Window?

    /// The window showing this layer's tree, if any.
    public var window: Window? {
        var layer = self
        while let parent = layer.superlayer { layer = parent }
        return layer.hostWindow
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
            window?.layerDidEnter(layer)
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
        if let window = parent.window {
            window.layerWillLeave(self)
        }
        parent.sublayers.removeAll { $0 === self }
        superlayer = nil
        needsCompositingWalk = false  // the subtree is walked whole when it is added again
    }

    /// Whether `ancestor` is this layer or one of its superlayers.
    public func isDescendant(of ancestor: Layer) -> Bool {
        var layer: Layer? = self
        while let current = layer {
            if current === ancestor { return true }
            layer = current.superlayer
        }
        return false
    }

    // MARK: Geometry

    /// The layer's own coordinate space: its origin and size in points.
    ///
    /// A size change redraws only when ``needsDisplayOnBoundsChange`` is set; otherwise
    /// the cached contents are placed by ``contentsGravity``.
    open var bounds: CGRect = .zero {
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
    open var position: CGPoint = .zero {
        didSet {
            guard position != oldValue else { return }
            compositingDidChange()
            propertyDidChange(.position, from: .point(oldValue))
        }
    }

    /// The point of the bounds (unit coordinates) that ``position`` refers to and that
    /// ``transform`` turns around. Default: the centre, (0.5, 0.5).
    open var anchorPoint = CGPoint(x: 0.5, y: 0.5) {
        didSet { if anchorPoint != oldValue { compositingDidChange() } }
    }

    /// A transform applied around the anchor point, in the superlayer's space.
    open var transform: CGAffineTransform = .identity {
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

    /// Maps the layer's coordinates (its bounds) to its superlayer's coordinates.
    public var transformToSuperlayer: CGAffineTransform {
        CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY)
            .concatenating(transformToSuperlayerFromUnitOrigin)
    }

    private var transformToSuperlayerFromUnitOrigin: CGAffineTransform {
        CGAffineTransform(
            translationX: -anchorPoint.x * bounds.width, y: -anchorPoint.y * bounds.height
        )
        .concatenating(transform)
        .concatenating(CGAffineTransform(translationX: position.x, y: position.y))
    }

    /// Maps the layer's coordinates to those of the root of its tree (window points when
    /// the tree is in a window).
    public var transformToRoot: CGAffineTransform {
        var result = transformToSuperlayer
        var layer = self
        while let parent = layer.superlayer {
            result = result.concatenating(parent.transformToSuperlayer)
            layer = parent
        }
        return result
    }

    /// Converts `point` from `layer`'s coordinates (the root's when `nil`) to this layer's.
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint {
        let fromRoot = layer?.transformToRoot ?? .identity
        return point.applying(fromRoot).applying(transformToRoot.inverted())
    }

    /// Converts `point` from this layer's coordinates to `layer`'s (the root's when `nil`).
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        let toRoot = layer?.transformToRoot ?? .identity
        return point.applying(transformToRoot).applying(toRoot.inverted())
    }

    /// Converts `rect` from this layer's coordinates to `layer`'s (bounding box).
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        let toRoot = layer?.transformToRoot ?? .identity
        return rect.applying(transformToRoot.concatenating(toRoot.inverted()))
    }

    /// Converts `rect` from `layer`'s coordinates to this layer's (bounding box).
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        let fromRoot = layer?.transformToRoot ?? .identity
        return rect.applying(fromRoot.concatenating(transformToRoot.inverted()))
    }

    // MARK: Compositing properties

    /// Filled over the bounds beneath the contents, by the compositor (never by drawing).
    open var backgroundColor: Color? {
        didSet {
            guard backgroundColor != oldValue else { return }
            appearanceDidChange()
            propertyDidChange(.backgroundColor, from: .color(oldValue ?? .clear))
        }
    }

    /// The radius of the corners of the background, in points (0, the default, for square
    /// corners). With ``masksToBounds`` the contents and sublayers are clipped to the
    /// rounded shape too. Compositing only: never redraws.
    open var cornerRadius: CGFloat = 0 {
        didSet {
            guard cornerRadius != oldValue else { return }
            appearanceDidChange()
            propertyDidChange(.cornerRadius, from: .scalar(oldValue))
        }
    }

    /// The layer's opacity, 0…1, multiplied into its sublayers'.
    open var opacity: CGFloat = 1 {
        didSet {
            guard opacity != oldValue else { return }
            compositingDidChange()
            propertyDidChange(.opacity, from: .scalar(oldValue))
        }
    }

    /// Whether the layer and its sublayers are left out of compositing (and of drawing).
    open var isHidden = false {
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
    open var masksToBounds = false {
        didSet {
            guard masksToBounds != oldValue else { return }
            subtreeNeedsRepaint = true  // clip edges may be antialiased
            compositingDidChange()
        }
    }

    // MARK: Contents

    private var storedContents: Bitmap?

    /// The bitmap shown over the background: set directly, by the delegate's
    /// `display(_:)`, or by drawing into the backing store.
    ///
    /// Setting it drops the backing store; the bitmap is shown as is (no `draw`). Setting
    /// the same bitmap again after changing its pixels repaints the layer.
    open var contents: Bitmap? {
        get { storedContents }
        set {
            if newValue !== backingStore { freeBackingStore() }
            storedContents = newValue
            contentsOpacity = nil
            appearanceDidChange()
        }
    }

    /// Pixels per point of the contents (set to the window's scale while in a window).
    open var contentsScale: CGFloat = 1 {
        didSet {
            guard contentsScale != oldValue else { return }
            if backingStore != nil || tiledBackingStore != nil || needsDisplay { setNeedsDisplay() }
            appearanceDidChange()
        }
    }

    /// How contents are placed when their size differs from the bounds.
    open var contentsGravity: ContentsGravity = .resize {
        didSet { if contentsGravity != oldValue { appearanceDidChange() } }
    }

    /// Whether a change of bounds size marks the layer for redrawing.
    open var needsDisplayOnBoundsChange = false

    /// The layer's delegate: supplies contents (weak).
    open weak var delegate: (any LayerDelegate)?

    /// The backing store this layer draws into, if it has one.
    private(set) var backingStore: Bitmap? {
        didSet { if backingStore !== oldValue { backingStoreContext = nil } }
    }
    /// The context drawing into ``backingStore``, kept from one redraw to the next (its
    /// state is reset each time) so that a small redraw does not create a context and a
    /// pixman image; owned by the layer, dropped with the store.
    private var backingStoreContext: GraphicsContext?
    /// The bounds size (points) the backing store was drawn for.
    private(set) var backingStorePointSize: CGSize = .zero

    /// The tiled backing store of a layer too large for one bitmap (see
    /// ``TiledBackingStore``); `nil` otherwise.
    var tiledBackingStore: TiledBackingStore?

    /// The bytes held by this layer's backing store, all of its allocated tiles for a tiled
    /// one (0 without one).
    public var backingStoreByteCount: Int {
        (backingStore?.byteCount ?? 0) + (tiledBackingStore?.byteCount ?? 0)
    }

    /// Whether the layer draws into a tiled backing store: its store would be wider or
    /// taller than ``Bitmap/maximumDimension`` pixels or hold more than
    /// ``tilingPixelCount`` pixels, so only the tiles near the visible area exist.
    public var isBackingStoreTiled: Bool { tiledBackingStore != nil }

    /// How many tiles of the tiled backing store are allocated (0 when not tiled).
    public var backingStoreTileCount: Int { tiledBackingStore?.tiles.count ?? 0 }

    /// The number of pixels above which a backing store is tiled (64 MiB of ARGB32).
    public static let tilingPixelCount = 16_777_216

    /// The bytes held by all layers' backing stores in the process.
    public internal(set) static var liveBackingStoreBytes = 0

    /// How many backing stores were ever allocated in the process.
    public internal(set) static var backingStoreAllocationCount = 0

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

    /// The size in points the contents occupy before gravity scales them.
    var contentsPointSize: CGSize {
        guard let contents = storedContents else { return .zero }
        if contents === backingStore { return backingStorePointSize }
        let scale = contentsScale > 0 ? contentsScale : 1
        return CGSize(width: CGFloat(contents.width) / scale, height: CGFloat(contents.height) / scale)
    }

    /// Where the contents are shown, in the layer's coordinates (`.null` without
    /// contents): placed in the presented bounds (see ``presentedBounds``).
    var contentsFrame: CGRect {
        guard storedContents != nil else { return .null }
        return contentsGravity.rect(forContentsOfSize: contentsPointSize, in: presentedBounds)
    }

    // MARK: Display

    /// The dirty area in the layer's coordinates (`.null` when clean; `.infinite` for all).
    /// Any assignment but ``setNeedsDisplay(_:)``'s forgets ``dirtyPieces``.
    var dirtyRect: CGRect = .null {
        didSet { if !dirtyPieces.isEmpty { dirtyPieces.removeAll(keepingCapacity: true) } }
    }
    /// The separate rects ``setNeedsDisplay(_:)`` marked since the layer was clean, when
    /// there are at least two and at most ``dirtyPieceLimit``: their bounding box is
    /// ``dirtyRect``. A redraw clips to them and damages only them, so two small changes far
    /// apart in one view (two numbers at the ends of a label) do not damage the pixels
    /// between them. Empty means all of ``dirtyRect``.
    private(set) var dirtyPieces: [CGRect] = []
    /// More separate dirty rects than this are redrawn as their bounding box.
    static let dirtyPieceLimit = 8

    /// Whether the layer is marked for redrawing.
    public var needsDisplay: Bool { !dirtyRect.isNull }

    /// How many times this layer's contents were drawn or displayed.
    public internal(set) var displayCount = 0
    /// How many times this layer moved its drawn pixels instead of redrawing them
    /// (``scrollContents(dx:dy:)``).
    public internal(set) var contentsScrollCount = 0

    /// Set by the default `LayerDelegate.display(_:)`.
    var delegateDeclinedDisplay = false
    /// Set when a default `draw` implementation ran (the delegate does not draw).
    var drawReachedDefault = false
    /// Whether the drawing path clears the dirty area before drawing.
    var clearsContextBeforeDrawing = true
    /// The rect being drawn, while ``draw(in:)`` runs.
    var drawingRect: CGRect = .null

    private var drawingKind: [ObjectIdentifier] {
        var kind = [ObjectIdentifier(type(of: self))]
        if let delegate { kind.append(ObjectIdentifier(type(of: delegate))) }
        return kind
    }

    /// Marks the whole layer for redrawing at the next display pass. Only records.
    public func setNeedsDisplay() {
        dirtyRect = .infinite
        markDisplayPath()
        window?.layerNeedsDisplay(self)
    }

    /// Adds `rect` (layer coordinates, clipped to the bounds) to the area to redraw at the
    /// next display pass. Only records. (Core Animation's `setNeedsDisplay(_:)`,
    /// `setNeedsDisplayInRect:` in Objective-C.)
    public func setNeedsDisplay(_ rect: CGRect) {
        let clipped = rect.standardized.intersection(bounds)
        guard !clipped.isNull, !clipped.isEmpty else { return }
        let wasClean = dirtyRect.isNull, before = dirtyPieces
        let single = !wasClean && before.isEmpty && dirtyRect != .infinite ? dirtyRect : nil
        if !wasClean, dirtyRect.contains(clipped), before.isEmpty || before.contains(where: { $0.contains(clipped) }) {
            // Already covered.
        } else {
            dirtyRect = dirtyRect.union(clipped)  // forgets the pieces
            if let single {
                dirtyPieces = [single, clipped]
            } else if !before.isEmpty, before.count < Layer.dirtyPieceLimit {
                dirtyPieces = before + [clipped]
            }
        }
        markDisplayPath()
        window?.layerNeedsDisplay(self)
    }

    /// The former spelling of ``setNeedsDisplay(_:)``.
    @available(*, deprecated, renamed: "setNeedsDisplay(_:)")
    public func setNeedsDisplay(in rect: CGRect) {
        setNeedsDisplay(rect)
    }

    /// Redraws the whole layer now (the delegate's `display(_:)` or the drawing path).
    public func display() {
        dirtyRect = .infinite
        displayIfNeeded()
    }

    /// Redraws the dirty area now if the layer is marked; does nothing otherwise.
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        if let delegate {
            let marked = dirtyRect, markedPieces = dirtyPieces
            dirtyRect = .null
            delegateDeclinedDisplay = false
            delegate.display(self)
            if !delegateDeclinedDisplay {
                displayCount += 1
                window?.layerDidDraw(self, in: nil)
                return
            }
            if dirtyRect.isNull {
                dirtyRect = marked
                dirtyPieces = markedPieces
            } else {
                dirtyRect = dirtyRect.union(marked)  // marked again meanwhile: the bounding box
            }
        }
        drawIntoBackingStore()
    }

    /// Draws the layer's contents into `context`. Default: asks the delegate's
    /// `draw(_:in:)`; without a delegate the layer does not draw. Override to draw in a
    /// layer subclass (Core Animation's `drawInContext:`); never call it directly.
    open func draw(in context: GraphicsContext) {
        if let delegate {
            delegate.draw(self, in: context)
        } else {
            drawReachedDefault = true
        }
    }

    private func drawIntoBackingStore() {
        let window = self.window
        // The kind is built (an array) only for a layer without a backing store (one with
        // a store has drawn) in a window that has learned of some kind that does not draw.
        if backingStore == nil, let window, !window.nonDrawingKinds.isEmpty,
            window.nonDrawingKinds.contains(drawingKind)
        {
            // Learned not to draw: ask again without a backing store, so that a class whose
            // first instance drew nothing is never kept from drawing.
            guard !drawsIntoProbe() else {
                window.nonDrawingKinds.remove(drawingKind)
                return drawIntoBackingStore()
            }
            dirtyRect = .null
            if storedContents === backingStore { freeBackingStore() }
            return
        }
        let scale = contentsScale > 0 ? contentsScale : 1
        let pixelWidthValue = (bounds.width * scale).rounded(.up)
        let pixelHeightValue = (bounds.height * scale).rounded(.up)
        guard pixelWidthValue > 0, pixelHeightValue > 0 else {
            return  // stays marked: drawn once it has a size
        }
        let tileableLimit = CGFloat(Int32.max)
        guard pixelWidthValue <= tileableLimit, pixelHeightValue <= tileableLimit else {
            reportOversizedBackingStore(width: pixelWidthValue, height: pixelHeightValue)
            return  // stays marked: drawn once it fits
        }
        let pixelWidth = Int(pixelWidthValue)
        let pixelHeight = Int(pixelHeightValue)
        let limit = Bitmap.maximumDimension
        if pixelWidth > limit || pixelHeight > limit || pixelWidth * pixelHeight > Layer.tilingPixelCount {
            return displayTiles(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
        if tiledBackingStore != nil { freeBackingStore() }  // fits in one bitmap again
        let requested = dirtyRect.intersection(bounds)
        let rect: CGRect
        let isNewStore: Bool
        var pieces: [CGRect] = []
        if let store = backingStore, store.width == pixelWidth, store.height == pixelHeight,
            backingStorePointSize == bounds.size, storedContents === store
        {
            if !dirtyPieces.isEmpty { pieces.reserveCapacity(dirtyPieces.count) }
            for each in dirtyPieces {  // a loop, not a closure: no per-draw isolation check
                let piece = each.intersection(bounds)
                if !piece.isNull, !piece.isEmpty { pieces.append(alignedToPixels(piece, scale: scale)) }
            }
            dirtyRect = .null
            guard !requested.isNull, !requested.isEmpty else { return }
            rect = alignedToPixels(requested, scale: scale)
            isNewStore = false
        } else {
            guard let store = try? Bitmap(width: pixelWidth, height: pixelHeight) else {
                reportOversizedBackingStore(width: pixelWidthValue, height: pixelHeightValue)
                return  // stays marked
            }
            dirtyRect = .null
            freeBackingStore()
            backingStore = store
            backingStorePointSize = bounds.size
            Layer.liveBackingStoreBytes += store.byteCount
            Layer.backingStoreAllocationCount += 1
            rect = bounds
            isNewStore = true
        }
        guard let store = backingStore else { return }
        let context: GraphicsContext
        if let reused = backingStoreContext, reused.bitmap === store {
            reused.resetState()
            context = reused
        } else {
            context = GraphicsContext(bitmap: store)
            backingStoreContext = context
        }
        context.scaleBy(x: scale, y: scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        // One rect (the usual case) needs no array: `pieces` is left empty for it.
        if pieces.count > 1 {
            context.clip(to: pieces)
            if clearsContextBeforeDrawing { for piece in pieces { context.clear(piece) } }
        } else {
            pieces.removeAll()
            context.clip(to: rect)
            if clearsContextBeforeDrawing && !isNewStore { context.clear(rect) }
        }
        runDraw(in: context, rect: rect)
        // Only a first drawing that reached a default `draw`, never asked for the current
        // context and left every pixel clear teaches that the class does not draw (an
        // override may call `super.draw`); a redraw never throws pixels away.
        if isNewStore, drawReachedDefault, context.currentRequestCount == 0, store.isClear {
            window?.nonDrawingKinds.insert(drawingKind)
            freeBackingStore()
            window?.layerDidDraw(self, in: nil)
            return
        }
        if isNewStore {
            storedContents = store
            contentsOpacity = nil
            appearanceDidChange()
            window?.layerDidDraw(self, in: nil)
        } else {
            if contentsOpacity == true {
                // Only the redrawn pixels can have lost their opacity.
                let toPixels = CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY)
                    .concatenating(CGAffineTransform(scaleX: scale, y: scale))
                if pieces.isEmpty {
                    if !store.isOpaque(in: rect.applying(toPixels)) {
                        contentsOpacity = false
                        window?.layerOpaqueAreaMayHaveChanged()
                    }
                } else {
                    for piece in pieces where !store.isOpaque(in: piece.applying(toPixels)) {
                        contentsOpacity = false
                        window?.layerOpaqueAreaMayHaveChanged()
                        break
                    }
                }
            }
            if pieces.isEmpty {
                window?.layerDidDraw(self, in: rect)
            } else {
                window?.layerDidDraw(self, in: pieces)
            }
        }
    }

    /// Runs ``draw(in:)`` for `rect` (layer coordinates) with `context` as the current
    /// context, recording whether the drawing reached a default `draw` and counting the
    /// display. Shared by the single backing store and the tiles.
    func runDraw(in context: GraphicsContext, rect: CGRect) {
        drawReachedDefault = false
        drawingRect = rect
        GraphicsContext.push(context)
        draw(in: context)
        GraphicsContext.pop()
        drawingRect = .null
        displayCount += 1
    }

    /// Calls ``draw(in:)`` on a 1×1-pixel stand-in context; returns whether the drawing
    /// did anything but reach a default (it asked for the current context or was
    /// overridden).
    private func drawsIntoProbe() -> Bool {
        guard let probe = try? Bitmap(width: 1, height: 1) else { return true }
        let context = GraphicsContext(bitmap: probe)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        drawReachedDefault = false
        drawingRect = bounds
        GraphicsContext.push(context)
        draw(in: context)
        GraphicsContext.pop()
        drawingRect = .null
        return !drawReachedDefault || context.currentRequestCount > 0 || !probe.isClear
    }

    /// Whether this layer already reported that its backing store cannot be allocated.
    private var reportedOversizedBackingStore = false

    /// Writes a one-time diagnostic (per layer) to standard error: the backing store of
    /// `width × height` pixels exceeds what a bitmap can hold, so the layer stays marked
    /// and undrawn until its bounds or scale shrink.
    func reportOversizedBackingStore(width: CGFloat, height: CGFloat) {
        Layer.oversizedBackingStoreReportCount += 1
        guard !reportedOversizedBackingStore else { return }
        reportedOversizedBackingStore = true
        let name = delegate.map { String(describing: type(of: $0)) } ?? String(describing: type(of: self))
        let message =
            "damask: \(name) layer of \(bounds.width)×\(bounds.height) points at scale "
            + "\(contentsScale) needs a \(width)×\(height)-pixel backing store that cannot be "
            + "allocated, even tiled (tiled stores are limited to \(Int32.max) pixels a side), so it "
            + "is not drawn (it stays marked for display; split it into smaller views or layers)\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// How many display attempts found a backing store too large to allocate (a debug
    /// counter for tests).
    public private(set) static var oversizedBackingStoreReportCount = 0

    /// Rounds `rect` outwards to whole backing-store pixels, within the bounds.
    func alignedToPixels(_ rect: CGRect, scale: CGFloat) -> CGRect {
        let local = rect.offsetBy(dx: -bounds.minX, dy: -bounds.minY)
        let minX = (local.minX * scale).rounded(.down) / scale
        let minY = (local.minY * scale).rounded(.down) / scale
        let maxX = (local.maxX * scale).rounded(.up) / scale
        let maxY = (local.maxY * scale).rounded(.up) / scale
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
            .offsetBy(dx: bounds.minX, dy: bounds.minY)
            .intersection(bounds)
    }

    func freeBackingStore() {
        if let tiled = tiledBackingStore {
            Layer.liveBackingStoreBytes -= tiled.freeAll()
            tiledBackingStore = nil
            appearanceDidChange()
        }
        guard let store = backingStore else { return }
        Layer.liveBackingStoreBytes -= store.byteCount
        if storedContents === store {
            storedContents = nil
            contentsOpacity = nil
            appearanceDidChange()
        }
        backingStore = nil
    }

    /// Frees the backing stores of this subtree; layers that had one are marked to redraw.
    func releaseBackingStores() {
        if backingStore != nil || tiledBackingStore != nil {
            freeBackingStore()
            dirtyRect = .infinite
            markDisplayPath()
        }
        for sublayer in sublayers { sublayer.releaseBackingStores() }
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
    /// How many animations were refused (a debug counter for tests).
    static var animationProblemCount = 0
    /// The refusal messages already written.
    static var reportedAnimationProblems = Set<String>()

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

    /// What the window last composited for this layer (buffer pixels), or `nil`.
    var presented: PresentedLayerState?
    /// The placement the window's last damage walk computed for this layer (`nil` before
    /// the first, or after the layer left the window). Current for every layer of the tree
    /// as long as no compositing change was recorded since that walk.
    var presentedPlacement: LayerPlacement?
    /// Set when the layer's own pixels changed as a whole (background, contents).
    var appearanceChanged = false
    /// Set when the whole subtree must be repainted (added, or moved in z-order).
    var subtreeNeedsRepaint = false
    /// Set when a property that places the subtree changed (geometry, opacity,
    /// visibility, masking): the compositing walk visits the whole subtree.
    var placementChanged = false
    /// The union of the buffer pixels this subtree was last composited at (may be larger,
    /// never smaller): the compositor skips the subtree when it misses the repaint region.
    var presentedSubtreeFootprint: CGRect = .null {
        didSet {
            if presentedSubtreeFootprint != oldValue { superlayer?.sublayerIndex = nil }
        }
    }
    /// The grid over the sublayers' presented subtree footprints, built by the compositor
    /// when there are many sublayers; dropped when they or their footprints change.
    var sublayerIndex: SublayerIndex?

    /// Whether the compositing walk must visit this layer (it or a descendant changed).
    var needsCompositingWalk = false
    /// The sublayers the compositing walk must visit (may hold stale or repeated entries:
    /// the walk checks).
    private var sublayersNeedingCompositingWalk: [Layer] = []

    /// Whether the display walk must visit this layer (it or a shown descendant is marked).
    var needsDisplayWalk = false
    /// The sublayers the display walk must visit (may hold stale entries: the walk checks).
    private var sublayersNeedingDisplayWalk: [Layer] = []

    /// How many layers the display walks of this process visited (a debug counter).
    static var displayWalkVisitCount = 0

    /// Records a change of a property that moves or reveals pixels of the subtree.
    func compositingDidChange() {
        placementChanged = true
        markCompositingPath()
        window?.layerCompositingDidChange(self)
    }

    /// Records a change of the layer's own pixels (not its sublayers').
    func appearanceDidChange() {
        appearanceChanged = true
        markCompositingPath()
        window?.layerCompositingDidChange(self)
    }

    /// Marks this layer and its ancestors for the compositing walk (stopping at the first
    /// one already marked, as GNUstep's NSView marks its ancestors for display).
    private func markCompositingPath() {
        var layer = self
        while !layer.needsCompositingWalk {
            layer.needsCompositingWalk = true
            guard let parent = layer.superlayer else { return }
            parent.sublayersNeedingCompositingWalk.append(layer)
            layer = parent
        }
    }

    /// Marks this layer and its ancestors for the display walk.
    func markDisplayPath() {
        var layer = self
        while !layer.needsDisplayWalk {
            layer.needsDisplayWalk = true
            guard let parent = layer.superlayer else { return }
            parent.sublayersNeedingDisplayWalk.append(layer)
            layer = parent
        }
    }

    /// The marked sublayers still in this layer, each once; clears this layer's marks.
    func takeSublayersNeedingCompositingWalk() -> [Layer] {
        needsCompositingWalk = false
        let marked = sublayersNeedingCompositingWalk
        sublayersNeedingCompositingWalk.removeAll(keepingCapacity: true)
        return marked.filter { $0.superlayer === self && $0.needsCompositingWalk }
    }

    /// Clears this layer's compositing marks (its whole subtree is being walked).
    func clearCompositingMarks() {
        needsCompositingWalk = false
        sublayersNeedingCompositingWalk.removeAll()
    }

    /// Draws every marked, shown layer of this tree, visiting only marked paths (hidden
    /// subtrees keep their marks until shown).
    func displayTreeIfNeeded() {
        guard !isHidden, needsDisplayWalk else { return }
        Layer.displayWalkVisitCount += 1
        needsDisplayWalk = false
        displayIfNeeded()
        // Take the list (marks made while walking go to a fresh one), and give its storage
        // back when nothing was marked meanwhile: no array is copied or allocated per level.
        var marked: [Layer] = []
        swap(&marked, &sublayersNeedingDisplayWalk)
        for sublayer in marked where sublayer.superlayer === self {
            if sublayer.isHidden {
                sublayer.needsDisplayWalk = true  // re-reported when shown
            } else {
                sublayer.displayTreeIfNeeded()
            }
        }
        if sublayersNeedingDisplayWalk.isEmpty {
            marked.removeAll(keepingCapacity: true)
            sublayersNeedingDisplayWalk = marked
        }
    }

    /// The area the layer itself paints (background and contents) in the frame being
    /// composited (presented values), in its coordinates.
    var paintedRect: CGRect {
        var rect = CGRect.null
        let bounds = presentedBounds
        if let color = presentedBackgroundColor, color.alpha > 0 { rect = bounds }
        if tiledBackingStore != nil { rect = rect.union(bounds) }
        if storedContents != nil {
            var frame = contentsFrame
            if masksToBounds { frame = frame.intersection(bounds) }
            rect = rect.union(frame)
        }
        return rect
    }
}

extension Bitmap {
    /// Whether every byte of the pixels is zero (fully transparent).
    fileprivate var isClear: Bool {
        let words = byteCount / 8
        let raw = UnsafeRawPointer(bytes)
        for index in 0..<words where raw.load(fromByteOffset: index * 8, as: UInt64.self) != 0 {
            return false
        }
        for offset in (words * 8)..<byteCount where raw.load(fromByteOffset: offset, as: UInt8.self) != 0 {
            return false
        }
        return true
    }
}
