import DamaskGraphics
import DamaskViews
import Foundation

/// The base of the controls that act on input (UIKit's `UIControl`): states, press
/// tracking, keyboard activation, target-action and action closures.
///
/// A control is enabled, highlighted (a press on it, the pointer over it), selected,
/// focused (keyboard focus) and hovered (the pointer over it, no press) in any
/// combination (``state``); a change of state calls ``stateDidChange()``, which redraws the
/// control once, and so damages only its frame. A left press is tracked as UIKit tracks a
/// touch: ``ControlEvent/touchDown``, drag exits and enters, then
/// ``ControlEvent/touchUpInside`` (and the control's primary action, through
/// ``primaryActionDidTrigger()``) or ``ControlEvent/touchUpOutside``. A focused control
/// takes Space, Return and keypad Enter as its primary action. A disabled control takes no
/// input and cannot be focused.
///
/// Actions run in the order they were added. A target is held weakly (as in UIKit): an
/// action whose target has gone is skipped and removed. Every control follows
/// ``Appearance/current``: a change redraws it. Main-actor.
open class Control: View, AppearanceFollowing, AppearanceOverriding {
    /// An action registered for some events.
    private struct Registration {
        let events: ControlEvent
        let identifier: ActionIdentifier?
        /// The target of a target-action registration (weak, for ``removeTarget(_:for:)``).
        weak var target: AnyObject?
        /// Whether this is a target-action registration (`target` nil then means it has gone).
        let holdsTarget: Bool
        /// Runs the action; false when its target has gone.
        let perform: @MainActor (Control) -> Bool
    }

