import DamaskViews
import Foundation

/// Per named scenario and window size: what a frame damages and repaints, what it costs,
/// and how that compares with a full repaint and with a `memcpy` of the frame.
///
/// Each scenario frame is paired with a full repaint of an identical reference window and
/// a `memcpy` of the frame's bytes, so the ratios are taken pair by pair; those frames run
/// with caches cold (the 4K repaint between them evicts everything). A second, warm
/// measurement pairs blocks of scenario frames with blocks of full repaints.
@MainActor struct DamageSuite {
    /// Where figures go.
    let report: BenchReport
    /// Frames measured per scenario (after the warm-up frames).
    let frames: Int
    /// Frames discarded first.
    let warmUps: Int

    /// The window sizes measured.
    static let sizes = [(1920, 1080), (3840, 2160)]

    /// Runs every scenario at every size.
    func run() {
        for (width, height) in Self.sizes {
            let reference = DamageScene(width: width, height: height)
            let byteCount = width * height * 4
            let source = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            let destination = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            defer {
                source.deallocate()
                destination.deallocate()
            }
            memset(source, 0x5a, byteCount)
            memset(destination, 0, byteCount)
            let copyFrame = { () -> Double in
                let start = BenchClock.threadCPU()
                memcpy(destination, source, byteCount)
                return Double(BenchClock.threadCPU() - start) / 1e6
            }
            let fullRepaint = { () -> Double in
                reference.frame { reference.window.setNeedsDisplay() }?.cpuMilliseconds ?? 0
            }
            let size = "\(width)x\(height)"

            // The full repaint itself against memcpy of the frame.
            for _ in 0..<warmUps { _ = fullRepaint(); _ = copyFrame() }
            var repaints: [Double] = [], copies: [Double] = [], ratios: [Double] = []
            for _ in 0..<frames {
                let repaint = fullRepaint(), copy = copyFrame()
                repaints.append(repaint)
                copies.append(copy)
                ratios.append(copy > 0 ? repaint / copy : 0)
            }
            report.add(
                Figure(
                    suite: "damage", name: "full repaint \(size)", metric: "CPU/frame", unit: "ms",
                    value: Statistics(repaints), baseline: "memcpy of the frame",
                    baselineValue: Statistics(copies), ratio: Statistics(ratios),
                    note: "recomposite every pixel, no draw"))
            report.check(
                Target(
                    statement: "full repaint at \(size) ≤ 1.5× memcpy of the frame",
                    measured: Statistics(ratios).median, limit: 1.5, unit: "× memcpy"))

            for scenario in DamageScenario.allCases {
                measure(scenario, width: width, height: height, fullRepaint: fullRepaint, copyFrame: copyFrame)
            }
        }
    }

    /// Runs `scenario` alone at 3840×2160 (warm-up frames, then ``frames`` frames inside
    /// `profiledFrames`, the function to collect in a profiler) and reports its CPU per frame.
    /// With `coldCaches`, every frame follows a full repaint of another 3840×2160 window (in
    /// `evictCaches`, which a profiler should exclude), as in the paired measurement.
    func profile(_ scenario: DamageScenario, coldCaches: Bool) {
        let scene = DamageScene(width: 3840, height: 2160)
        let reference = coldCaches ? DamageScene(width: 3840, height: 2160) : nil
        for index in 0..<warmUps { scene.frame { scenario.apply(index, to: scene) } }
        let cpu = profiledFrames(scenario, scene: scene, reference: reference)
        report.add(
            Figure(
                suite: "damage", name: "\(scenario.rawValue) 3840x2160 (profile\(coldCaches ? ", cold" : ""))",
                metric: "CPU/frame", unit: "ms", value: Statistics(cpu)))
    }

    /// The frames a profiler should look at; returns each frame's pass CPU in milliseconds.
    @inline(never)
    private func profiledFrames(_ scenario: DamageScenario, scene: DamageScene, reference: DamageScene?) -> [Double] {
        (warmUps..<(warmUps + frames)).map { index in
            if let reference { evictCaches(reference) }
            return scene.frame { scenario.apply(index, to: scene) }?.cpuMilliseconds ?? 0
        }
    }

    /// Repaints all of `reference`, which evicts the measured window from the caches.
    ///
    /// Stays on the stack under the repaint (the call is not a tail call), so that a
    /// profile can leave the eviction out by this function's name: the repaint runs the
    /// same functions as the measured pass.
    @inline(never)
    private func evictCaches(_ reference: DamageScene) {
        reference.frame { reference.window.setNeedsDisplay() }
        withExtendedLifetime(reference) {}
    }

