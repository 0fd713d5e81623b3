import DamaskGraphics
import Dispatch
import Foundation

/// Whether `DAMASK_DEBUG` (comma-separated) contains `damage`; read once per process.
private let environmentFlashesDamage: Bool = {
    guard let value = ProcessInfo.processInfo.environment["DAMASK_DEBUG"] else { return false }
    return value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "damage" }
}()

/// The root of a view hierarchy, bound to a ``Surface``: runs the display cycle and
/// dispatches input.
///
/// **Display cycle.** The first invalidation in a turn of the main loop (a
/// `setNeedsDisplay`, `setNeedsLayout`, or a change of a compositing property) queues one
/// display pass with `DispatchQueue.main.async`, so every change of that turn lands in the
/// same pass; while a frame callback is outstanding the pass waits for it instead. A pass
/// runs layout (``View/layoutSubviews()`` of marked views), then draws every marked visible
/// layer, then computes the frame's damage (dirty content plus the old and new areas of
/// changed compositing properties, in buffer pixels), repaints the buffer inside the damage,
/// copies what that buffer missed since it was last presented forward from the front
/// buffer, and presents it with the damage. A frame with no damage sends
/// nothing. After each commit the window requests one frame callback; at most one commit
/// happens per callback except for ``flush()``.
///
/// **Input.** ``dispatch(_:)`` hit-tests pointer, scroll and touch events front to back and
/// delivers them along the responder chain (view → superview → window → application);
/// the view that receives a press receives the moves and the release. Keys go to the
/// ``firstResponder``.
///
/// Main-actor isolated. The window owns its surface, root layer and content view, and is
/// the surface's delegate (held weakly by the surface).
@MainActor public final class Window: Responder, SurfaceDelegate {
    /// The surface the window presents to.
    public let surface: any Surface
    /// The root layer: fills the window, paints ``backgroundColor``, holds the content view.
    public let layer: Layer

    /// The view that fills the window.
    public var contentView: View {
        didSet {
            guard contentView !== oldValue else { return }
            oldValue.hostWindow = nil
            viewWillLeave(oldValue)
            oldValue.layer.removeFromSuperlayer()
            install(contentView)
        }
    }

    /// Called after every commit with what it contained.
    public var onCommit: ((CommitReport) -> Void)?
    /// Called when the user asks to close the window.
    public var onClose: (() -> Void)?
    /// The report of the last commit.
    public private(set) var lastCommitReport: CommitReport?
    /// How many commits the window made.
    public private(set) var frameCount = 0
    /// How many times layers in this window were drawn (or displayed by a delegate).
    public private(set) var drawCount = 0
    /// How many display passes ran (including those that committed nothing).
    public private(set) var passCount = 0
    /// Whether each frame's damage is tinted for one frame (default: `DAMASK_DEBUG=damage`).
    public var flashesDamage = environmentFlashesDamage
    /// Damage with more rects than this is sent as its bounding box.
    public var maximumDamageRectCount = 16
    /// The buffer presented last, which holds the frame on screen; a buffer that missed
    /// frames copies those areas forward from it. Stale (or gone) after a resize.
    private weak var frontBuffer: SurfaceBuffer?
    /// The responder that receives key events.
    public private(set) var firstResponder: Responder?
    /// Whether the window has keyboard focus.
    public private(set) var isKeyWindow = false

    // Scheduling.
    private var needsPass = false
    private var isPassQueued = false
    private var isWaitingForFrame = false
    private var isWaitingForBuffer = false
    private var isRunningPass = false
    private var skipsFrameWait = false

    // Damage.
    private var compositingChanged = true
    private var needsFullRepaint = true
    private var pendingDamage = Region()
    private var flashedRegion = Region()
    private var passDrawCount = 0

    // Hooks and links.
    private var afterDisplayHandlers: [@MainActor () -> Void] = []
    private var displayLinks: [DisplayLink] = []

    // Input.
    private var pointerGrab: View?
    private var pressedButtonCount = 0
    private var hoveredView: View?
    private var touchTargets: [Int32: View] = [:]

