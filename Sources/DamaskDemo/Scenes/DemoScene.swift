import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// One page of the demo: a title, a one-paragraph explanation, and the views that show one
/// part of the drawing model.
///
/// The scene itself does not draw (it has no backing store: rule 8); its header is two
/// labels and its background colour is painted by the compositor. Subclasses add their
/// views in `init` and may start and stop animations in ``sceneDidAppear()`` and
/// ``sceneWillDisappear()``.
///
/// A scene clips its views to its own area (scaled or rotated views never cover the
/// sidebar), and its labels are never wider than the scene minus the right margin (narrower
/// labels wrap or end in "…" instead of running past the window's edge; a label made with
/// zero width is the subclass's to lay out). Subclasses that
/// lay out call `super.layoutSubviews()` first. Main-actor.
class DemoScene: View {
    /// The name used by `--scene`, the `scene` script command and screenshot files.
    let name: String
    /// The row title in the sidebar.
    let sidebarTitle: String
    /// How the demo runs.
    let environment: DemoEnvironment
    /// The top of the area below the header, in scene points.
    let contentTop: CGFloat = 112

    private let titleLabel: Label
    private let summaryLabel: Label
    /// The scene's background follows the appearance while this is held.
    private var appearanceObservation: AppearanceObservation?

    /// Creates a scene named `name`, listed as `sidebarTitle`, with a header showing
    /// `title` and `summary`.
    init(name: String, sidebarTitle: String, title: String, summary: String, environment: DemoEnvironment) {
        self.name = name
        self.sidebarTitle = sidebarTitle
        self.environment = environment
        let width: CGFloat = 560
        titleLabel = Label.scene(
            frame: CGRect(x: DemoStyle.margin, y: 20, width: width, height: 30), text: title,
            font: DemoStyle.titleFont)
        summaryLabel = Label.scene(
            frame: CGRect(x: DemoStyle.margin, y: 56, width: width, height: 48), text: summary,
            role: .secondaryText)
        super.init(frame: .zero)
        backgroundColor = DemoStyle.windowBackground
        appearanceObservation = Appearance.observe { [weak self] _ in self?.appearanceDidChange() }
        clipsToBounds = true
        addSubview(titleLabel)
        addSubview(summaryLabel)
        titleLabel.accessibilityTraits.insert(.header)  // a landmark named by its title
        accessibilityContainerType = .landmark
        accessibilityLabel = title
    }

    override func layoutSubviews() {
        for case let label as Label in subviews where label.preferredMaxLayoutWidth > 0 {
            let width = max(0, min(label.preferredMaxLayoutWidth, bounds.width - DemoStyle.margin - label.frame.minX))
            if label.frame.width != width { label.frame.size.width = width }
        }
        layoutButtonRow()
    }

    /// The buttons of the row at ``contentTop`` with the frames the scene gave them, left
    /// to right; found at the first layout.
    private var buttonRow: [(button: Button, frame: CGRect)]?

    /// Fits the row of buttons at ``contentTop`` into the scene's width: as the scene made
    /// it when it fits; else narrower buttons (never narrower than their titles) with
    /// narrower gaps; else wrapped onto more rows, 38 points apart. A narrow window never cuts
    /// a button off.
    private func layoutButtonRow() {
        if buttonRow == nil {
            buttonRow = subviews.compactMap { view -> (button: Button, frame: CGRect)? in
                guard let button = view as? Button, button.frame.minY == contentTop else { return nil }
                return (button, button.frame)
            }.sorted { $0.frame.minX < $1.frame.minX }
        }
        guard let row = buttonRow, let first = row.first, let last = row.last else { return }
        let right = bounds.width - DemoStyle.margin
        let gaps = zip(row, row.dropFirst()).map { $1.frame.minX - $0.frame.maxX }
        // Squeezed, the gaps narrow to 6 points and the titles keep 6 points each side.
        let gap = min(gaps.min() ?? 6, 6)
        var frames = row.map(\.frame)
        if last.frame.maxX > right {
            let available = right - first.frame.minX - gap * CGFloat(row.count - 1)
            let minimum = row.map { $0.button.titleFont.measure($0.button.title).width.rounded(.up) + 12 }
            let natural = row.map(\.frame.width)
            let factor = available / natural.reduce(0, +)
            let widths = zip(natural, minimum).map { max($0 * factor, $1).rounded(.down) }
            var x = first.frame.minX
            var y = contentTop
            let fitsOneRow = widths.reduce(0, +) <= available
            for index in frames.indices {
                let width = fitsOneRow ? widths[index] : minimum[index]
                if !fitsOneRow, x > first.frame.minX, x + width > right {
                    x = first.frame.minX
                    y += 38
                }
                frames[index] = CGRect(x: x, y: y, width: width, height: first.frame.height)
                x += width + gap
            }
        }
        for (entry, frame) in zip(row, frames) where entry.button.frame != frame {
            entry.button.frame = frame
        }
    }

    /// The scene's animation: a display link held only while the animation runs.
    private var animationLink: DisplayLink?

    /// Starts the scene's animation (``animationFrame(_:)`` once per frame) or stops it
    /// (then ``animationDidStop()``).
    func toggleAnimation() {
        if let link = animationLink {
            link.invalidate()
            animationLink = nil
            animationDidStop()
        } else if let window {
            animationLink = DisplayLink(window: window) { [weak self] _, timestamp in
                self?.animationFrame(timestamp)
            }
        }
    }

    /// One frame of the animation, with the frame's timestamp in milliseconds. Default: nothing.
    func animationFrame(_ timestamp: UInt32) {}

    /// The animation stopped; forget per-run state. Default: nothing.
    func animationDidStop() {}

    /// The scene became the visible one. Default: nothing.
    func sceneDidAppear() {}

    /// The scene is about to be replaced; a running animation stops. Subclasses that
    /// override it call `super`.
    func sceneWillDisappear() {
        if animationLink != nil { toggleAnimation() }
    }

    /// The appearance changed (the controls redraw by themselves). Default: the scene's
    /// background follows; subclasses that override it call `super`.
    func appearanceDidChange() {
        backgroundColor = DemoStyle.windowBackground
    }

    /// Handles a key the window's global shortcuts did not take; returns whether it did.
    /// Default: takes none.
    func handleKey(_ event: KeyEvent) -> Bool { false }
}
