import DamaskGraphics
import DamaskViews
import Foundation

/// A view that shows a larger content area through its bounds and scrolls it with the
/// wheel, the touchpad and the keyboard (UIKit's `UIScrollView`).
///
/// As in UIKit, the scroll position is the bounds origin: ``contentOffset`` is
/// `bounds.origin`, and subviews are placed in content coordinates. Scrolling moves what
/// is already drawn: subviews are composited at their new places without drawing again,
/// and a subclass that draws its content itself moves its retained pixels with
/// ``View/scrollContents(dx:dy:)`` and draws only the uncovered strip (``TextView`` does).
///
/// Input: a wheel scrolls ``lineScrollDistance`` points per detent, in fractions of a
/// detent for a high-resolution wheel (`axis_value120`, ``ScrollEvent/steps120Y``); a
/// touchpad scrolls by its distances and, when the fingers lift
/// (``ScrollEvent/endsGesture``), keeps moving with kinetic deceleration
/// (``decelerationRate`` per millisecond) until it stops or reaches an edge. Scroll
/// indicators show where the visible part lies while the content is larger than the view.
/// Main-actor isolated, as every view.
///
/// Colours follow the appearance (``Appearance``, an ``AppearanceView`` around it): the
/// indicators take the palette's ``Palette/scrollIndicator`` unless ``indicatorColor`` is set.
open class ScrollView: View, AppearanceFollowing {
    /// Distances from each edge of the view to the content (UIKit's `UIEdgeInsets`).
    public struct Insets: Sendable, Equatable {
        /// The inset at the top.
        public var top: CGFloat
        /// The inset at the left.
        public var left: CGFloat
        /// The inset at the bottom.
        public var bottom: CGFloat
        /// The inset at the right.
        public var right: CGFloat

        /// No inset.
        public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)

