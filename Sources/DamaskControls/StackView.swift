import DamaskGraphics
import DamaskViews
import Foundation

/// A view that lays its arranged subviews out in a row or a column (UIKit's
/// `UIStackView`), by their ``View/intrinsicContentSize`` (a view with none in a dimension
/// keeps its frame's size there).
///
/// Along the ``axis`` the views follow each other ``spacing`` apart, sized and spread by
/// ``distribution``; across it they are placed by ``alignment``. A hidden arranged view
/// takes no room. Adding or removing a view, or changing a property, lays the stack out
/// again at the next layout pass, as does a control whose intrinsic size changes; after
/// hiding or showing an arranged view, call ``View/setNeedsLayout()`` on the stack (unlike
/// UIKit, which observes `isHidden`).
/// The stack itself does not draw (see ``display(_:)``). Main-actor.
open class StackView: View, AppearanceOverriding {
    /// A row or a column.
    public enum Axis: Sendable, Equatable {
        /// Left to right.
        case horizontal
        /// Top to bottom.
        case vertical
    }

    /// How the arranged views share the length along the axis.
    public enum Distribution: Sendable, Equatable {
        /// Intrinsic lengths; the last view takes what is left over (or gives up what is
        /// missing), as UIKit's `.fill` does with default priorities.
        case fill
        /// Every view the same length.
        case fillEqually
        /// Lengths in proportion to the intrinsic lengths.
        case fillProportionally
        /// Intrinsic lengths, the leftover split equally between the gaps.
        case equalSpacing
        /// Intrinsic lengths, centres spread evenly.
        case equalCentering
    }

    /// Where the arranged views sit across the axis.
    public enum Alignment: Sendable, Equatable {
        /// Stretched to the stack's breadth.
        case fill
        /// Top (in a row) or left (in a column).
        case leading
        /// Centred.
        case center
        /// Bottom (in a row) or right (in a column).
        case trailing
    }

    /// The appearance the arranged views draw in; nil: inherited.
    open var overrideAppearance: Appearance? {
        didSet { if overrideAppearance != oldValue { propagateAppearanceChange() } }
    }

    /// The views laid out, in order (each also a subview).
    public private(set) var arrangedSubviews: [View] = []

    /// A row or a column.
    open var axis = Axis.horizontal { didSet { if axis != oldValue { setNeedsLayout(); invalidateIntrinsicContentSize() } } }
    /// The gap between adjacent views, in points (the least gap for `.equalSpacing`).
    open var spacing: CGFloat = 0 { didSet { if spacing != oldValue { setNeedsLayout(); invalidateIntrinsicContentSize() } } }
    /// How the views share the length.
    open var distribution = Distribution.fill { didSet { if distribution != oldValue { setNeedsLayout() } } }
    /// Where the views sit across the axis.
    open var alignment = Alignment.fill { didSet { if alignment != oldValue { setNeedsLayout() } } }

    /// Creates a stack of `views`.
    public init(frame: CGRect = .zero, arrangedSubviews views: [View] = []) {
        super.init(frame: frame)
        isOpaque = false
        for view in views { addArrangedSubview(view) }
    }

    /// Draws nothing and allocates no backing store: a stack is a nonrendering view, as
    /// UIKit's `UIStackView` is (its `draw(_:)` is not called; its ``View/backgroundColor``
    /// still shows, being composited without a store). Without this, the first stack of
    /// each window got a store of its whole size, cleared, drawn into by the default
    /// `draw`, scanned and freed before the window learned that stacks do not draw (4 MB
    /// for a 1280×800 column).
    open override func display(_ layer: Layer) {}

