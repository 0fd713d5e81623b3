import DamaskGraphics
import Dispatch
import Foundation

/// Whether `DAMASK_DEBUG` (comma-separated) contains `damage`; read once per process.
private let environmentFlashesDamage: Bool = {
    guard let value = ProcessInfo.processInfo.environment["DAMASK_DEBUG"] else { return false }
    return value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "damage" }
}()

/// The root of a view hierarchy, bound to a ``Surface``: a small façade over the parts
/// that run the display cycle and dispatch input.
///
/// **Display cycle.** A ``FrameScheduler`` decides when a pass runs: the first
/// invalidation in a turn of the main loop (a `setNeedsDisplay`, `setNeedsLayout`, or a
/// change of a compositing property) queues one pass for the end of the turn, so every
/// change of that turn lands in the same pass; while a frame callback is outstanding the
/// pass waits for it instead. A pass runs layout (``View/layoutSubviews()`` of marked
/// views, visiting only the paths to them), then draws every marked visible layer (again
/// along marked paths only), then the ``DamageCollector`` computes the frame's damage (dirty
/// content plus the old and new areas of changed compositing properties, in buffer
/// pixels), and the ``Presenter`` repaints the buffer inside the damage, copies forward
/// what that buffer missed, and presents it with the damage and a frame-callback request.
/// A frame with no damage sends nothing. Drawing inside a pass never causes another pass:
/// one drawing frame is one pass.
///
/// **Input.** ``dispatch(_:)`` hands events to the ``InputRouter``: pointer, scroll and
/// touch events are hit-tested front to back and delivered along the responder chain
/// (view → superview → window → application); the view that receives a press receives the
/// moves and the release. Keys go to the ``firstResponder``.
///
/// Main-actor isolated. The window owns its surface, root layer, content view and its
/// parts, and is the surface's delegate (not retained by the surface, which it clears when
/// it is freed).
@MainActor public final class Window: Responder, SurfaceDelegate, FrameSchedulerDelegate, LayerHost {
    /// The surface the window presents to.
    public let surface: any Surface
    /// The root layer: fills the window, paints ``backgroundColor``, holds the content view.
    public let layer: Layer

    /// The view that fills the window.
    @exclusivity(unchecked) public var contentView: View {
        didSet {
            guard contentView !== oldValue else { return }
            oldValue.hostWindow = nil
            viewWillLeave(oldValue)
            oldValue.layer.removeFromSuperlayer()
            install(contentView)
        }
    }

    /// Called after every commit with what it contained.
    @exclusivity(unchecked) public var onCommit: ((CommitReport) -> Void)?
    /// Whether commit reports carry the pass's CPU time (``CommitReport/cpuMilliseconds``).
    /// The thread's CPU clock is two system calls a pass, read only when this is true and
    /// ``onCommit`` is set; a listener that shows the figure only sometimes turns it off in
    /// between (the demo's statistics overlay, hidden).
    @exclusivity(unchecked) public var measuresCommitCPUTime = true
    /// Called when the user asks to close the window.
    public var onClose: (() -> Void)?
    /// The report of the last commit.
    @exclusivity(unchecked) public private(set) var lastCommitReport: CommitReport?
    /// How many commits the window made.
    public var frameCount: Int { presenter.frameCount }
    /// How many times layers in this window were drawn (or displayed by a delegate).
    @exclusivity(unchecked) public private(set) var drawCount = 0
    /// The counters of this window's work (visits, paints, backing-store bytes…).
    public let statistics = WindowStatistics()
    /// Which kinds of layer this window's layers showed not to draw.
    let drawingClassifier = DrawingClassifier()
    /// How many times layers in this window moved their retained pixels instead of drawing
    /// (``Layer/scrollContents(dx:dy:)``).
    public private(set) var contentsMoveCount = 0
    /// How many display passes ran (including those that committed nothing).
    public var passCount: Int { scheduler.passCount }
    /// Whether each frame's damage is tinted for one frame (default: `DAMASK_DEBUG=damage`).
    public var flashesDamage: Bool {
        get { presenter.flashesDamage }
        set { presenter.flashesDamage = newValue }
    }
    /// Damage with more rects than this is sent coalesced to at most this many (the
    /// greedy least-area merge of ``Region/coalesced(toAtMost:)``; default 16).
    public var maximumDamageRectCount: Int {
        get { presenter.maximumDamageRectCount }
        set { presenter.maximumDamageRectCount = newValue }
    }
    /// The responder that receives key events.
    public var firstResponder: Responder? { input.firstResponder }
    /// How many updates a compositor's input method has applied to this window's text
    /// responders (see ``inputMethodDidApplyUpdate()``): what a script player waits on after
    /// handing an `ime` command to a real input method.
    public internal(set) var appliedInputMethodUpdateCount = 0
    /// Whether the window has keyboard focus.
    public var isKeyWindow: Bool { input.isKeyWindow }
    /// Whether a pointer button is held on a view (the implicit grab is on).
    var hasPointerGrab: Bool { input.hasPointerGrab }
    /// The responder that receives keys whenever no first responder holds them — normally
    /// the root view that routes the window's shortcuts — so that a field resigning (Escape,
    /// a click on the background) hands the keys back to it. Held weakly; `nil` (the
    /// default) sends such keys to the window itself.
    public var defaultFirstResponder: Responder? {
        get { input.defaultResponder }
        set { input.defaultResponder = newValue }
    }

