import DamaskGraphics
import DamaskViews
import Foundation

/// A display pass over 1,000 views: ten of them dirty versus none; the cost of one changed
/// view as the tree grows from 10 to 10,000 views; a pass with nothing changed; and how
/// many passes a drawing frame takes.
@MainActor struct ViewsSuite {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    /// Runs the case.
    func run() {
        let columns = 40, rows = 25
        let surface = BenchSurface(size: CGSize(width: columns * 30, height: rows * 24))
        let window = Window(surface: surface)
        var swatches: [SwatchView] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let swatch = SwatchView(frame: CGRect(x: column * 30, y: row * 24, width: 30, height: 24))
                window.contentView.addSubview(swatch)
                swatches.append(swatch)
            }
        }
        window.flush()
        var next = 0
        let tenDirty = {
            for _ in 0..<10 {
                swatches[next % swatches.count].advance()
                next += 37
            }
            window.flush()
            surface.fireFrame()
        }
        let noneDirty = {
            window.flush()
            surface.fireFrame()
        }
        let result = sampler.compare(tenDirty, against: noneDirty)
        report.add(
            Figure(
                suite: "views", name: "pass over 1000 views, 10 dirty", metric: "time", unit: "µs",
                value: result.subject.scaled(by: 1e-3), baseline: "same pass, none dirty",
                baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio,
                note: "layout + draw + damage + composite + present"))
        let commits = surface.presentCount
        noneDirty()
        report.add(
            Figure(
                suite: "views", name: "pass over 1000 views, none dirty", metric: "commits", unit: "count",
                value: Statistics(exactly: Double(surface.presentCount - commits)),
                note: "a pass with nothing dirty must send nothing"))
        runCurve()
        countPassesPerDrawingFrame()
    }

    /// A 1920×1080 window filled row by row with `count` 16×10 views (120 to a row, all
    /// children of the content view: the widest tree for the walks and the compositor).
    private func makeGrid(_ count: Int) -> (BenchSurface, Window, [SwatchView]) {
        let surface = BenchSurface(size: CGSize(width: 1920, height: 1080))
        let window = Window(surface: surface)
        var views: [SwatchView] = []
        for index in 0..<count {
            let view = SwatchView(
                frame: CGRect(x: (index % 120) * 16, y: (index / 120) * 10, width: 16, height: 10))
            window.contentView.addSubview(view)
            views.append(view)
        }
        window.flush()
        surface.fireFrame()
        return (surface, window, views)
    }

    /// One 16×10 view changes among 10, 100, 1,000 and 10,000: the work must follow the
    /// change, not the tree.
    private func runCurve() {
        var changes: [Int: () -> Void] = [:]
        var grids: [(BenchSurface, Window, [SwatchView])] = []
        for count in [10, 100, 1000, 10_000] {
            let grid = makeGrid(count)
            grids.append(grid)
            let (surface, window, views) = grid
            let changing = views[count / 2]
            let change = {
                changing.advance()
                window.flush()
                surface.fireFrame()
            }
            changes[count] = change
            let time = sampler.measure(change)
            report.add(
                Figure(
                    suite: "views", name: "one 16x10 view of \(count) changes (1920x1080)", metric: "time",
                    unit: "µs", value: time.scaled(by: 1e-3),
                    note: "draw + damage + composite + present, one frame"))
        }
        if let large = changes[10_000], let small = changes[10] {
            let result = sampler.compare(large, against: small)
            report.add(
                Figure(
                    suite: "views", name: "one changed view: 10,000 views vs 10", metric: "time", unit: "µs",
                    value: result.subject.scaled(by: 1e-3), baseline: "same change among 10 views",
                    baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio))
            report.check(
                Target(
                    statement: "one changed view among 10,000 ≤ 2× the same among 10",
                    measured: result.ratio.median, limit: 2, unit: "×"))
        }
        if let (surface, window, _) = grids.last {
            let idle = sampler.measure {
                window.flush()
                surface.fireFrame()
            }
            report.add(
                Figure(
                    suite: "views", name: "pass with nothing changed, 10,000 views", metric: "time", unit: "µs",
                    value: idle.scaled(by: 1e-3), note: "a forced pass (flush); unforced, none runs"))
            report.check(
                Target(
                    statement: "a pass with nothing changed at 10,000 views ≤ 5 µs",
                    measured: idle.median / 1e3, limit: 5, unit: "µs"))
        }
        withExtendedLifetime(grids) {}
    }

    /// Drives 100 drawing frames through the real main-queue scheduling (a change, the
    /// turn ends, the frame callback) and counts the passes they took.
    private func countPassesPerDrawingFrame() {
        let (surface, window, views) = makeGrid(100)
        let passes = window.passCount
        let commits = surface.presentCount
        for frame in 0..<100 {
            views[frame % views.count].advance()
            _ = RunLoop.main.run(mode: .default, before: Date())  // the queued pass
            surface.fireFrame()
            _ = RunLoop.main.run(mode: .default, before: Date())
        }
        let drawn = surface.presentCount - commits
        let perFrame = Double(window.passCount - passes) / Double(max(1, drawn))
        report.add(
            Figure(
                suite: "views", name: "passes per drawing frame", metric: "passes", unit: "count",
                value: Statistics(exactly: perFrame), note: "\(drawn) drawing frames, counted"))
        report.check(
            Target(
                statement: "passes per drawing frame = 1", measured: perFrame, limit: 1, unit: "passes"))
    }
}
