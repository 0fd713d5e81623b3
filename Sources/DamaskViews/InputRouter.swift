/// Delivers a window's input events to views: hit testing, the implicit pointer grab,
/// hover, touch targets and keyboard focus.
///
/// Pointer, scroll and touch events go to the frontmost view under them that accepts
/// events (the view that received a press receives the moves and the release); keys go
/// to the first responder, or to the ``defaultResponder`` while there is none (so a window
/// always has a responder for its shortcuts); whatever a view does not handle travels up
/// the responder chain. The grab cannot outlive the pointer: a leave, a new enter and the
/// loss of keyboard focus forget every held button and tell the grabbing view
/// (``Responder/pointerCancelled(_:)``), so the next press always starts a new grab where
/// it lands, whatever release the compositor kept (a move or resize swallows it). A press that lands outside every focusable view makes the first
/// responder resign, so clicking the background ends editing. Main-actor isolated; owned by its window, which passes itself to each call. The
/// views it remembers are held strongly and dropped when their subtree
/// leaves the window (``viewWillLeave(_:)``).
@MainActor final class InputRouter {
    /// The responder that receives key events.
    private(set) var firstResponder: Responder?
    /// Whether the window has keyboard focus.
    private(set) var isKeyWindow = false
    /// The responder keys go to while there is no first responder (held weakly; ignored
    /// while it is a view outside the window).
    weak var defaultResponder: Responder?
    private var pointerGrab: View?
    private var pressedButtonCount = 0
    private var lastPointerLocation = CGPoint.zero
    private var hoveredView: View?
    private var touchTargets: [Int32: View] = [:]

    /// Delivers `event`, which arrived in `window`.
    func dispatch(_ event: Event, in window: Window) {
        switch event {
        case .pointer(let pointer): dispatchPointer(pointer, in: window)
        case .scroll(let scroll):
            (window.hitTest(scroll.location, with: event) ?? window).scrollWheel(scroll)
        case .key(let key):
            if key.phase == .down, window.handleFocusKey(key) { return }
            let target = firstResponder ?? fallbackResponder(in: window) ?? window
            if key.phase == .down { target.keyDown(key) } else { target.keyUp(key) }
        case .touch(let touch): dispatchTouch(touch, in: window)
        case .keyboardFocus(let focused):
            isKeyWindow = focused
            if !focused {
                cancelPointerGrab(PointerEvent(kind: .exited, location: lastPointerLocation))
                // The input method's activation ends with the keyboard focus: what it said
                // about its text (language, direction) goes.
                (firstResponder as? any TextInput)?.inputMethodDidDeactivate()
            }
        }
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

    /// Forgets every held button; the view that held the grab hears of it.
    private func cancelPointerGrab(_ event: PointerEvent) {
        let grab = pointerGrab
        pointerGrab = nil
        pressedButtonCount = 0
        var cancelled = event
        cancelled.kind = .exited
        cancelled.button = nil
        grab?.pointerCancelled(cancelled)
    }

    /// Whether a button is held (a press went to a view and its release has not come).
    var hasPointerGrab: Bool { pressedButtonCount > 0 }

    private func dispatchPointer(_ event: PointerEvent, in window: Window) {
        lastPointerLocation = event.location
        switch event.kind {
        case .entered:
            // A new enter: whatever was held before belongs to a pointer that left.
            cancelPointerGrab(event)
            let hit = window.hitTest(event.location, with: .pointer(event))
            updateHover(hit, event)
            (hit ?? window).pointerMoved(event)
        case .moved:
            if let grab = pointerGrab {
                grab.pointerMoved(event)
                return
            }
            let hit = window.hitTest(event.location, with: .pointer(event))
            updateHover(hit, event)
            (hit ?? window).pointerMoved(event)
        case .exited:
            cancelPointerGrab(event)
            updateHover(nil, event)
        case .down:
            if pressedButtonCount == 0 {
                pointerGrab = window.hitTest(event.location, with: .pointer(event))
                // A control focused from the keyboard (a button) loses focus to a click,
                // so its ring goes; views that take focus themselves keep their rules.
                if let focused = firstResponder as? View, focused.canBecomeFocused, !focused.canBecomeFirstResponder {
                    firstResponder = nil
                    window.focusDidChange()
                }
                resignUnlessFocusable(pointerGrab)
            }
            pressedButtonCount += 1
            (pointerGrab ?? window).pointerDown(event)
        case .up:
            let target: Responder = pointerGrab ?? window.hitTest(event.location, with: .pointer(event)) ?? window
            pressedButtonCount = max(0, pressedButtonCount - 1)
            if pressedButtonCount == 0 { pointerGrab = nil }
            target.pointerUp(event)
            if pointerGrab == nil { updateHover(window.hitTest(event.location, with: .pointer(event)), event) }
        }
    }

    /// The default responder, when it is the window or a view in it.
    private func fallbackResponder(in window: Window) -> Responder? {
        guard let responder = defaultResponder else { return nil }
        if let view = responder as? View, view.window !== window { return nil }
        return responder
    }

    /// A press on `view`: unless it is (or lies inside) a view that takes focus itself —
    /// other than the default responder, which is usually the root — a first responder that
    /// asks for it (``Responder/resignsOnPressOutside``) resigns (through its own `resignFirstResponder()`, so it can end editing).
    private func resignUnlessFocusable(_ view: View?) {
        guard let current = firstResponder, current !== defaultResponder, current.resignsOnPressOutside else {
            return
        }
        var candidate = view
        while let ancestor = candidate {
            if ancestor === current { return }
            if ancestor !== defaultResponder, ancestor.canBecomeFirstResponder { return }
            candidate = ancestor.superview
        }
        current.resignFirstResponder()
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

    private func dispatchTouch(_ event: TouchEvent, in window: Window) {
        switch event.phase {
        case .began:
            let target = window.hitTest(event.location, with: .touch(event))
            if let target { touchTargets[event.id] = target }
            (target ?? window).touchesBegan(event)
        case .moved:
            (touchTargets[event.id] ?? window).touchesMoved(event)
        case .ended:
            (touchTargets.removeValue(forKey: event.id) ?? window).touchesEnded(event)
        case .cancelled:
            (touchTargets.removeValue(forKey: event.id) ?? window).touchesCancelled(event)
        }
    }
}