    /// Appends `view` to the arranged views (and the subviews).
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Inserts `view` at `index` of the arranged views.
    public func insertArrangedSubview(_ view: View, at index: Int) {
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(index, 0), arrangedSubviews.count))
        if view.superview !== self { addSubview(view) }
        setNeedsLayout()
        invalidateIntrinsicContentSize()
    }

    /// Removes `view` from the arranged views; it stays a subview (as in UIKit).
    public func removeArrangedSubview(_ view: View) {
        arrangedSubviews.removeAll { $0 === view }
        setNeedsLayout()
        invalidateIntrinsicContentSize()
    }

    open override func willRemoveSubview(_ subview: View) {
        super.willRemoveSubview(subview)
        if arrangedSubviews.contains(where: { $0 === subview }) {
            arrangedSubviews.removeAll { $0 === subview }
            setNeedsLayout()
        }
    }

    /// A child's intrinsic size changed: lay out again.
    open override func invalidateIntrinsicContentSize() {
        setNeedsLayout()
        super.invalidateIntrinsicContentSize()
    }

    /// The views that take room.
    private var visibleViews: [View] { arrangedSubviews.filter { !$0.isHidden } }

    /// The (length, breadth) a view wants: its intrinsic size, its frame's where it has none.
    private func preferredSize(of view: View) -> (length: CGFloat, breadth: CGFloat) {
        let intrinsic = view.intrinsicContentSize
        let width = intrinsic.width == View.noIntrinsicMetric ? view.frame.width : intrinsic.width
        let height = intrinsic.height == View.noIntrinsicMetric ? view.frame.height : intrinsic.height
        return axis == .horizontal ? (width, height) : (height, width)
    }

    /// The sum of the preferred lengths and gaps, and the largest breadth.
    open override var intrinsicContentSize: CGSize {
        let sizes = visibleViews.map(preferredSize(of:))
        let length = sizes.reduce(0) { $0 + $1.length } + spacing * CGFloat(max(sizes.count - 1, 0))
        let breadth = sizes.map(\.breadth).max() ?? 0
        return axis == .horizontal ? CGSize(width: length, height: breadth) : CGSize(width: breadth, height: length)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    open override func layoutSubviews() {
        let views = visibleViews
        guard !views.isEmpty else { return }
        // Equal lengths stretched across the breadth ask nothing of the views: a column of
        // rows laid out so does not measure every row (and every row every control) again.
        let sizes = distribution == .fillEqually && alignment == .fill
            ? Array(repeating: (length: CGFloat(0), breadth: CGFloat(0)), count: views.count)
            : views.map(preferredSize(of:))
        let available = axis == .horizontal ? bounds.width : bounds.height
        let breadth = axis == .horizontal ? bounds.height : bounds.width
        let count = CGFloat(views.count)
        let gaps = spacing * (count - 1)
        let preferredTotal = sizes.reduce(0) { $0 + $1.length }
        var lengths = sizes.map(\.length)
        var gap = spacing
        var start: CGFloat = 0
        switch distribution {
        case .fill:
            lengths[lengths.count - 1] = max(0, lengths[lengths.count - 1] + available - gaps - preferredTotal)
        case .fillEqually:
            lengths = Array(repeating: max(0, (available - gaps) / count), count: views.count)
        case .fillProportionally:
            let scale = preferredTotal > 0 ? (available - gaps) / preferredTotal : 0
            lengths = sizes.map { max(0, $0.length * scale) }
        case .equalSpacing:
            if views.count > 1 { gap = max(spacing, (available - preferredTotal) / (count - 1)) }
            else { start = 0 }
        case .equalCentering:
            // Centres evenly spaced: the first view's centre at half its length, the last's
            // at the end minus half of its length.
            let first = lengths[0] / 2, last = available - lengths[lengths.count - 1] / 2
            let step = views.count > 1 ? (last - first) / (count - 1) : 0
            for (index, view) in views.enumerated() {
                let centre = first + step * CGFloat(index)
                place(view, at: (centre - lengths[index] / 2).rounded(), length: lengths[index], preferredBreadth: sizes[index].breadth, breadth: breadth)
            }
            return
        }
        var position = start
        for (index, view) in views.enumerated() {
            let origin = position.rounded()
            let end = (position + lengths[index]).rounded()
            place(view, at: origin, length: end - origin, preferredBreadth: sizes[index].breadth, breadth: breadth)
            position += lengths[index] + gap
        }
    }

    /// Sets `view`'s frame: `length` along the axis from `origin`, across by ``alignment``.
    private func place(_ view: View, at origin: CGFloat, length: CGFloat, preferredBreadth: CGFloat, breadth: CGFloat) {
        let across: (CGFloat, CGFloat)  // (origin, size)
        switch alignment {
        case .fill: across = (0, breadth)
        case .leading: across = (0, min(preferredBreadth, breadth))
        case .center: across = (((breadth - min(preferredBreadth, breadth)) / 2).rounded(), min(preferredBreadth, breadth))
        case .trailing: across = (breadth - min(preferredBreadth, breadth), min(preferredBreadth, breadth))
        }
        view.frame = axis == .horizontal
            ? CGRect(x: origin, y: across.0, width: length, height: across.1)
            : CGRect(x: across.0, y: origin, width: across.1, height: length)
    }
}
