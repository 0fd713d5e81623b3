import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// A 100,000-row ``ListView`` filling a 3840×2160 window: the CPU time of a frame that
/// scrolls it by one row against a `memcpy` of the window's pixels, measured pair by pair
/// in the same run; and the memory after scrolling through every row against the memory
/// after the first screen. Then a screen of 200 controls against 200 plain views.
@MainActor struct ControlsSuite {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    /// The list's rows: text only, one reusable identifier.
    private final class Rows: ListViewDataSource {
        func numberOfRows(in listView: ListView) -> Int { 100_000 }

        func listView(_ listView: ListView, cellForRow row: Int) -> ListViewCell {
            let cell = listView.dequeueReusableCell(withIdentifier: "row")
            cell.text = "Row \(row) of 100,000 — scrolled by moving what is drawn"
            return cell
        }
    }

    /// The memory case's figure name (``measureList()``).
    private static let listMemoryCase = "list of 100,000 rows after every row was shown (3840x2160)"

    /// Runs the cases (under `--case`, only those it names: `--case "200 controls"` measures
    /// the screen of controls alone, without the list's 100,000-row pass before it).
    func run() throws {
        if sampler.includes(Self.listMemoryCase) || sampler.includes("scroll") { measureList() }
        if sampler.includes("200 controls") { measureScreenOfControls() }
    }

    /// The list's memory after scrolling through every row, and (unless `--case` leaves it
    /// out) the one-row scroll frame against a `memcpy` of the window.
    private func measureList() {
        let size = CGSize(width: 3840, height: 2160)
        let surface = BenchSurface(size: size)
        let window = Window(surface: surface)
        let rows = Rows()
        let list = ListView(frame: CGRect(origin: .zero, size: size))
        list.rowHeight = 44
        list.dataSource = rows
        window.contentView.addSubview(list)
        window.flush()
        surface.fireFrame()
        let coldResident = ProcessProbe(pid: getpid()).residentBytes()
        // The window's second buffer (the compositor holds the first) exists from the
        // second frame on, whatever the window shows: one row scrolled, then back. The
        // first screen is measured once the window has both.
        for offset in [list.rowHeight, 0] {
            list.contentOffset = CGPoint(x: 0, y: offset)
            window.flush()
            surface.fireFrame()
        }
        let firstScreenBytes = window.statistics.liveBackingStoreBytes
        let firstScreenResident = ProcessProbe(pid: getpid()).residentBytes()
        let firstScreenCells = list.createdCellCount

        // Every row once: a screenful per frame, so each row is drawn in a reused cell.
        var offset: CGFloat = 0
        var frames = 0
        let page = (size.height / list.rowHeight).rounded(.down) * list.rowHeight
        while offset < list.maximumContentOffset.y {
            offset = min(offset + page, list.maximumContentOffset.y)
            list.contentOffset = CGPoint(x: 0, y: offset)
            window.flush()
            surface.fireFrame()
            frames += 1
        }
        let afterBytes = window.statistics.liveBackingStoreBytes
        let afterResident = ProcessProbe(pid: getpid()).residentBytes()
        let memoryRatio = Double(afterResident) / Double(max(1, firstScreenResident))
        let mebibyte = 1_048_576.0
        report.add(
            Figure(
                suite: "controls", name: Self.listMemoryCase,
                metric: "resident", unit: "MiB",
                value: Statistics(exactly: Double(afterResident) / mebibyte),
                baseline: "after the first screen (both window buffers allocated)",
                baselineValue: Statistics(exactly: Double(firstScreenResident) / mebibyte),
                ratio: Statistics(exactly: memoryRatio),
                note: String(
                    format: "VmRSS; %.1f MiB after the first frame alone (×%.2f against that); %d frames of a "
                        + "screenful; backing stores %.1f → %.1f MiB; cells %d → %d",
                    Double(coldResident) / mebibyte, Double(afterResident) / Double(max(1, coldResident)), frames,
                    Double(firstScreenBytes) / mebibyte, Double(afterBytes) / mebibyte, firstScreenCells,
                    list.createdCellCount)))
        report.check(
            Target(
                statement: "memory after scrolling through 100,000 rows ≤ 1.1× after the first screen",
                measured: memoryRatio, limit: 1.1, unit: "×"))

        if sampler.includes("scroll") {
            list.contentOffset = .zero
            window.flush()
            surface.fireFrame()
            measureScrolling(list: list, window: window, surface: surface)
        }
        withExtendedLifetime((window, rows)) {}
    }

