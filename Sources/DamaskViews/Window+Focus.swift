import Foundation

/// The key-view loop: Tab and Shift+Tab move keyboard focus through the views that can
/// become focused (``View/canBecomeFocused``), in the order ``View/keyViewLoop`` gives for
/// the content view (reading order unless a container orders its children).
///
/// The focused view is the first responder, so it receives the keys first and passes on
/// what it does not use: a focused button takes Space and Return, the rest (the window's
/// shortcuts) travels up the responder chain. Tab is the window's: it never reaches a view.
/// Focus that leaves the loop (Escape in a text field, a click) is remembered, and the
/// next Tab continues after the view that had it. The focused view wears a ring
/// (``FocusRing``) drawn as its own damage.
extension Window {
    /// The view with keyboard focus: the first responder, when it is in the key-view loop.
    public var focusedView: View? {
        guard let view = firstResponder as? View, view.canBecomeFocused, view.window === self else { return nil }
        return view
    }

    /// Gives keyboard focus to `view` (which should be in the key-view loop), or takes it
    /// away (`nil`); returns whether focus is there now.
    ///
    /// The current first responder resigns first (a text field ends editing); a view that
    /// can become first responder itself is asked to (``Responder/becomeFirstResponder()``),
    /// any other focusable view is made first responder by the window.
    @discardableResult
    public func focus(_ view: View?) -> Bool {
        if let current = firstResponder, current !== view {
            guard current.resignFirstResponder() else { return false }
        }
        guard let view else { return true }
        guard view.window === self, view.canBecomeFocused else { return false }
        if view.canBecomeFirstResponder { return view.becomeFirstResponder() }
        return makeFirstResponder(view)
    }

    /// Moves focus to the next view of the key-view loop (after the last one: the first).
    public func focusNextKeyView() { moveFocus(backward: false) }

    /// Moves focus to the previous view of the key-view loop (before the first: the last).
    public func focusPreviousKeyView() { moveFocus(backward: true) }

    /// Handles Tab (next) and Shift+Tab or ISO_Left_Tab (previous) without Ctrl, Alt or
    /// the logo key; returns whether `event` was such a key.
    func handleFocusKey(_ event: KeyEvent) -> Bool {
        guard event.modifiers.intersection([.control, .alt, .logo]).isEmpty else { return false }
        switch event.keysym {
        case 0xFF09: moveFocus(backward: event.modifiers.contains(.shift))  // Tab
        case 0xFE20: moveFocus(backward: true)  // ISO_Left_Tab (Shift+Tab)
        default: return false
        }
        return true
    }

    private func moveFocus(backward: Bool) {
        let loop = contentView.keyViewLoop
        guard !loop.isEmpty else { return }
        let current = focusedView ?? focusAnchor.flatMap { $0.window === self ? $0 : nil }
        let next: View
        if let current, let index = loop.firstIndex(where: { $0 === current }) {
            next = loop[(index + (backward ? loop.count - 1 : 1)) % loop.count]
        } else {
            next = backward ? loop[loop.count - 1] : loop[0]
        }
        focus(next)
    }

    /// The first responder changed: remember where focus is, move the ring.
    func focusDidChange() {
        if let view = focusedView { focusAnchor = view }
        focusRing.update(in: self)
        surface.textInputStateDidChange()
    }

    /// A ``TextInput`` responder's text, caret, scroll or content type changed: the surface
    /// tells an input method (a text-input protocol's surrounding text and cursor
    /// rectangle). Cheap when no input method listens.
    public func textInputDidChange() {
        surface.textInputStateDidChange()
    }

    /// A text-input protocol applied an input method's update to this window's first
    /// responder: counts it (``appliedInputMethodUpdateCount``).
    public func inputMethodDidApplyUpdate() {
        appliedInputMethodUpdateCount += 1
    }
}
