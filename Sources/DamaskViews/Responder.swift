/// An object that can receive events and pass them up the responder chain.
///
/// The chain runs view → superview → … → window → ``Application/shared``. Every handler's
/// default implementation forwards the event to ``next``, so a subclass overrides only
/// the events it consumes (and calls `super` to pass one on). Main-actor isolated.
@MainActor open class Responder {
    /// Creates a responder.
    public init() {}

    /// The next responder in the chain, or `nil` at its end.
    open var next: Responder? { nil }

    // MARK: Pointer

    /// A button went down over this responder. Default: forwards to ``next``.
    open func pointerDown(_ event: PointerEvent) { next?.pointerDown(event) }
    /// A button went up; delivered to the responder that received the press (implicit grab).
    open func pointerUp(_ event: PointerEvent) { next?.pointerUp(event) }
    /// The window forgot a press this responder holds (the implicit grab) without its
    /// release: the pointer left the window, a new enter came, the window lost keyboard
    /// focus or the compositor took the pointer for a move or resize. A view that tracks a
    /// press drops it here and does not act as for a release. Default: forwards to ``next``.
    open func pointerCancelled(_ event: PointerEvent) { next?.pointerCancelled(event) }
    /// The pointer moved over this responder, or while it holds the implicit grab.
    open func pointerMoved(_ event: PointerEvent) { next?.pointerMoved(event) }
    /// The pointer started hovering this responder.
    open func pointerEntered(_ event: PointerEvent) { next?.pointerEntered(event) }
    /// The pointer stopped hovering this responder.
    open func pointerExited(_ event: PointerEvent) { next?.pointerExited(event) }
    /// The wheel or touchpad scrolled over this responder.
    open func scrollWheel(_ event: ScrollEvent) { next?.scrollWheel(event) }

    // MARK: Keyboard

    /// A key went down while this responder was first responder (or on the chain above it).
    open func keyDown(_ event: KeyEvent) { next?.keyDown(event) }
    /// A key went up.
    open func keyUp(_ event: KeyEvent) { next?.keyUp(event) }

    // MARK: Touch

    /// A touch began on this responder.
    open func touchesBegan(_ event: TouchEvent) { next?.touchesBegan(event) }
    /// A touch that began on this responder moved.
    open func touchesMoved(_ event: TouchEvent) { next?.touchesMoved(event) }
    /// A touch that began on this responder ended.
    open func touchesEnded(_ event: TouchEvent) { next?.touchesEnded(event) }
    /// A touch that began on this responder was cancelled.
    open func touchesCancelled(_ event: TouchEvent) { next?.touchesCancelled(event) }

    // MARK: First responder

    /// Whether this responder accepts keyboard focus. Default: `false`.
    open var canBecomeFirstResponder: Bool { false }

    /// Whether this responder may give up keyboard focus. Default: `true`.
    open var canResignFirstResponder: Bool { true }

    /// Whether a press outside every view that takes focus makes this first responder resign.
    ///
    /// Default: `false`, as in UIKit: focus stays where code put it, so a click on a button
    /// does not take keys away from the view that receives them. A text field that ends
    /// editing when the user clicks elsewhere, as desktop fields do, returns `true`.
    open var resignsOnPressOutside: Bool { false }

    /// The window whose first responder this object can become (a view's window).
    var responderWindow: Window? { nil }

    /// Whether this responder is its window's first responder.
    public var isFirstResponder: Bool { responderWindow?.firstResponder === self }

    /// Asks to become the first responder of its window; returns whether it did.
    ///
    /// Fails when ``canBecomeFirstResponder`` is `false`, when the responder is in no
    /// window, or when the current first responder refuses to resign.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder, let window = responderWindow else { return false }
        return window.makeFirstResponder(self)
    }

    /// Gives up keyboard focus; returns whether it did (or was not first responder).
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard let window = responderWindow, window.firstResponder === self else { return true }
        guard canResignFirstResponder else { return false }
        return window.makeFirstResponder(nil)
    }
}