    /// Identifies an action added with ``addAction(identifier:for:_:)``, to remove it.
    public struct ActionIdentifier: Hashable, Sendable {
        public let rawValue: String

        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }
    }

    @exclusivity(unchecked) private var registrations: [Registration] = []

    /// Creates a control in `frame`, following ``Appearance/current``.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw  // controls lay their drawing out in their bounds
        AppearanceRegistry.shared.register(self)
    }

    // MARK: States

    /// Whether the control takes input; a disabled control draws dimmed and loses focus.
    @exclusivity(unchecked) open var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            if !isEnabled {
                isTracking = false
                isPointerInside = false
                if isFirstResponder { _ = resignFirstResponder() }
            }
            accessibilityTraits = isEnabled ? accessibilityTraits.subtracting(.notEnabled) : accessibilityTraits.union(.notEnabled)
            stateDidChange()
        }
    }

    /// Whether the control is selected (a toggle that is on).
    open var isSelected = false {
        didSet {
            guard isSelected != oldValue else { return }
            accessibilityTraits = isSelected ? accessibilityTraits.union(.selected) : accessibilityTraits.subtracting(.selected)
            stateDidChange()
        }
    }

    /// Whether a press on the control is held with the pointer over it. Set by tracking;
    /// setting it yourself draws the control pressed.
    open var isHighlighted = false {
        didSet { if isHighlighted != oldValue { stateDidChange() } }
    }

    /// Whether a left press began on the control and has not ended.
    public private(set) var isTracking = false {
        didSet { updateHighlight() }
    }

    /// Whether the pointer is over the control (during a press: by the press's moves).
    public private(set) var isPointerInside = false {
        didSet {
            guard isPointerInside != oldValue else { return }
            updateHighlight()
            if !isTracking { stateDidChange() }  // hover
        }
    }

    /// The states the control is in now.
    public var state: ControlState {
        var state = ControlState.normal
        if !isEnabled { state.insert(.disabled) }
        if isHighlighted { state.insert(.highlighted) }
        if isSelected { state.insert(.selected) }
        if isFocused { state.insert(.focused) }
        if isPointerInside && !isTracking && isEnabled { state.insert(.hovered) }
        return state
    }

    /// Called when ``state`` changes (and when the appearance does). Default: redraws the
    /// whole control once.
    open func stateDidChange() {
        setNeedsDisplay()
    }

    /// Redraws the control in the new appearance (``stateDidChange()``).
    open func appearanceDidChange() {
        stateDidChange()
    }

    private func updateHighlight() {
        isHighlighted = isTracking && isPointerInside
    }

    /// The colours to draw with now (the ``View/effectiveAppearance``'s palette).
    public var palette: Palette { effectiveAppearance.palette }

    /// The appearance this control and its subviews draw in; nil: inherited.
    @exclusivity(unchecked) open var overrideAppearance: Appearance? {
        didSet { if overrideAppearance != oldValue { propagateAppearanceChange() } }
    }

    // MARK: Target-action

    /// Runs `handler` with the control when one of `events` happens.
    public func addAction(
        identifier: ActionIdentifier? = nil, for events: ControlEvent,
        _ handler: @escaping @MainActor (Control) -> Void
    ) {
        registrations.append(Registration(events: events, identifier: identifier, target: nil, holdsTarget: false) { control in
            handler(control)
            return true
        })
    }

    /// Calls `action` on `target` (held weakly) with the control when one of `events`
    /// happens: `button.addTarget(self, action: Editor.save, for: .primaryActionTriggered)`.
    public func addTarget<Target: AnyObject>(
        _ target: Target, action: @escaping @MainActor (Target) -> (Control) -> Void, for events: ControlEvent
    ) {
        registrations.append(Registration(events: events, identifier: nil, target: target, holdsTarget: true) { [weak target] control in
            guard let target else { return false }
            action(target)(control)
            return true
        })
    }

    /// Removes the target-actions `target` registered for any of `events`; with a nil
    /// `target`, every action for those events (closures too), as UIKit does.
    public func removeTarget(_ target: AnyObject?, for events: ControlEvent) {
        registrations.removeAll { registration in
            guard !registration.events.isDisjoint(with: events) else { return false }
            guard let target else { return true }
            return registration.target === target
        }
    }

    /// Removes the action added with `identifier` for any of `events`.
    public func removeAction(identifiedBy identifier: ActionIdentifier, for events: ControlEvent) {
        registrations.removeAll { $0.identifier == identifier && !$0.events.isDisjoint(with: events) }
    }

    /// The events some action is registered for.
    public var allControlEvents: ControlEvent {
        registrations.reduce(into: ControlEvent()) { $0.formUnion($1.events) }
    }

    /// Runs the actions registered for any of `events`, in the order they were added.
    /// Subclasses with an action of their own (``Button/action``) override it and call super.
    ///
    /// The actions run are those registered when the call starts: an action may add or
    /// remove registrations (its own included) without changing who else is called this
    /// time. Target-actions whose target has gone are dropped afterwards, found by their
    /// target rather than by position, since the actions may have moved them.
    open func sendActions(for events: ControlEvent) {
        let matching = registrations.filter { !$0.events.isDisjoint(with: events) }
        var someTargetHasGone = false
        for registration in matching where !registration.perform(self) {
            someTargetHasGone = true
        }
        if someTargetHasGone {
            registrations.removeAll { $0.holdsTarget && $0.target == nil }
        }
    }

    /// The control's main action happened (a click, Space or Return): sends
    /// ``ControlEvent/primaryActionTriggered``. Subclasses that change a value first (a
    /// switch flips) override it and call super.
    open func primaryActionDidTrigger() {
        sendActions(for: .primaryActionTriggered)
    }

    // MARK: Input

    open override func pointerEntered(_ event: PointerEvent) {
        guard isEnabled else { return }
        isPointerInside = true
    }

    open override func pointerExited(_ event: PointerEvent) {
        guard isEnabled else { return }
        isPointerInside = false
    }

    open override func pointerMoved(_ event: PointerEvent) {
        guard isEnabled else { return }
        // While a press is held the window sends the moves here even outside the control
        // (the implicit grab) and no enter or exit: follow the location instead.
        let inside = bounds.contains(event.location(in: self))
        if isTracking && inside != isPointerInside {
            isPointerInside = inside
            sendActions(for: inside ? .touchDragEnter : .touchDragExit)
        } else {
            isPointerInside = inside
        }
        if isTracking { continueTracking(event) }
    }

    open override func pointerDown(_ event: PointerEvent) {
        guard isEnabled, event.button == .left else { return }
        isPointerInside = bounds.contains(event.location(in: self))
        isTracking = true
        sendActions(for: .touchDown)
        beginTracking(event)
    }

    open override func pointerUp(_ event: PointerEvent) {
        guard event.button == .left, isTracking else { return }
        let inside = bounds.contains(event.location(in: self))
        isPointerInside = inside
        isTracking = false
        endTracking(event)
        sendActions(for: inside ? .touchUpInside : .touchUpOutside)
        if inside && triggersPrimaryActionOnClick { primaryActionDidTrigger() }
    }

    open override func pointerCancelled(_ event: PointerEvent) {
        // The release went elsewhere (the pointer left, the compositor took it): no action.
        guard isTracking else { return }
        isTracking = false
        sendActions(for: .touchCancel)
    }

    /// Whether a click (a press released inside) is the primary action. Default: true;
    /// a slider, whose presses drag, says false.
    open var triggersPrimaryActionOnClick: Bool { true }

    /// A tracked press began (after ``ControlEvent/touchDown``). Default: nothing.
    open func beginTracking(_ event: PointerEvent) {}

    /// A tracked press moved. Default: nothing.
    open func continueTracking(_ event: PointerEvent) {}

    /// A tracked press ended (before ``ControlEvent/touchUpInside``). Default: nothing.
    open func endTracking(_ event: PointerEvent) {}

    /// Tab reaches every enabled control.
    open override var canBecomeFocused: Bool { isEnabled }

    open override func becomeFirstResponder() -> Bool {
        let became = super.becomeFirstResponder()
        if became { stateDidChange() }
        return became
    }

    open override func resignFirstResponder() -> Bool {
        let resigned = super.resignFirstResponder()
        if resigned { stateDidChange() }
        return resigned
    }

    /// Space, Return and keypad Enter trigger the focused control's primary action.
    open override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        guard isEnabled, event.modifiers.intersection(commandKeys).isEmpty else { return super.keyDown(event) }
        switch event.keysym {
        case 0x20, 0xFF0D, 0xFF8D:  // space, Return, KP_Enter
            if !event.isRepeat { primaryActionDidTrigger() }
        default:
            super.keyDown(event)
        }
    }

    /// An assistive technology's press: the primary action.
    open override func accessibilityActivate() -> Bool {
        guard isEnabled else { return false }
        primaryActionDidTrigger()
        return true
    }
}
