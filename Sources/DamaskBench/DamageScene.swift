import DamaskGraphics
import DamaskViews
import Foundation

/// A window like an application's: a tiled document canvas under a toolbar with a progress
/// bar, a text caret and a small moving box, on a ``BenchSurface``.
///
/// The damage and latency suites change one thing at a time and measure the commits.
/// Main-actor isolated; owns its window and surface.
@MainActor final class DamageScene {
    /// The surface the window presents to.
    let surface: BenchSurface
    /// The window.
    let window: Window
    /// The document canvas (draws; full window size).
    let canvas = TiledCanvasView()
    /// The progress bar in the toolbar.
    let progress = ProgressBarView(frame: CGRect(x: 20, y: 12, width: 320, height: 16))
    /// A text caret (a compositing-only view: background colour, no drawing).
    let caret = View(frame: CGRect(x: 400, y: 10, width: 2, height: 20))
    /// A 64×64 box that moves.
    let box = SwatchView(frame: CGRect(x: 40, y: 200, width: 64, height: 64))
    /// The size the scene was built at, in points.
    let initialSize: CGSize
    /// The last commit's report.
    private(set) var lastReport: CommitReport?

    /// Builds the scene at `width`×`height` points and commits its first frame.
    init(width: Int, height: Int) {
        initialSize = CGSize(width: width, height: height)
        surface = BenchSurface(size: initialSize)
        window = Window(surface: surface)
        let content = window.contentView
        content.backgroundColor = Color(red: 0.96, green: 0.96, blue: 0.97, alpha: 1)
        canvas.frame = CGRect(x: 0, y: 40, width: width, height: max(1, height - 40))
        content.addSubview(canvas)
        let toolbar = View(frame: CGRect(x: 0, y: 0, width: width, height: 40))
        toolbar.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.92, alpha: 1)
        content.addSubview(toolbar)
        toolbar.addSubview(progress)
        caret.backgroundColor = .black
        toolbar.addSubview(caret)
        content.addSubview(box)
        window.onCommit = { [unowned self] report in self.lastReport = report }
        frame {}
    }

    /// Applies `change`, runs the pass at once, lets the frame callback fire, and returns
    /// the commit's report (`nil` when nothing was committed).
    @discardableResult
    func frame(_ change: () -> Void) -> CommitReport? {
        lastReport = nil
        change()
        window.flush()
        surface.fireFrame()
        return lastReport
    }
}
