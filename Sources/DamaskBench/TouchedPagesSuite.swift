import DamaskViews
import Foundation

/// How many memory pages one frame of the `64x64 change` at 3840×2160 touches, per kind of
/// mapping (code of each library, heap, bitmaps…), for Damask's pass and for the two floors
/// (``PixelFloor`` with a backing store, ``MinimalClientFloor``): `damask-bench --pages`.
///
/// Each touched page is a TLB miss in a cold frame; with no hardware counters in this
/// machine's guest, it is the part of a cold frame's fetches that can be counted. Each
/// figure is the median over the frames of the pages touched minus those an empty
/// measurement touches. Main-actor isolated.
@MainActor struct TouchedPagesSuite {
    /// Where figures go.
    let report: BenchReport
    /// Frames measured (after the warm-up frames).
    let frames: Int
    /// Frames discarded first.
    let warmUps: Int

    /// Measures the three; records a skip when the kernel offers no `clear_refs`.
    func run() throws {
        guard let pages = TouchedPages() else {
            throw BenchError.usage("--pages needs /proc/self/clear_refs and /proc/self/smaps (Linux procfs)")
        }
        let (width, height) = (3840, 2160)
        let scene = DamageScene(width: width, height: height)
        for index in 0..<warmUps { scene.frame { DamageScenario.tileChange.apply(index, to: scene) } }
        let pass = measure(pages) { index in
            DamageScenario.tileChange.apply(index, to: scene)
            return { scene.window.flush() }
        } after: {
            scene.surface.fireFrame()
        }
        record("Damask's pass", note: "layout check, display walk, draw, damage, copy, present", counts: pass, overhead: pages.overhead)
        if let floor = PixelFloor(width: width, height: height, layout: .backingStore) {
            for index in 0..<warmUps { _ = floor.frame(index) }
            let counts = measure(pages) { index in { _ = floor.frame(index) } } after: {}
            record("pixel work alone", note: "PixelFloor: fill, copy, copy forward", counts: counts, overhead: pages.overhead)
        }
        if let floor = MinimalClientFloor(width: width, height: height) {
            for index in 0..<warmUps { _ = floor.frame(index) }
            let counts = measure(pages) { index in { _ = floor.frame(index) } } after: {}
            record(
                "minimal client", note: "MinimalClientFloor: pixman fill, regions, composites, hand-off", counts: counts,
                overhead: pages.overhead)
        }
    }

    /// Measures ``frames`` frames: `prepare(index)` runs unmeasured and returns the frame's
    /// body, which is measured; `after` runs unmeasured after each.
    private func measure(
        _ pages: TouchedPages, prepare: (Int) -> () -> Void, after: () -> Void
    ) -> [TouchedPages.Count] {
        (warmUps..<(warmUps + frames)).compactMap { index in
            let body = prepare(index)
            defer { after() }
            return pages.measure(body)
        }
    }

    /// Adds one figure per kind of mapping (median pages per frame, overhead subtracted) and
    /// one for the total.
    private func record(_ label: String, note: String, counts: [TouchedPages.Count], overhead: TouchedPages.Count) {
        let name = "64x64 change 3840x2160: \(label), pages touched per frame"
        let kinds = Set(counts.flatMap(\.byKind.keys)).sorted()
        for kind in kinds {
            let values = counts.map { Double(max(0, ($0.byKind[kind] ?? 0) - (overhead.byKind[kind] ?? 0))) }
            guard Statistics(values).maximum > 0 else { continue }
            report.add(Figure(suite: "damage", name: name, metric: kind, unit: "pages", value: Statistics(values)))
        }
        let totals = counts.map { Double(max(0, $0.total - overhead.total)) }
        report.add(
            Figure(
                suite: "damage", name: name, metric: "all pages", unit: "pages", value: Statistics(totals),
                note: "\(note); an empty measurement's \(overhead.total) pages subtracted"))
    }
}
