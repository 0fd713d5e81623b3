import Foundation

/// Keyboard focus: which views the key-view loop visits and in which order.
extension View {
    /// `views` in reading order: by rows (top edges), then left to right (leading edges).
    /// Hidden and fully transparent views are left out.
    public static func readingOrder(_ views: [View]) -> [View] {
        views.filter { !$0.isHidden && $0.alpha >= 0.01 }.enumerated().sorted { a, b in
            let (first, second) = (a.element.frame, b.element.frame)
            if first.minY != second.minY { return first.minY < second.minY }
            if first.minX != second.minX { return first.minX < second.minX }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The views in this subtree that the key-view loop stops at, in loop order: a
    /// depth-first walk of ``focusOrderedSubviews`` (a focusable view comes before its
    /// own focusable subviews).
    public var keyViewLoop: [View] {
        var result: [View] = []
        collectKeyViews(into: &result)
        return result
    }

    private func collectKeyViews(into result: inout [View]) {
        guard !isHidden, alpha >= 0.01, isUserInteractionEnabled else { return }
        if canBecomeFocused { result.append(self) }
        for subview in focusOrderedSubviews { subview.collectKeyViews(into: &result) }
    }

    /// Whether this view has the window's keyboard focus (it is the first responder and a
    /// member of the key-view loop).
    public var isFocused: Bool { canBecomeFocused && isFirstResponder }
}