    /// Measures one scenario at one size: cold frames paired with full repaints and
    /// `memcpy`, then warm blocks; checks the 64×64 target at 3840×2160.
    private func measure(
        _ scenario: DamageScenario, width: Int, height: Int,
        fullRepaint: () -> Double, copyFrame: () -> Double
    ) {
        let scene = DamageScene(width: width, height: height)
        let name = "\(scenario.rawValue) \(width)x\(height)"
        for index in 0..<warmUps { scene.frame { scenario.apply(index, to: scene) } }
        let cold = measureCold(scenario, in: scene, name: name, fullRepaint: fullRepaint, copyFrame: copyFrame)
        let warm = measureWarm(name: name, firstFrame: warmUps + frames, fullRepaint: fullRepaint) { index in
            scene.frame { scenario.apply(index, to: scene) }?.cpuMilliseconds
        }
        if scenario == .tileChange && width == 3840 {
            let floors = measurePixelFloor(width: width, height: height, fullRepaint: fullRepaint)
            checkAgainstFloors(cold: cold, warm: warm, floors: floors)
            report.check(
                Target(
                    statement: "64x64 change in a 3840x2160 window ≤ 1% of a full repaint (frames back to back)",
                    measured: warm.median * 100, limit: 1, unit: "% of full repaint"))
            report.check(
                Target(
                    statement: "64x64 change in a 3840x2160 window ≤ 0.5% of a full repaint (each frame after a full repaint elsewhere)",
                    measured: cold.median * 100, limit: 0.5, unit: "% of full repaint"))
        }
    }

    /// The floors under the cold 64×64 figure, each frame right after a full repaint, as the
    /// cold frames are measured, then in warm blocks: the pixel work alone (``PixelFloor``),
    /// with a backing store and without one, and the least a retained-mode client does
    /// (``MinimalClientFloor``: the same pixel work through pixman, with the damage regions
    /// and the hand-off). Each floor's bitmaps are allocated only while it is measured.
    /// Returns each floor's cold and warm ratios to the full repaint, by label.
    private func measurePixelFloor(
        width: Int, height: Int, fullRepaint: () -> Double
    ) -> [String: (cold: Statistics, warm: Statistics)] {
        let floors: [(String, String, () -> ((Int) -> Double)?)] = [
            ("pixel work alone",
             "fill the rect in a store, copy it to the buffer, copy forward the missed rect; cold",
             { PixelFloor(width: width, height: height, layout: .backingStore).map { floor in floor.frame } }),
            ("pixel work alone, no backing store",
             "fill the rect in the buffer itself, copy forward the missed rect; cold",
             { PixelFloor(width: width, height: height, layout: .bufferOnly).map { floor in floor.frame } }),
            ("minimal client",
             "pixman fill into a store, damage region, copy-forward of the missed region, composite, "
                + "hand-off of the boxes; no view tree (MinimalClientFloor); cold",
             { MinimalClientFloor(width: width, height: height).map { floor in floor.frame } }),
        ]
        var ratiosByLabel: [String: (cold: Statistics, warm: Statistics)] = [:]
        for (label, note, make) in floors {
            guard let frame = make() else { continue }
            for index in 0..<warmUps { _ = fullRepaint(); _ = frame(index) }
            var work: [Double] = [], repaints: [Double] = [], ratios: [Double] = []
            for index in warmUps..<(warmUps + frames) {
                let repaint = fullRepaint()
                let pixels = frame(index)
                work.append(pixels)
                repaints.append(repaint)
                ratios.append(repaint > 0 ? pixels / repaint : 0)
            }
            report.add(
                Figure(
                    suite: "damage", name: "64x64 change \(width)x\(height): \(label)", metric: "CPU/frame",
                    unit: "ms", value: Statistics(work), baseline: "full repaint",
                    baselineValue: Statistics(repaints), ratio: Statistics(ratios), note: note))
            let warm = measureWarm(
                name: "64x64 change \(width)x\(height): \(label)", firstFrame: warmUps + frames,
                fullRepaint: fullRepaint) { frame($0) }
            ratiosByLabel[label] = (Statistics(ratios), warm)
        }
        return ratiosByLabel
    }

    /// Issue 32's target: the cold 64×64 change within ×1.3 of the pixel floor (with a
    /// backing store) measured in the same run, each figure the median of its ratios to the
    /// full repaint; and the same against the minimal client's floor (the fair cold floor:
    /// the least a client's code and data add to the pixel work), cold and warm.
    private func checkAgainstFloors(
        cold: Statistics, warm: Statistics, floors: [String: (cold: Statistics, warm: Statistics)]
    ) {
        let checks: [(String, String, Statistics, KeyPath<(cold: Statistics, warm: Statistics), Statistics>)] = [
            ("pixel work alone", "cold", cold, \.cold),
            ("minimal client", "cold", cold, \.cold),
            ("pixel work alone", "warm", warm, \.warm),
            ("minimal client", "warm", warm, \.warm),
        ]
        for (label, kind, scenario, keyPath) in checks {
            guard let floor = floors[label]?[keyPath: keyPath], floor.median > 0 else { continue }
            report.check(
                Target(
                    statement: "64x64 change at 3840x2160, \(kind), ≤ 1.3× the floor \"\(label)\" measured \(kind) in the same run",
                    measured: scenario.median / floor.median, limit: 1.3, unit: "× floor"))
        }
    }