        /// Creates insets.
        public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
        }
    }

    /// Receives the scroll view's changes of position (UIKit's `UIScrollViewDelegate`).
    @MainActor public protocol Delegate: AnyObject {
        /// The content offset changed.
        func scrollViewDidScroll(_ scrollView: ScrollView)
    }

    /// Told of every change of ``contentOffset`` (weak).
    public weak var delegate: (any Delegate)?

    /// The size of the content in points.
    open var contentSize: CGSize = .zero {
        didSet {
            guard contentSize != oldValue else { return }
            setNeedsLayout()
        }
    }

    /// Extra space around the content: the content can scroll this far past each edge.
    open var contentInset: Insets = .zero {
        didSet { if contentInset != oldValue { setNeedsLayout() } }
    }

    /// The point of the content shown at the view's top-left corner (the bounds origin).
    /// Setting it does not clamp (as in UIKit); scrolling by input stays within
    /// ``minimumContentOffset`` … ``maximumContentOffset``.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set {
            let old = bounds.origin
            guard newValue != old else { return }
            bounds.origin = newValue
            contentOffsetDidChange(from: old)
            delegate?.scrollViewDidScroll(self)
        }
    }

    /// The smallest content offset scrolling reaches: minus the top and left insets.
    public var minimumContentOffset: CGPoint {
        CGPoint(x: -contentInset.left, y: -contentInset.top)
    }

    /// The largest content offset scrolling reaches: the content's end (plus the bottom
    /// and right insets) at the view's far edge, never less than ``minimumContentOffset``.
    public var maximumContentOffset: CGPoint {
        let minimum = minimumContentOffset
        return CGPoint(
            x: max(minimum.x, contentSize.width + contentInset.right - bounds.width),
            y: max(minimum.y, contentSize.height + contentInset.bottom - bounds.height))
    }

    /// Points scrolled per wheel detent (120 high-resolution steps).
    open var lineScrollDistance: CGFloat = 40

    /// How much of the kinetic velocity remains after each millisecond (UIKit's
    /// `UIScrollView.DecelerationRate.normal`, 0.998).
    open var decelerationRate: CGFloat = 0.998

    /// Whether the vertical indicator shows while the content is taller than the view.
    open var showsVerticalScrollIndicator = true {
        didSet { setNeedsLayout() }
    }
    /// Whether the horizontal indicator shows while the content is wider than the view.
    open var showsHorizontalScrollIndicator = true {
        didSet { setNeedsLayout() }
    }

    /// The colour of the scroll indicators; nil (the default): the appearance's
    /// ``Palette/scrollIndicator``.
    open var indicatorColor: Color? {
        didSet { updateIndicatorColor() }
    }

    /// Whether a kinetic scroll is running.
    public var isDecelerating: Bool { kineticLink != nil }

    /// The kinetic velocity in points per second (zero when not decelerating).
    public private(set) var velocity: CGPoint = .zero

    /// The vertical scroll indicator (a subview, hidden while the content fits).
    public let verticalIndicator = ScrollIndicatorView()
    /// The horizontal scroll indicator (a subview, hidden while the content fits).
    public let horizontalIndicator = ScrollIndicatorView()

    /// The indicators' thickness and distance from the edge, in points.
    static let indicatorThickness: CGFloat = 4
    static let indicatorMargin: CGFloat = 2

    /// Below this speed (points per second) a kinetic scroll stops.
    static let minimumKineticSpeed: CGFloat = 10

    /// The per-frame link of a running kinetic scroll (nil when none runs). Owned here;
    /// invalidated when the scroll stops, the view leaves its window or input arrives.
    private var kineticLink: DisplayLink?
    /// Recent finger-scroll samples (time in ms, distance), for the release velocity.
    private var fingerSamples: [(time: UInt32, delta: CGPoint)] = []

    /// Creates a scroll view.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        verticalIndicator.isHidden = true
        horizontalIndicator.isHidden = true
        drawnAppearance = effectiveAppearance
        updateIndicatorColor()
        AppearanceRegistry.shared.register(self)
        addSubview(verticalIndicator)
        addSubview(horizontalIndicator)
    }

    // MARK: Appearance

    /// Follows a new appearance: the indicators' colour (subclasses redraw their content,
    /// calling `super`).
    open func appearanceDidChange() {
        drawnAppearance = effectiveAppearance
        updateIndicatorColor()
    }

    /// The appearance the colours were last taken from.
    private var drawnAppearance: Appearance?

    private func updateIndicatorColor() {
        let color = indicatorColor ?? effectiveAppearance.palette.scrollIndicator
        verticalIndicator.color = color
        horizontalIndicator.color = color
    }

    // MARK: Scrolling

    /// Scrolls to `offset`; with `animated`, over a quarter second.
    public func setContentOffset(_ offset: CGPoint, animated: Bool) {
        stopDecelerating()
        guard animated else {
            contentOffset = offset
            return
        }
        View.animate(withDuration: 0.25) { self.contentOffset = offset }
    }

    /// Scrolls the least distance that makes `rect` (content coordinates) visible; a rect
    /// larger than the view shows its top-left part. Does nothing when it is visible.
    public func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        var offset = contentOffset
        let visible = bounds
        if rect.width > visible.width || rect.minX < visible.minX {
            offset.x = rect.minX
        } else if rect.maxX > visible.maxX {
            offset.x = rect.maxX - visible.width
        }
        if rect.height > visible.height || rect.minY < visible.minY {
            offset.y = rect.minY
        } else if rect.maxY > visible.maxY {
            offset.y = rect.maxY - visible.height
        }
        let target = clamped(offset)
        guard target != contentOffset else { return }
        setContentOffset(target, animated: animated)
    }

    /// Scrolls by `delta` points, within the scrollable range; returns whether it moved.
    @discardableResult
    public func scroll(by delta: CGPoint) -> Bool {
        let target = clamped(CGPoint(x: contentOffset.x + delta.x, y: contentOffset.y + delta.y))
        guard target != contentOffset else { return false }
        contentOffset = target
        return true
    }

    /// `offset` limited to ``minimumContentOffset`` … ``maximumContentOffset``.
    public func clamped(_ offset: CGPoint) -> CGPoint {
        let low = minimumContentOffset, high = maximumContentOffset
        return CGPoint(x: min(max(offset.x, low.x), high.x), y: min(max(offset.y, low.y), high.y))
    }

    /// Stops a kinetic scroll where it is.
    public func stopDecelerating() {
        kineticLink?.invalidate()
        kineticLink = nil
        velocity = .zero
    }

    /// Called after ``contentOffset`` changed from `oldOffset`: moves the indicators.
    /// Subclasses that draw their content override it (calling `super`) to move their
    /// pixels or lay out rows.
    open func contentOffsetDidChange(from oldOffset: CGPoint) {
        layoutIndicators()
    }

    // MARK: Input

    open override func scrollWheel(_ event: ScrollEvent) {
        var delta: CGPoint
        switch event.source {
        case .wheel, .wheelTilt:
            delta = wheelDistance(event)
        case .finger, .continuous:
            delta = CGPoint(x: event.deltaX, y: event.deltaY)
        case .unknown:
            delta = event.steps120X != 0 || event.steps120Y != 0
                ? wheelDistance(event) : CGPoint(x: event.deltaX, y: event.deltaY)
        }
        if event.modifiers.contains(.shift), delta.x == 0 { delta = CGPoint(x: delta.y, y: 0) }
        let kinetic = event.source == .finger
        if kinetic {
            if !event.endsGesture || delta != .zero { stopDecelerating() }
            if delta != .zero { recordFingerSample(delta, at: event.timestamp) }
        } else {
            stopDecelerating()
        }
        let moved = scroll(by: delta)
        if kinetic, event.endsGesture {
            startDeceleration(releasedAt: event.timestamp)
        } else if !moved, delta != .zero, !kinetic {
            super.scrollWheel(event)  // at the edge: an enclosing scroll view may move
        }
    }

    /// The distance of a wheel event: its high-resolution steps at
    /// ``lineScrollDistance`` per detent.
    private func wheelDistance(_ event: ScrollEvent) -> CGPoint {
        CGPoint(
            x: CGFloat(event.steps120X) / 120 * lineScrollDistance,
            y: CGFloat(event.steps120Y) / 120 * lineScrollDistance)
    }

    private func recordFingerSample(_ delta: CGPoint, at time: UInt32) {
        fingerSamples.append((time, delta))
        // Keep the last 100 ms of the gesture.
        fingerSamples.removeAll { time &- $0.time > 100 }
    }

    /// Starts a kinetic scroll with the velocity of the last 100 ms of finger movement.
    private func startDeceleration(releasedAt time: UInt32) {
        let samples = fingerSamples.filter { time &- $0.time <= 100 }
        fingerSamples.removeAll()
        guard let first = samples.first, let window else { return }
        let span = max(CGFloat(time &- first.time), 8)  // ms; one 120 Hz frame at least
        let sum = samples.reduce(CGPoint.zero) { CGPoint(x: $0.x + $1.delta.x, y: $0.y + $1.delta.y) }
        let start = CGPoint(x: sum.x / span * 1000, y: sum.y / span * 1000)
        guard hypot(start.x, start.y) >= Self.minimumKineticSpeed else { return }
        velocity = start
        var last: TimeInterval?
        kineticLink = DisplayLink(window: window) { [weak self] link in
            guard let self else {
                link.invalidate()
                return
            }
            let elapsed = last.map { link.timestamp - $0 } ?? link.duration
            last = link.timestamp
            self.decelerationStep(milliseconds: CGFloat(max(elapsed, 0)) * 1000)
        }
    }

    /// Advances a kinetic scroll by `milliseconds`: moves by the velocity, then slows it
    /// by ``decelerationRate`` per millisecond; stops at an edge or below the minimum
    /// speed.
    func decelerationStep(milliseconds: CGFloat) {
        let moved = scroll(by: CGPoint(x: velocity.x * milliseconds / 1000, y: velocity.y * milliseconds / 1000))
        let factor = pow(decelerationRate, milliseconds)
        velocity = CGPoint(x: velocity.x * factor, y: velocity.y * factor)
        if !moved || hypot(velocity.x, velocity.y) < Self.minimumKineticSpeed { stopDecelerating() }
    }

    open override func didMoveToWindow() {
        super.didMoveToWindow()
        if window == nil { stopDecelerating() }
        // Moved under another appearance (into an AppearanceView): its colours.
        if window != nil, effectiveAppearance != drawnAppearance { appearanceDidChange() }
    }

    // MARK: Layout

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutIndicators()
    }

    /// Places the indicators for the current offset and sizes (compositing only: they
    /// draw once per size).
    public func layoutIndicators() {
        let size = bounds.size
        let thickness = Self.indicatorThickness, margin = Self.indicatorMargin
        let origin = contentOffset
        let verticalRange = contentSize.height + contentInset.top + contentInset.bottom
        let showsVertical = showsVerticalScrollIndicator && verticalRange > size.height && size.height > 0
        verticalIndicator.isHidden = !showsVertical
        if showsVertical {
            let track = size.height - 2 * margin
            let length = max(track * size.height / verticalRange, 2 * thickness)
            let span = maximumContentOffset.y - minimumContentOffset.y
            let progress = span > 0 ? (origin.y - minimumContentOffset.y) / span : 0
            let y = (margin + (track - length) * min(max(progress, 0), 1)).rounded()
            verticalIndicator.frame = CGRect(
                x: origin.x + size.width - margin - thickness, y: origin.y + y,
                width: thickness, height: length.rounded())
        }
        let horizontalRange = contentSize.width + contentInset.left + contentInset.right
        let showsHorizontal = showsHorizontalScrollIndicator && horizontalRange > size.width && size.width > 0
        horizontalIndicator.isHidden = !showsHorizontal
        if showsHorizontal {
            let track = size.width - 2 * margin - (showsVertical ? thickness + margin : 0)
            let length = max(track * size.width / horizontalRange, 2 * thickness)
            let span = maximumContentOffset.x - minimumContentOffset.x
            let progress = span > 0 ? (origin.x - minimumContentOffset.x) / span : 0
            let x = (margin + (track - length) * min(max(progress, 0), 1)).rounded()
            horizontalIndicator.frame = CGRect(
                x: origin.x + x, y: origin.y + size.height - margin - thickness,
                width: length.rounded(), height: thickness)
        }
        // On top of the content; a reinsertion only when a later subview covers them.
        if subviews.count >= 2, subviews[subviews.count - 2] !== verticalIndicator
            || subviews[subviews.count - 1] !== horizontalIndicator
        {
            bringSubviewToFront(verticalIndicator)
            bringSubviewToFront(horizontalIndicator)
        }
    }
}