    /// Creates a window on `surface`, becomes its delegate, and queues the first frame.
    public init(surface: any Surface) {
        self.surface = surface
        self.layer = Layer()
        self.contentView = View()
        super.init()
        layer.hostWindow = self
        layer.backgroundColor = .white
        layer.contentsScale = surface.scale
        applySize()
        install(contentView)
        surface.delegate = self
        Window.register(self)
        setNeedsDisplayPass()
    }

    /// The window's size in points.
    public var size: CGSize { surface.size }
    /// Buffer pixels per point.
    public var scale: CGFloat { surface.scale }
    /// The window's bounds in points.
    public var bounds: CGRect { CGRect(origin: .zero, size: surface.size) }

    /// The title shown by the compositor.
    public var title: String {
        get { surface.title }
        set { surface.title = newValue }
    }

    /// The colour under the content view. Default: white.
    public var backgroundColor: Color {
        get { layer.backgroundColor ?? .clear }
        set { layer.backgroundColor = newValue }
    }

    /// Application.shared: the end of the responder chain.
    public override var next: Responder? { Application.shared }

    private func install(_ view: View) {
        view.removeFromSuperview()
        view.hostWindow = self
        view.frame = bounds
        layer.addSublayer(view.layer)
    }

    private func applySize() {
        layer.bounds = bounds
        layer.position = CGPoint(x: bounds.midX, y: bounds.midY)
    }

    // MARK: Registry

    private static var registry: [WeakWindow] = []

    /// The windows alive now.
    static var openWindows: [Window] {
        registry.removeAll { $0.window == nil }
        return registry.compactMap(\.window)
    }

    private static func register(_ window: Window) {
        registry.removeAll { $0.window == nil }
        registry.append(WeakWindow(window: window))
    }

    private struct WeakWindow {
        weak var window: Window?
    }

    // MARK: Public display API

    /// Repaints the whole window in the next pass (recomposites; draws nothing).
    public func setNeedsDisplay() {
        needsFullRepaint = true
        setNeedsDisplayPass()
    }

    /// Runs pending layout and draws every marked visible view now; the result is
    /// presented by the next pass (or at once by ``flush()``).
    public func displayIfNeeded() {
        contentView.layoutIfNeeded()
        layer.displayTreeIfNeeded()
    }

    /// Runs a full pass now and commits whatever changed, without waiting for the frame
    /// callback.
    public func flush() {
        runPass()
    }

    /// Runs `body` once, right after the next display pass (whether or not it committed).
    /// Replaces `performSelector:withObject:afterDelay:0`.
    public func afterNextDisplay(_ body: @escaping @MainActor () -> Void) {
        afterDisplayHandlers.append(body)
        setNeedsDisplayPass()
    }

    /// Returns the frontmost view at `point` (window points) that accepts events.
    public func hitTest(_ point: CGPoint) -> View? {
        contentView.hitTest(contentView.convert(point, from: nil))
    }

    // MARK: Offscreen rendering