    /// When the display cycle runs.
    let scheduler: FrameScheduler
    /// What the next frame repaints.
    let damage = DamageCollector()
    /// Paints and presents frames.
    private let presenter: Presenter
    /// Routes input to views.
    private let input = InputRouter()
    /// The mark around the focused view (Window+Focus.swift).
    let focusRing = FocusRing()
    /// The view keyboard focus was on last, where Tab continues after focus left it (an
    /// Escape out of a text field); held weakly.
    weak var focusAnchor: View?

    /// Which step of a pass is running; changes made during layout and display are
    /// consumed by the same pass.
    private enum PassPhase {
        case none, layout, display, presenting
    }
    private var phase = PassPhase.none
    /// The draws the next commit reports (see ``PassDraws``).
    @exclusivity(unchecked) private var passDraws = PassDraws()
    @exclusivity(unchecked) private var afterDisplayHandlers: [@MainActor () -> Void] = []

    /// Creates a window on `surface`, becomes its delegate, and queues the first frame.
    public init(surface: any Surface) {
        self.surface = surface
        self.layer = Layer()
        self.contentView = View()
        self.scheduler = FrameScheduler(surface: surface)
        self.presenter = Presenter(surface: surface, flashesDamage: environmentFlashesDamage, statistics: statistics)
        super.init()
        scheduler.delegate = self
        layer.hostWindow = self
        layer.backgroundColor = .white
        layer.contentsScale = surface.scale
        applySize()
        install(contentView)
        surface.delegate = self
        WindowRegistry.register(self)
        scheduler.setNeedsPass()
    }

