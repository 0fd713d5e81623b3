/// Delivers a window's input events to views: hit testing, the implicit pointer grab,
/// hover, touch targets and keyboard focus.
///
/// Pointer, scroll and touch events go to the frontmost view under them that accepts
/// events (the view that received a press receives the moves and the release); keys go
/// to the first responder; whatever a view does not handle travels up the responder
/// chain. Main-actor isolated; owned by its window, which passes itself to each call. The
/// views it remembers are held strongly and dropped when their subtree
/// leaves the window (``viewWillLeave(_:)``).
@MainActor final class InputRouter {
    /// The responder that receives key events.
    private(set) var firstResponder: Responder?
    /// Whether the window has keyboard focus.
    private(set) var isKeyWindow = false
    private var pointerGrab: View?
    private var pressedButtonCount = 0
    private var hoveredView: View?
    private var touchTargets: [Int32: View] = [:]

    /// Delivers `event`, which arrived in `window`.
    func dispatch(_ event: Event, in window: Window) {
        switch event {
        case .pointer(let pointer): dispatchPointer(pointer, in: window)
        case .scroll(let scroll):
            (window.hitTest(scroll.location, with: event) ?? window).scrollWheel(scroll)
        case .key(let key):
            let target = firstResponder ?? window
            if key.phase == .down { target.keyDown(key) } else { target.keyUp(key) }
        case .touch(let touch): dispatchTouch(touch, in: window)
        case .keyboardFocus(let focused):
            isKeyWindow = focused
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

    private func dispatchPointer(_ event: PointerEvent, in window: Window) {
        switch event.kind {
        case .entered, .moved:
            if let grab = pointerGrab {
                grab.pointerMoved(event)
                return
            }
            let hit = window.hitTest(event.location, with: .pointer(event))
            updateHover(hit, event)
            (hit ?? window).pointerMoved(event)
        case .exited:
            updateHover(nil, event)
        case .down:
            if pressedButtonCount == 0 { pointerGrab = window.hitTest(event.location, with: .pointer(event)) }
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
