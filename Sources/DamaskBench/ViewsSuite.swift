import DamaskGraphics
import DamaskViews
import Foundation

/// A display pass over 1,000 views: ten of them dirty versus none.
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
    }
}