    /// A 1280×800 window's first frame with 200 controls (buttons, labels, switches,
    /// sliders, progress bars) in 25 rows of horizontal stacks inside a vertical stack:
    /// created, laid out, drawn, composited and presented. The baseline is 200 plain views
    /// with a background colour at the same places, made and presented the same way.
    private func measureScreenOfControls() {
        let size = CGSize(width: 1280, height: 800)
        let columns = 8, rowCount = 25
        let controls = { Self.presentScreenOfControls(size: size, columns: columns, rows: rowCount) }
        let plain = { Self.presentPlainViews(size: size, columns: columns, rows: rowCount) }
        let result = sampler.compare(controls, against: plain)
        report.add(
            Figure(
                suite: "controls", name: "200 controls in stacks: create, lay out, first frame (1280x800)",
                metric: "time", unit: "ms", value: result.subject.scaled(by: 1e-6),
                baseline: "200 plain views, same frame", baselineValue: result.baseline.scaled(by: 1e-6),
                ratio: result.ratio, note: "a new window each run; CPU time, median"))
        report.check(
            Target(
                statement: "200 controls created, laid out and presented ≤ 16 ms CPU",
                measured: result.subject.median / 1e6, limit: 16, unit: "ms"))
        report.check(
            Target(
                statement: "200 controls created, laid out and presented ≤ 3× 200 plain views",
                measured: result.ratio.median, limit: 3, unit: "×"))
    }

    /// The measured case: a new window showing `rows` horizontal stacks of `columns`
    /// controls inside a vertical stack, laid out, drawn and presented. Not inlined into
    /// the sampler, so that a profile tells it from the baseline.
    @inline(never) private static func presentScreenOfControls(size: CGSize, columns: Int, rows rowCount: Int) {
        let surface = BenchSurface(size: size)
        let window = Window(surface: surface)
        let column = ControlSampleGrid.make(rows: rowCount, columns: columns, frame: CGRect(origin: .zero, size: size))
        window.contentView.addSubview(column)
        window.flush()
        surface.fireFrame()
    }

    /// The baseline: a new window showing `rows × columns` plain views with a background
    /// colour at the controls' places, presented the same way. Not inlined (see
    /// ``presentScreenOfControls(size:columns:rows:)``).
    @inline(never) private static func presentPlainViews(size: CGSize, columns: Int, rows rowCount: Int) {
        let surface = BenchSurface(size: size)
        let window = Window(surface: surface)
        let container = View(frame: CGRect(origin: .zero, size: size))
        for rowIndex in 0..<rowCount {
            for index in 0..<columns {
                let view = View(frame: CGRect(x: CGFloat(index) * 160, y: CGFloat(rowIndex) * 32, width: 152, height: 24))
                view.backgroundColor = .gray
                container.addSubview(view)
            }
        }
        window.contentView.addSubview(container)
        window.flush()
        surface.fireFrame()
    }

    /// One frame scrolling by one row (a cell reused and drawn, the rest moved by
    /// compositing, the window's pixels repainted and presented) against copying the
    /// window's 3840×2160 pixels once.
    private func measureScrolling(list: ListView, window: Window, surface: BenchSurface) {
        let byteCount = 3840 * 2160 * 4
        let source = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        let target = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        defer {
            source.deallocate()
            target.deallocate()
        }
        memset(source, 0x5A, byteCount)
        memset(target, 0, byteCount)
        let step = list.rowHeight
        let scrollOneRow = {
            var next = list.contentOffset.y + step
            if next > list.maximumContentOffset.y { next = 0 }
            list.contentOffset = CGPoint(x: 0, y: next)
            window.flush()
            surface.fireFrame()
        }
        let copyWindow = { _ = memcpy(target, source, byteCount) }
        let draws = window.drawCount
        let result = sampler.compare(scrollOneRow, against: copyWindow)
        report.add(
            Figure(
                suite: "controls", name: "scroll a 100,000-row list by one row (3840x2160)", metric: "time",
                unit: "ms", value: result.subject.scaled(by: 1e-6), baseline: "memcpy of the window (33 MB)",
                baselineValue: result.baseline.scaled(by: 1e-6), ratio: result.ratio,
                note: "one reused cell drawn per frame (\(window.drawCount - draws) draws in the run), "
                    + "the rest composited; CPU time, median"))
        report.check(
            Target(
                statement: "one-row scroll frame of a 100,000-row list at 3840x2160 ≤ 1.5× a memcpy of the window",
                measured: result.ratio.median, limit: 1.5, unit: "×"))
    }
}