    /// Lays out, draws what is marked, and paints the whole window into `bitmap` at the
    /// window's scale (top-left aligned; the bitmap's size is the caller's choice).
    public func render(to bitmap: Bitmap) {
        displayIfNeeded()
        let context = GraphicsContext(bitmap: bitmap)
        context.clear(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
        context.scaleBy(x: scale, y: scale)
        Compositor.composite(
            layer, in: context, placement: .root(scale: scale), region: nil)
    }

    /// Renders the whole window into a new bitmap of its pixel size.
    public func renderImage() throws -> Bitmap {
        let bitmap = try Bitmap(width: max(1, surface.pixelWidth), height: max(1, surface.pixelHeight))
        render(to: bitmap)
        return bitmap
    }

    // MARK: Notifications from layers and views

    /// A layer was marked for display.
    func layerNeedsDisplay(_ layer: Layer) {
        setNeedsDisplayPass()
    }

    /// A layer's compositing state (placement, opacity, visibility, paint) changed.
    func layerCompositingDidChange(_ layer: Layer) {
        compositingChanged = true
        setNeedsDisplayPass()
    }

    /// A view was marked for layout.
    func viewNeedsLayout() {
        setNeedsDisplayPass()
    }

    /// A subtree joined the window: give it the window's scale.
    func layerDidEnter(_ layer: Layer) {
        applyScale(to: layer)
    }

    /// A subtree is leaving: repaint what it covered and forget its presented state.
    func layerWillLeave(_ layer: Layer) {
        forgetPresentedState(of: layer)
        compositingChanged = true
        setNeedsDisplayPass()
    }

    /// A layer drew; `rect` (layer coordinates) is the area that changed, `nil` when the
    /// change was recorded as an appearance change.
    func layerDidDraw(_ layer: Layer, in rect: CGRect?) {
        drawCount += 1
        passDrawCount += 1
        if let rect {
            addDamage(LayerPlacement.of(layer, scale: scale).footprint(ofContentRect: rect, in: layer))
        }
        setNeedsDisplayPass()
    }

    /// A view subtree is leaving: drop grabs, hover, touches and focus inside it.
    func viewWillLeave(_ view: View) {
        if let grab = pointerGrab, grab.isDescendant(of: view) { pointerGrab = nil }
        if let hovered = hoveredView, hovered.isDescendant(of: view) { hoveredView = nil }
        touchTargets = touchTargets.filter { !$0.value.isDescendant(of: view) }
        if let focused = firstResponder as? View, focused.isDescendant(of: view) {
            firstResponder = nil
        }
    }

    /// Makes `responder` first responder if the current one resigns; returns success.
    func makeFirstResponder(_ responder: Responder?) -> Bool {
        if firstResponder === responder { return true }
        if let current = firstResponder, !current.canResignFirstResponder { return false }
        firstResponder = responder
        return true
    }

    /// Whether an open explicit ``Transaction`` holds back this window's passes (something
    /// in it changed while the transaction was open).
    public var isHeldByTransaction: Bool { Transaction.isHolding(self) }

    /// Kinds of (layer class, delegate class) this window's layers showed not to draw; a
    /// layer of such a kind skips its backing store. Per window, so that every window
    /// discovers it the same way (a process-wide cache made a process's first window count
    /// one draw more than the next).
    var nonDrawingKinds = Set<[ObjectIdentifier]>()

    /// The outermost explicit transaction committed: present what it held back.
    func transactionDidCommit() {
        if needsPass { queuePass() }
    }

    // MARK: Display links

    func add(_ link: DisplayLink) {
        displayLinks.append(link)
        displayLinkDidChangeState()
    }

    func remove(_ link: DisplayLink) {
        displayLinks.removeAll { $0 === link }
    }

    func displayLinkDidChangeState() {
        if hasActiveDisplayLink && !isWaitingForFrame {
            isWaitingForFrame = true
            surface.requestFrame()
        }
    }

    private var hasActiveDisplayLink: Bool { displayLinks.contains { $0.isActive } }

    // MARK: Scheduling

    /// Records that a pass is needed and queues one for the end of this turn, unless one is
    /// queued already or a frame callback will run it.
    private func setNeedsDisplayPass() {
        needsPass = true
        Transaction.hold(self)
        queuePass()
    }

    private func queuePass() {
        guard !isPassQueued, !isWaitingForFrame || skipsFrameWait else { return }
        isPassQueued = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.isPassQueued = false
            guard self.needsPass, !self.isWaitingForFrame || self.skipsFrameWait,
                !self.isHeldByTransaction
            else { return }
            self.runPass()
        }
    }

    // MARK: SurfaceDelegate

    /// Resizes the root layer and content view and repaints everything.
    public func surface(_ surface: any Surface, didResizeTo size: CGSize, scale: CGFloat) {
        frontBuffer = nil
        applySize()
        contentView.frame = bounds
        applyScale(to: layer)
        needsFullRepaint = true
        compositingChanged = true
        skipsFrameWait = true
        setNeedsDisplayPass()
    }

    /// Runs the display links, then the pending pass (if any).
    public func surfaceFrameDidFire(_ surface: any Surface, timestamp: UInt32) {
        isWaitingForFrame = false
        for link in displayLinks where link.isActive {
            link.fire(timestamp: timestamp)
        }
        if needsPass && !isHeldByTransaction {
            runPass()
        }
        displayLinkDidChangeState()
    }

