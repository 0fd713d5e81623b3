import DamaskGraphics
import DamaskViews
import Foundation

/// The cost of a keystroke in a text field as its text grows: one key at the end of a
/// 100,000-character field against a 10-character one, and 10,000 keys typed into an empty
/// field (the last 1,000 against the first 1,000). Each key is a whole frame: edit, layout,
/// damage, draw, composite, present (offscreen, thread CPU time).
@MainActor struct TypingSuite {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    /// Words typed (ASCII, so the benchmark's text does not depend on fallback fonts).
    static let prose = "the quick brown fox jumps over the lazy dog while typing goes on "

    /// A 420×40 field in a window, holding `length` characters of prose.
    private func makeField(length: Int) -> (BenchSurface, Window, TypingFieldView) {
        let surface = BenchSurface(size: CGSize(width: 480, height: 80))
        let window = Window(surface: surface)
        let repeated = String(repeating: Self.prose, count: length / Self.prose.count + 1)
        let field = TypingFieldView(frame: CGRect(x: 20, y: 20, width: 420, height: 40), text: String(repeated.prefix(length)))
        window.contentView.addSubview(field)
        window.flush()
        surface.fireFrame()
        return (surface, window, field)
    }

    /// Runs the suite.
    func run() {
        if sampler.includes("keystroke") { compareLengths() }
        if sampler.includes("10,000 characters") { typeTenThousand() }
    }

    /// One key (typed, then Backspace, each its own frame) at the end of 100,000 vs 10.
    private func compareLengths() {
        let long = makeField(length: 100_000), short = makeField(length: 10)
        func keystrokes(_ field: (BenchSurface, Window, TypingFieldView)) -> () -> Void {
            {
                field.2.type("x")
                field.1.flush()
                field.0.fireFrame()
                field.2.deleteBackward()
                field.1.flush()
                field.0.fireFrame()
            }
        }
        let result = sampler.compare(keystrokes(long), against: keystrokes(short))
        report.add(
            Figure(
                suite: "typing", name: "keystroke at the end of a 100,000-character field", metric: "time", unit: "µs",
                value: result.subject.scaled(by: 0.5e-3), baseline: "same keystroke in a 10-character field",
                baselineValue: result.baseline.scaled(by: 0.5e-3), ratio: result.ratio,
                note: "per key: edit + layout + damage + draw + present; a typed key and a Backspace alternate"))
        report.check(
            Target(
                statement: "a keystroke at 100,000 characters ≤ 2× one at 10", measured: result.ratio.median, limit: 2,
                unit: "×"))
        withExtendedLifetime((long, short)) {}
    }

    /// 10,000 keys into an empty field, a frame each; the last 1,000 against the first.
    private func typeTenThousand() {
        let characters = Array(String(repeating: Self.prose, count: 10_000 / Self.prose.count + 1).prefix(10_000))
        var firsts: [Double] = [], lasts: [Double] = [], ratios: [Double] = []
        for _ in 0..<max(3, min(sampler.repeats, 7)) {
            let (surface, window, field) = makeField(length: 0)
            var first = 0.0, last = 0.0
            var start = BenchClock.threadCPU()
            for (index, character) in characters.enumerated() {
                if index == 9_000 { start = BenchClock.threadCPU() }
                field.type(String(character))
                window.flush()
                surface.fireFrame()
                if index == 999 { first = Double(BenchClock.threadCPU() - start) }
            }
            last = Double(BenchClock.threadCPU() - start)
            firsts.append(first / 1000)
            lasts.append(last / 1000)
            ratios.append(last / first)
        }
        report.add(
            Figure(
                suite: "typing", name: "last 1,000 of 10,000 characters typed", metric: "time", unit: "µs",
                value: Statistics(lasts).scaled(by: 1e-3), baseline: "first 1,000",
                baselineValue: Statistics(firsts).scaled(by: 1e-3), ratio: Statistics(ratios),
                note: "per key, a frame each, into an empty field"))
        report.check(
            Target(
                statement: "typing 10,000 characters: the last 1,000 ≤ 1.5× the first 1,000",
                measured: Statistics(ratios).median, limit: 1.5, unit: "×"))
    }
}
