/// The end of every responder chain: events nobody handled arrive here and stop.
///
/// Main-actor isolated; there is one, ``shared``.
@MainActor public final class Application: Responder {
    /// The application object.
    public static let shared = Application()

    /// How many events reached the end of the chain unhandled (for diagnostics and tests).
    public private(set) var unhandledEventCount = 0

    private override init() { super.init() }

    /// Nothing follows the application.
    public override var next: Responder? { nil }

    /// Counts the unhandled event and drops it.
    public override func pointerDown(_ event: PointerEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func pointerUp(_ event: PointerEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func pointerMoved(_ event: PointerEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func pointerEntered(_ event: PointerEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func pointerExited(_ event: PointerEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func scrollWheel(_ event: ScrollEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func keyDown(_ event: KeyEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func keyUp(_ event: KeyEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func touchesBegan(_ event: TouchEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func touchesMoved(_ event: TouchEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func touchesEnded(_ event: TouchEvent) { unhandledEventCount += 1 }
    /// Counts the unhandled event and drops it.
    public override func touchesCancelled(_ event: TouchEvent) { unhandledEventCount += 1 }
}