    /// Resumes a pass that found no free buffer.
    public func surfaceBufferDidBecomeAvailable(_ surface: any Surface) {
        guard isWaitingForBuffer else { return }
        isWaitingForBuffer = false
        setNeedsDisplayPass()
    }

    /// Calls ``onClose``.
    public func surfaceDidRequestClose(_ surface: any Surface) {
        onClose?()
    }

    // MARK: The pass

    /// Layout, display, damage, composite, commit.
    private func runPass() {
        guard !isRunningPass else { return }
        isRunningPass = true
        let report = performPass()
        isRunningPass = false
        // Callbacks run outside the pass, so that they may flush or invalidate freely.
        if let report { onCommit?(report) }
        guard !isWaitingForBuffer else { return }
        let handlers = afterDisplayHandlers
        afterDisplayHandlers.removeAll()
        for handler in handlers { handler() }
    }

    /// Runs one pass; returns the report of its commit, if it made one.
    private func performPass() -> CommitReport? {
        let start = Window.threadCPUTime()
        needsPass = false
        passCount += 1

        contentView.layoutIfNeeded()
        layer.displayTreeIfNeeded()

        let bufferRect = CGRect(x: 0, y: 0, width: surface.pixelWidth, height: surface.pixelHeight)
        if compositingChanged {
            compositingChanged = false
            collectCompositingDamage()
        }
        if needsFullRepaint {
            needsFullRepaint = false
            pendingDamage = Region(bufferRect)
        }
        let changes = pendingDamage.intersection(Region(bufferRect))
        let damage = changes.union(flashedRegion.intersection(Region(bufferRect)))
        skipsFrameWait = false
        guard !damage.isEmpty else { return nil }
        guard let buffer = surface.dequeueBuffer() else {
            isWaitingForBuffer = true
            needsPass = true
            return nil
        }
        return commit(damage, changes: changes, into: buffer, bufferRect: bufferRect, start: start)
    }

    /// Repaints `buffer` and presents it. `damage` is what differs from the last presented
    /// frame; `changes` is the part of it caused by the tree (not by removing a flash).
    private func commit(
        _ damage: Region, changes: Region, into buffer: SurfaceBuffer, bufferRect: CGRect,
        start: Double
    ) -> CommitReport {
        pendingDamage = Region()
        var repaint = damage.intersection(Region(bufferRect))
        let missed = buffer.missedDamage.subtracting(repaint).intersection(Region(bufferRect))
        if !missed.isEmpty {
            if let front = frontBuffer, front !== buffer, !front.isStale,
                front.width == buffer.width, front.height == buffer.height
            {
                // The front buffer holds the last presented frame, so what this buffer missed
                // is copied forward rather than composited again: `damask-bench damage`
                // measures the copy 18× cheaper for a 64×64 region and 3.8× for 512×512.
                buffer.bitmap.copyPixels(from: front.bitmap, in: missed)
            } else {
                repaint.formUnion(missed)
            }
        }

        let context = GraphicsContext(bitmap: buffer.bitmap)
        context.clip(to: repaint)
        context.clear(bufferRect)
        context.scaleBy(x: scale, y: scale)
        Compositor.composite(layer, in: context, placement: .root(scale: scale), region: repaint)

        if flashesDamage && !changes.isEmpty {
            tint(changes, in: buffer.bitmap)
            flashedRegion = changes
            needsPass = true
        } else {
            flashedRegion = Region()
        }

        var sent = damage
        if sent.rects.count > maximumDamageRectCount {
            sent = Region(sent.boundingBox)
        }
        isWaitingForFrame = true
        surface.requestFrame()
        surface.present(buffer, damage: sent)
        frontBuffer = buffer
        frameCount += 1

        let report = CommitReport(
            frameNumber: frameCount, bufferWidth: buffer.width, bufferHeight: buffer.height,
            scale: scale, damageRects: sent.rects, repaintedRects: repaint.rects,
            drawCount: passDrawCount, cpuMilliseconds: (Window.threadCPUTime() - start) * 1000)
        passDrawCount = 0
        lastCommitReport = report
        return report
    }

