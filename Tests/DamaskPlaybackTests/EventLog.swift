import DamaskViews
import Foundation

/// A view at (0, 60, 20, 20) that logs every pointer, scroll and touch event it receives.
final class EventLog: View {
    var pointerEvents: [PointerEvent] = []
    var scrollEvents: [ScrollEvent] = []
    var touchEvents: [TouchEvent] = []

    init() { super.init(frame: CGRect(x: 0, y: 60, width: 20, height: 20)) }

    override func pointerEntered(_ event: PointerEvent) { pointerEvents.append(event) }
    override func pointerMoved(_ event: PointerEvent) { pointerEvents.append(event) }
    override func pointerDown(_ event: PointerEvent) { pointerEvents.append(event) }
    override func pointerUp(_ event: PointerEvent) { pointerEvents.append(event) }
    override func scrollWheel(_ event: ScrollEvent) { scrollEvents.append(event) }
    override func touchesBegan(_ event: TouchEvent) { touchEvents.append(event) }
    override func touchesMoved(_ event: TouchEvent) { touchEvents.append(event) }
    override func touchesEnded(_ event: TouchEvent) { touchEvents.append(event) }
}