    /// Each frame of `scenario` paired with a full repaint of the reference window (before
    /// or after it, alternately) and a `memcpy` of the frame; reports what the commits
    /// contained and cost. Returns the ratios to the full repaint.
    private func measureCold(
        _ scenario: DamageScenario, in scene: DamageScene, name: String,
        fullRepaint: () -> Double, copyFrame: () -> Double
    ) -> Statistics {
        var damaged: [Double] = [], rects: [Double] = [], repainted: [Double] = [], draws: [Double] = []
        var cpu: [Double] = [], repaints: [Double] = [], copies: [Double] = []
        var toRepaint: [Double] = [], toCopy: [Double] = []
        var missing = 0
        for index in warmUps..<(warmUps + frames) {
            let repaintFirst = index.isMultiple(of: 2)
            let before = repaintFirst ? fullRepaint() : 0
            guard let commit = scene.frame({ scenario.apply(index, to: scene) }) else {
                missing += 1
                continue
            }
            let repaint = repaintFirst ? before : fullRepaint()
            let copy = copyFrame()
            damaged.append(Double(commit.damagedPixelCount))
            rects.append(Double(commit.damageRects.count))
            repainted.append(commit.repaintedRects.reduce(0) { $0 + Double($1.width * $1.height) })
            draws.append(Double(commit.drawCount))
            cpu.append(commit.cpuMilliseconds)
            repaints.append(repaint)
            copies.append(copy)
            toRepaint.append(repaint > 0 ? commit.cpuMilliseconds / repaint : 0)
            toCopy.append(copy > 0 ? commit.cpuMilliseconds / copy : 0)
        }
        let note = missing > 0 ? "\(missing) frames committed nothing" : nil
        report.add(Figure(suite: "damage", name: name, metric: "damaged px", unit: "px", value: Statistics(damaged), note: note))
        report.add(Figure(suite: "damage", name: name, metric: "damage rects", unit: "count", value: Statistics(rects)))
        report.add(
            Figure(
                suite: "damage", name: name, metric: "repainted px", unit: "px", value: Statistics(repainted),
                note: "damage ∪ what the buffer missed"))
        report.add(Figure(suite: "damage", name: name, metric: "draws", unit: "count", value: Statistics(draws)))
        report.add(
            Figure(
                suite: "damage", name: name, metric: "CPU/frame", unit: "ms", value: Statistics(cpu),
                baseline: "full repaint", baselineValue: Statistics(repaints), ratio: Statistics(toRepaint)))
        report.add(
            Figure(
                suite: "damage", name: name, metric: "CPU/frame", unit: "ms", value: Statistics(cpu),
                baseline: "memcpy of the frame", baselineValue: Statistics(copies), ratio: Statistics(toCopy)))
        return Statistics(toRepaint)
    }

    /// Blocks of five frames back to back (`frame(index)` returns one frame's CPU in
    /// milliseconds, or nil when it committed nothing), each block paired with a block of
    /// full repaints, so neither evicts the other's memory from the caches; reports the
    /// frames as `name`'s warm figure and returns the ratios of the blocks' medians.
    ///
    /// The scenarios and their pixel floor (``PixelFloor``) are measured by this one loop:
    /// the floor's distance from the cold floor is what evicting the pixels alone costs; a
    /// scenario's distance from its own warm figure adds what evicting the toolkit's code
    /// and objects costs.
    @discardableResult
    private func measureWarm(
        name: String, firstFrame: Int, fullRepaint: () -> Double, frame: (Int) -> Double?
    ) -> Statistics {
        let blockSize = 5
        var warm: [Double] = [], warmRepaints: [Double] = [], warmRatios: [Double] = []
        var index = firstFrame
        for _ in 0..<max(1, frames / blockSize) {
            var block: [Double] = []
            for _ in 0..<blockSize {
                if let cpu = frame(index) { block.append(cpu) }
                index += 1
            }
            let repaintBlock = (0..<blockSize).map { _ in fullRepaint() }
            let blockMedian = Statistics(block).median, repaintMedian = Statistics(repaintBlock).median
            warm.append(contentsOf: block)
            warmRepaints.append(contentsOf: repaintBlock)
            warmRatios.append(repaintMedian > 0 ? blockMedian / repaintMedian : 0)
        }
        report.add(
            Figure(
                suite: "damage", name: name, metric: "CPU/frame warm", unit: "ms", value: Statistics(warm),
                baseline: "full repaint, warm", baselineValue: Statistics(warmRepaints), ratio: Statistics(warmRatios),
                note: "blocks of \(blockSize) frames back to back, paired block by block"))
        return Statistics(warmRatios)
    }
}
