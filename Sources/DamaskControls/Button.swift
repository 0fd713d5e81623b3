import DamaskGraphics
import DamaskViews
import Foundation

/// A push button: a rounded face with a title, an image, or both (UIKit's `UIButton`).
///
/// The face shows the control's state: normal (the accent), hovered (lighter), highlighted
/// (a press held on it: darker), selected (darker, with a ring), disabled (greyed, no
/// input). Title and image may differ per state (``setTitle(_:for:)``,
/// ``setImage(_:for:)``); a state without its own falls back to `.normal`'s. Clicking it,
/// or Space or Return while it has focus, sends ``ControlEvent/primaryActionTriggered``
/// (``action`` runs then, as do the actions added with `addAction` and `addTarget`). Each
/// change of state redraws it once, so it damages exactly its own frame. Main-actor.
open class Button: Control {
    /// The titles set per state.
    private var titles: [ControlState: String] = [:]
    /// The images set per state.
    private var images: [ControlState: Bitmap] = [:]

    /// The font of the title (by default ``defaultTitleFont``).
    open var titleFont = Button.defaultTitleFont {
        didSet { setNeedsDisplay(); invalidateIntrinsicContentSize() }
    }
    /// The font a button's title has unless set: the system font, bold, at 13 points. Made
    /// once and shared (a `Font` is immutable), so that making a button looks no font up.
    public static let defaultTitleFont = Font.system(size: 13, weight: .bold)
    /// The faces buttons fill, shared by every button (see ``ShapePathCache``): buttons of
    /// one size (a row of them in a stack) share theirs.
    static let faces = ShapePathCache(capacity: 32)
    /// The corner radius of the face.
    open var cornerRadius: CGFloat = 6 {
        didSet { if cornerRadius != oldValue { setNeedsDisplay() } }
    }
    /// Space between the edges and the content, and between image and title.
    open var contentInsets = CGSize(width: 14, height: 6) {
        didSet { if contentInsets != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Runs on the primary action (a click, Space or Return); the shorthand for
    /// `addAction(for: .primaryActionTriggered)`.
    open var action: @MainActor () -> Void

    /// Creates a button titled `title` that runs `action`.
    public init(frame: CGRect = .zero, title: String = "", image: Bitmap? = nil, action: @escaping @MainActor () -> Void = {}) {
        self.action = action
        super.init(frame: frame)
        titles[.normal] = title
        if let image { images[.normal] = image }
        isAccessibilityElement = true  // a push button named by its title
        accessibilityTraits = .button
    }

    // MARK: Content

    /// The title for `.normal`: what the button shows unless a state has its own.
    open var title: String {
        get { titles[.normal] ?? "" }
        set { setTitle(newValue, for: .normal) }
    }

    /// Sets the title shown in `state` (nil: fall back to `.normal`'s).
    open func setTitle(_ title: String?, for state: ControlState) {
        guard titles[state] != title else { return }
        titles[state] = title
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
        AccessibilityNotification.propertyChanged(self, .label).post()
    }

    /// The title set for `state`, or nil.
    public func title(for state: ControlState) -> String? { titles[state] }

    /// Sets the image shown in `state` (nil: fall back to `.normal`'s).
    open func setImage(_ image: Bitmap?, for state: ControlState) {
        images[state] = image
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
    }

    /// The image set for `state`, or nil.
    public func image(for state: ControlState) -> Bitmap? { images[state] }

    /// The key of the state whose content shows now: the most specific one set.
    private func contentKey<Value>(in table: [ControlState: Value]) -> Value? {
        let now = state.subtracting([.focused, .hovered])
        for key in [now, now.intersection(.disabled), now.intersection(.highlighted), now.intersection(.selected)]
        where !key.isEmpty {
            if let value = table[key] { return value }
        }
        return table[.normal]
    }

    /// The title shown now.
    public var currentTitle: String { contentKey(in: titles) ?? "" }
    /// The image shown now.
    public var currentImage: Bitmap? { contentKey(in: images) }

    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? (currentTitle.isEmpty ? nil : currentTitle) }
        set { super.accessibilityLabel = newValue }
    }

    /// Runs ``action`` first whenever ``ControlEvent/primaryActionTriggered`` is sent (by a
    /// click, a key, an assistive technology or `sendActions(for:)`).
    open override func sendActions(for events: ControlEvent) {
        if events.contains(.primaryActionTriggered) { action() }
        super.sendActions(for: events)
    }

    // MARK: Sizing

    /// The image's and title's width with the insets, and the taller of the two.
    open override var intrinsicContentSize: CGSize {
        let title = currentTitle
        let titleWidth = title.isEmpty ? 0 : titleFont.measure(title).width.rounded(.up)
        let titleHeight = title.isEmpty ? 0 : (titleFont.ascent + titleFont.descent).rounded(.up)
        let image = currentImage.map { CGSize(width: $0.width, height: $0.height) } ?? .zero
        let gap: CGFloat = titleWidth > 0 && image.width > 0 ? contentInsets.height : 0
        return CGSize(
            width: titleWidth + image.width + gap + 2 * contentInsets.width,
            height: max(titleHeight, image.height) + 2 * contentInsets.height)
    }

    // MARK: Drawing

    /// The face's colour in the current state and appearance.
    public var faceColor: Color {
        let palette = self.palette
        if !isEnabled { return palette.disabledFace }
        if isHighlighted || isSelected { return palette.accentPressed }
        if state.contains(.hovered) { return palette.accentHovered }
        return palette.accent
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let palette = self.palette
        context.setFillColor(faceColor)
        context.fill(Self.faces.roundedRect(bounds, cornerRadius: cornerRadius))
        if isSelected && isEnabled {
            context.setStrokeColor(palette.textOnAccent.withAlphaComponent(0.7))
            context.setLineWidth(2)
            context.stroke(Path(roundedRect: bounds.insetBy(dx: 3, dy: 3), cornerRadius: max(cornerRadius - 3, 0)))
        }
        let title = currentTitle
        let image = currentImage
        let titleWidth = title.isEmpty ? 0 : titleFont.measure(title).width
        let imageWidth = CGFloat(image?.width ?? 0)
        let gap: CGFloat = titleWidth > 0 && imageWidth > 0 ? contentInsets.height : 0
        var x = ((bounds.width - titleWidth - imageWidth - gap) / 2).rounded()
        if let image {
            let height = CGFloat(image.height)
            context.draw(
                image, in: CGRect(x: x, y: ((bounds.height - height) / 2).rounded(), width: imageWidth, height: height),
                alpha: isEnabled ? 1 : 0.5)
            x += imageWidth + gap
        }
        if !title.isEmpty {
            let origin = CGPoint(x: x, y: ((bounds.height + titleFont.ascent - titleFont.descent) / 2).rounded())
            context.draw(title, at: origin, font: titleFont, color: isEnabled ? palette.textOnAccent : palette.disabledText)
        }
    }
}