    /// Clears every uncounted pointer to this window (its tree, timers, display links,
    /// surface and scheduler may outlive it): nothing holds a window weakly, so it has no
    /// side table (docs/performance.md, "Back-pointers, not weak").
    isolated deinit {
        contentView.hostWindow = nil
        layer.hostWindow = nil  // and the host of every layer under it
        scheduler.windowDidDeinit()
        if surface.delegate === self { surface.delegate = nil }
        WindowRegistry.unregister(self)
        Transaction.windowDidDeinit(self)
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

    /// The windows alive now.
    static var openWindows: [Window] { WindowRegistry.openWindows }

    // MARK: Public display API

    /// Repaints the whole window in the next pass (recomposites; draws nothing).
    public func setNeedsDisplay() {
        damage.needsFullRepaint = true
        scheduler.setNeedsPass()
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
        scheduler.runPassNow()
    }

    /// Runs `body` once, right after the next display pass (whether or not it committed).
    /// Replaces `performSelector:withObject:afterDelay:0`.
    public func afterNextDisplay(_ body: @escaping @MainActor () -> Void) {
        afterDisplayHandlers.append(body)
        scheduler.setNeedsPass()
    }

    /// Returns the frontmost view at `point` (window points) that accepts events;
    /// `event` is the event being delivered (`nil` when asking outside delivery).
    public func hitTest(_ point: CGPoint, with event: Event? = nil) -> View? {
        contentView.hitTest(contentView.convert(point, from: nil), with: event)
    }

    // MARK: Notifications from layers and views

    /// Whether a change reported now is consumed by the running pass's later steps.
    private var passConsumesChanges: Bool { phase == .layout || phase == .display }

    /// A layer was marked for display.
    func layerNeedsDisplay(_ layer: Layer) {
        if passConsumesChanges { return }
        scheduler.setNeedsPass()
    }

    /// A layer's compositing state (placement, opacity, visibility, paint) changed.
    func layerCompositingDidChange(_ layer: Layer) {
        damage.compositingChanged = true
        opaqueAreaIsStale = true
        if passConsumesChanges { return }
        scheduler.setNeedsPass()
    }

    /// A view was marked for layout.
    func viewNeedsLayout() {
        if phase == .layout { return }
        scheduler.setNeedsPass()
    }

    /// A subtree joined the window: give it the window's scale, and run its animations.
    func layerDidEnter(_ layer: Layer) {
        applyScale(to: layer)
        startAnimations(in: layer)
    }

    /// The window's animation driver, created (and ticked) on first use.
    var animationDriver: AnimationDriver {
        if let driver = existingAnimationDriver { return driver }
        let driver = AnimationDriver(window: self)
        existingAnimationDriver = driver
        scheduler.add(driver)
        return driver
    }

    /// The animation driver, if an animation ever ran in this window.
    private(set) var existingAnimationDriver: AnimationDriver?

    private func startAnimations(in layer: Layer) {
        if !layer.runningAnimations.isEmpty { animationDriver.layerDidAddAnimation(layer) }
        for sublayer in layer.sublayers { startAnimations(in: sublayer) }
    }

    /// A subtree is leaving: repaint what it covered and forget its presented state.
    func layerWillLeave(_ layer: Layer) {
        damage.forgetPresentedState(of: layer)
        damage.compositingChanged = true
        opaqueAreaIsStale = true
        scheduler.setNeedsPass()
    }

    /// A layer moved the pixels of its backing store (``Layer/scrollContents(dx:dy:)``):
    /// `rect` (layer coordinates) changed on screen, but nothing was drawn, so no draw is
    /// counted.
    func layerDidMoveContents(_ layer: Layer, in rect: CGRect) {
        contentsMoveCount += 1
        damage.add(currentPlacement(of: layer).footprint(ofContentRect: rect, in: layer))
        if passConsumesChanges { return }
        scheduler.setNeedsPass()
    }

    /// A layer drew: count the draws, and damage what they changed (a whole-contents change
    /// is damaged by the compositing walk as an appearance change). Separate redrawn rects
    /// are damaged each on its own, not their bounding box.
    func layer(_ layer: Layer, didDisplay result: LayerDisplayResult) {
        switch result {
        case .nothing:
            return
        case .replacedContents:
            recordDraw(of: layer)
        case let .redrew(rect):
            recordDraw(of: layer)
            damage.add(currentPlacement(of: layer).footprint(ofContentRect: rect, in: layer))
        case let .redrewPieces(rects):
            recordDraw(of: layer)
            let placement = currentPlacement(of: layer)
            for rect in rects { damage.add(placement.footprint(ofContentRect: rect, in: layer)) }
        case let .redrewTiles(rects):
            for rect in rects {
                recordDraw(of: layer)
                damage.add(currentPlacement(of: layer).footprint(ofContentRect: rect, in: layer))
            }
        }
        if passConsumesChanges { return }
        scheduler.setNeedsPass()
    }

    /// Counts a draw of `layer` in the window and in the next commit's report.
    private func recordDraw(of layer: Layer) {
        drawCount += 1
        passDraws.record(layer)
    }

    /// `layer`'s placement now: with no compositing change since the last damage walk, the
    /// placement it stored is current (no walk up the tree).
    private func currentPlacement(of layer: Layer) -> LayerPlacement {
        if !damage.compositingChanged, let presented = layer.renderRecord.placement { return presented }
        return LayerPlacement.of(layer, scale: scale)
    }

    /// Something ``OpaqueArea`` reads changed without a compositing change: a redraw made
    /// a layer's contents translucent, or an animation stopped presenting values equal to
    /// the model's. The opaque region is searched again in the next pass.
    func layerOpaqueAreaMayHaveChanged() {
        opaqueAreaIsStale = true
    }

    /// Whether the opaque region told to the surface may be out of date: set by every
    /// compositing change, cleared when the pass searches it again (``OpaqueArea`` walks up
    /// to 64 layers; a pass that only redraws contents that stay opaque skips it).
    private var opaqueAreaIsStale = true

    /// A tiled layer drew a tile that compositing needed: counted as a draw; no damage,
    /// since the tile's area is being painted.
    func layerDidDrawWhileCompositing(_ layer: Layer) {
        drawCount += 1
    }

    /// A view subtree is leaving: drop grabs, hover, touches and focus inside it.
    func viewWillLeave(_ view: View) {
        let hadFocus = firstResponder != nil
        input.viewWillLeave(view)
        if hadFocus && firstResponder == nil { focusDidChange() }
    }

    /// Makes `responder` first responder if the current one resigns; returns success.
    func makeFirstResponder(_ responder: Responder?) -> Bool {
        let previous = input.firstResponder
        let changed = input.makeFirstResponder(responder)
        if changed, previous !== responder, let previous = previous as? any TextInput {
            previous.inputMethodDidDeactivate()  // what its input method said held while it had focus
        }
        focusDidChange()
        if changed, previous !== responder, AccessibilityCenter.isObserved {  // accessibility focus follows
            AccessibilityNotification.focusChanged(window: self, focus: responder as? any Accessible).post()
        }
        return changed
    }

    /// Whether an open explicit ``Transaction`` holds back this window's passes (something
    /// in it changed while the transaction was open).
    public var isHeldByTransaction: Bool { Transaction.isHolding(self) }

    /// The outermost explicit transaction committed: present what it held back.
    func transactionDidCommit() {
        scheduler.transactionDidCommit()
    }

    // MARK: SurfaceDelegate

    /// Resizes the root layer and content view and repaints everything.
    public func surface(_ surface: any Surface, didResizeTo size: CGSize, scale: CGFloat) {
        presenter.surfaceDidResize()
        applySize()
        contentView.frame = bounds
        applyScale(to: layer)
        damage.needsFullRepaint = true
        damage.compositingChanged = true
        opaqueAreaIsStale = true
        scheduler.surfaceDidResize()
    }

    /// Runs the display links, then the pending pass (if any).
    public func surfaceFrameDidFire(_ surface: any Surface, timestamp: UInt32) {
        scheduler.frameDidFire(timestamp: timestamp)
    }

    /// Resumes a pass that found no free buffer.
    public func surfaceBufferDidBecomeAvailable(_ surface: any Surface) {
        scheduler.bufferDidBecomeAvailable()
    }

    /// Calls ``onClose``.
    public func surfaceDidRequestClose(_ surface: any Surface) {
        onClose?()
    }

    // MARK: The pass

    /// How many times a pass repeats layout or display because the step itself marked
    /// something it had already visited, before leaving it to the next pass.
    private static let maximumRepeats = 3

    /// A change was recorded: an open transaction holds this window's passes back.
    func schedulerDidRecordChange() {
        Transaction.hold(self)
    }

    /// Layout, display, damage, composite, commit (asking for a frame callback when
    /// `requestingFrame`).
    func schedulerPerformPass(requestingFrame: Bool) -> FrameScheduler.PassOutcome {
        assert(phase == .none, "display passes do not nest (the scheduler runs one at a time)")
        // A system call: only for a listener that wants the figure.
        let start = onCommit != nil && measuresCommitCPUTime ? Presenter.threadCPUTime() : nil
        defer { phase = .none }

        phase = .layout
        for _ in 0..<Self.maximumRepeats where contentView.needsLayoutWalk {
            contentView.layoutIfNeeded()
        }
        // The focused view may have moved with the layout: the ring follows.
        if focusRing.target != nil { focusRing.update(in: self) }
        phase = .display
        for _ in 0..<Self.maximumRepeats where layer.needsDisplayWalk {
            layer.displayTreeIfNeeded()
        }
        phase = .presenting
        if contentView.needsLayoutWalk || layer.needsDisplayWalk {
            scheduler.setNeedsPass()  // marked what it had visited more than `maximumRepeats` times
        }

        damage.collect(root: layer, scale: scale)
        let bufferRect = CGRect(x: 0, y: 0, width: surface.pixelWidth, height: surface.pixelHeight)
        let (changes, frameDamage) = damage.takeFrameDamage(in: bufferRect)
        guard !frameDamage.isEmpty else {
            passDraws.passPresentedNothing()  // drew only what shows nowhere: not the next commit's
            return .nothingToPresent
        }
        // Before dequeueing: a surface opaque everywhere may switch to buffers without alpha.
        // The surface keeps the last region, so it is told only when it may have changed.
        if opaqueAreaIsStale {
            opaqueAreaIsStale = false
            surface.setOpaqueRegion(OpaqueArea.region(of: layer, in: bounds))
        }
        guard let buffer = surface.dequeueBuffer() else {
            passDraws.passWaitsForBuffer()  // its draws are the retry's
            return .noFreeBuffer
        }
        damage.clear()
        let draws = passDraws.takeForCommit()
        let (flashed, report) = presenter.present(
            frameDamage, changes: changes, into: buffer, root: layer, scale: scale,
            drawnLayer: draws.onlyLayer, drawCount: draws.count, requestingFrame: requestingFrame,
            startCPUTime: start)
        damage.flashed = flashed
        if !flashed.isEmpty { scheduler.setNeedsPass() }  // remove the tint next frame
        lastCommitReport = report
        return .committed
    }

    /// Reports the commit and runs the after-display handlers (unless the pass waits for
    /// a buffer).
    func schedulerPassDidFinish(_ outcome: FrameScheduler.PassOutcome) {
        if outcome == .committed, let report = lastCommitReport { onCommit?(report) }
        guard outcome != .noFreeBuffer else { return }
        let handlers = afterDisplayHandlers
        afterDisplayHandlers.removeAll()
        for handler in handlers { handler() }
    }

    private func applyScale(to layer: Layer) {
        if layer.contentsScale != scale { layer.contentsScale = scale }
        for sublayer in layer.sublayers { applyScale(to: sublayer) }
    }

    // MARK: Events

    /// Delivers `event`: pointer, scroll and touch events to the view under them (or the
    /// grabbing view), keys to the first responder, focus changes to the window.
    public func dispatch(_ event: Event) {
        input.dispatch(event, in: self)
    }
}