    private func tint(_ region: Region, in bitmap: Bitmap) {
        let context = GraphicsContext(bitmap: bitmap)
        context.clip(to: region)
        context.setFillColor(Color(red: 1, green: 0, blue: 0.6, alpha: 0.3))
        context.fill(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
    }

    /// Compares every layer's placement with what was last composited and adds the old and
    /// new footprints of whatever changed to the pending damage.
    private func collectCompositingDamage() {
        walkCompositing(layer, parent: .root(scale: scale), forced: false)
    }

    private func walkCompositing(_ layer: Layer, parent: LayerPlacement, forced: Bool) {
        let placement = parent.descending(into: layer)
        let state = PresentedLayerState(
            footprint: placement.footprint(of: layer.paintedRect),
            transform: placement.transform, alpha: placement.alpha)
        let forced = forced || layer.subtreeNeedsRepaint
        if let old = layer.presented {
            if forced || layer.appearanceChanged || old != state {
                addDamage(old.footprint)
                addDamage(state.footprint)
            }
        } else {
            addDamage(state.footprint)
        }
        layer.presented = state
        layer.appearanceChanged = false
        layer.subtreeNeedsRepaint = false
        var inner = placement
        inner.clip = placement.sublayerClip(of: layer)
        for sublayer in layer.sublayers {
            walkCompositing(sublayer, parent: inner, forced: forced)
        }
    }

    private func addDamage(_ rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty else { return }
        pendingDamage.formUnion(Region(rect))
    }

    private func forgetPresentedState(of layer: Layer) {
        if let presented = layer.presented { addDamage(presented.footprint) }
        layer.presented = nil
        for sublayer in layer.sublayers { forgetPresentedState(of: sublayer) }
    }

    private func applyScale(to layer: Layer) {
        if layer.contentsScale != scale { layer.contentsScale = scale }
        for sublayer in layer.sublayers { applyScale(to: sublayer) }
    }

    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: Events

    /// Delivers `event`: pointer, scroll and touch events to the view under them (or the
    /// grabbing view), keys to the first responder, focus changes to the window.
    public func dispatch(_ event: Event) {
        switch event {
        case .pointer(let pointer): dispatchPointer(pointer)
        case .scroll(let scroll):
            (hitTest(scroll.location) ?? self).scrollWheel(scroll)
        case .key(let key):
            let target = firstResponder ?? self
            if key.phase == .down { target.keyDown(key) } else { target.keyUp(key) }
        case .touch(let touch): dispatchTouch(touch)
        case .keyboardFocus(let focused):
            isKeyWindow = focused
        }
    }

    private func dispatchPointer(_ event: PointerEvent) {
        switch event.kind {
        case .entered, .moved:
            if let grab = pointerGrab {
                grab.pointerMoved(event)
                return
            }
            let hit = hitTest(event.location)
            updateHover(hit, event)
            (hit ?? self).pointerMoved(event)
        case .exited:
            updateHover(nil, event)
        case .down:
            if pressedButtonCount == 0 { pointerGrab = hitTest(event.location) }
            pressedButtonCount += 1
            (pointerGrab ?? self).pointerDown(event)
        case .up:
            let target: Responder = pointerGrab ?? hitTest(event.location) ?? self
            pressedButtonCount = max(0, pressedButtonCount - 1)
            if pressedButtonCount == 0 { pointerGrab = nil }
            target.pointerUp(event)
            if pointerGrab == nil { updateHover(hitTest(event.location), event) }
        }
    }

    private func updateHover(_ view: View?, _ event: PointerEvent) {
        guard view !== hoveredView else { return }
        let old = hoveredView
        hoveredView = view
        var exited = event
        exited.kind = .exited
        old?.pointerExited(exited)
        var entered = event
        entered.kind = .entered
        view?.pointerEntered(entered)
    }

    private func dispatchTouch(_ event: TouchEvent) {
        switch event.phase {
        case .began:
            let target = hitTest(event.location)
            if let target { touchTargets[event.id] = target }
            (target ?? self).touchesBegan(event)
        case .moved:
            (touchTargets[event.id] ?? self).touchesMoved(event)
        case .ended:
            (touchTargets.removeValue(forKey: event.id) ?? self).touchesEnded(event)
        case .cancelled:
            (touchTargets.removeValue(forKey: event.id) ?? self).touchesCancelled(event)
        }
    }
}
