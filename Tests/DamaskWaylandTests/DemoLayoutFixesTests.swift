import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Small layout defects of the demo found by a new user (issue 28, point 4).
@Suite("Demo layout fixes", .serialized, .exclusive, .timeLimit(.minutes(5)))
struct DemoLayoutFixesTests {
    @Test("Layers at contentsScale 2.0: the wrapped caption line is the whole size (200 × 200 px), not \"px\" alone")
    func layersCaptionKeepsTheUnit() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("double.png")
        // "Next contentsScale" steps 0.5 → 1.0 → 2.0.
        let script = "scene layers\nwait idle\nclick 454 127\nwait idle\nclick 454 127\nwait idle\nscreenshot \(shot)\n"
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let bitmap = try Bitmap(contentsOfPNGFile: shot)
        // The caption's lines under the middle panel (window x 400…585), with their ink widths.
        var lines: [Int] = []
        var inLine = false
        var left = Int.max, right = Int.min
        for y in 355..<440 {
            let inked = (400..<586).filter { bitmap.color(x: $0, y: y).red < 0.6 }
            if let first = inked.first, let last = inked.last {
                if !inLine { (left, right) = (Int.max, Int.min) }
                (left, right, inLine) = (min(left, first), max(right, last), true)
            } else if inLine {
                lines.append(right - left + 1)
                inLine = false
            }
        }
        if inLine { lines.append(right - left + 1) }
        #expect(lines.count == 4, "caption lines: \(lines)")
        // Line 3 is the wrapped part: "200 × 200 px" is over 60 points wide, "px" some 15.
        #expect(lines.count == 4 && lines[2] > 60, "the wrapped line is \(lines.count > 2 ? lines[2] : 0) points wide")
    }

    @Test("Paths: Larger up to the largest scale (1.6) enlarges the triangle and star inside their panels, nothing cut off at a panel edge")
    func largerDoesNotCrop() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("large.png")
        let script = "scene paths\nwait idle\n" + String(repeating: "key plus\n", count: 6) + "wait idle\nscreenshot \(shot)\n"
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let bitmap = try Bitmap(contentsOfPNGFile: shot)
        // The clipping panels: window x 234…434 and 514…714, y 190…390. Their edge rows and
        // columns show the scene's background: the enlarged views end inside them.
        let background: UInt32 = 0xEEF0F5
        for left in [234, 514] {
            for (x, y) in [(left, 290), (left + 199, 290), (left + 100, 190), (left + 100, 389)] {
                #expect(bitmap.pixel(x: x, y: y) & 0xFF_FFFF == background, "panel at \(left): (\(x), \(y)) is \(String(bitmap.pixel(x: x, y: y) & 0xFF_FFFF, radix: 16))")
            }
            // …and the view did grow: 90 points from the panel's centre is still the view.
            #expect(bitmap.pixel(x: left + 100 + 90, y: 290) & 0xFF_FFFF != background, "panel at \(left): the view did not grow")
        }
    }
}

extension DemoLayoutFixesTests {
    /// The runs of button face (#4278D9) along row `y` of `bitmap` within `columns`.
    static func buttonRuns(_ bitmap: Bitmap, y: Int, columns: Range<Int>) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for x in columns {
            let face = DemoOnSeat.isClose(bitmap.pixel(x: x, y: y) & 0xFF_FFFF, 0x4278D9)
            if face, start == nil { start = x }
            if !face, let begin = start {
                runs.append(begin..<x)
                start = nil
            }
        }
        if let start { runs.append(start..<columns.upperBound) }
        return runs
    }

    @Test("In a 560-point window every button row fits: all buttons whole, none cut at the scene's edge", arguments: [
        ("chromosome", 3), ("paths", 5), ("layers", 3), ("progress", 3), ("content-mode", 3),
    ])
    func narrowWindowKeepsButtons(scene: String, count: Int) throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("narrow.png")
        let script = "size 560x600\nscene \(scene)\nwait idle\nscreenshot \(shot)\n"
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let bitmap = try Bitmap(contentsOfPNGFile: shot)
        // Rows of buttons at content y 112 (+38 per wrapped row); the face's middle row.
        // Titles are white: count runs on a row just above the text.
        var runs: [Range<Int>] = []
        for row in 0..<3 {
            runs += Self.buttonRuns(bitmap, y: 112 + 38 * row + 4, columns: 180..<560).filter { $0.count >= 40 }
        }
        #expect(runs.count == count, "\(scene): button runs \(runs)")
        #expect(runs.allSatisfy { $0.upperBound <= 560 - 24 }, "\(scene): a button reaches the scene's edge: \(runs)")
    }
}

extension DemoLayoutFixesTests {
    @Test("The bundled tour passes at scales 2 and 3 headless: every pixel, damage and draw check holds, all nine scenes are shot at the scale", arguments: [2, 3])
    func tourPassesAtScale(scale: Int) throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shots = (directory as NSString).appendingPathComponent("shots")
        let run = try DemoRun.run(
            DemoHeadlessTests.fast + ["--scale", "\(scale)", "--play", DemoRun.tourPath, "--screenshots", shots],
            directory: directory, timeout: 120)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("every expectation held"), "\(run.output)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: shots))?.sorted() ?? []
        #expect(files.count == 9, "\(files)")
        let layers = try Bitmap(contentsOfPNGFile: (shots as NSString).appendingPathComponent("layers.png"))
        #expect(layers.width == 800 * scale && layers.height == 600 * scale)
    }

    @Test("--screenshots runs check every expectation instead of stopping at the first: two failed checks in two scenes are both listed (exit 1) and both scenes are shot")
    func screenshotsRunListsEveryFailure() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shots = (directory as NSString).appendingPathComponent("shots")
        let script = """
            scene progress
            wait idle
            expect pixel 210 170 #ff00ff
            scene layers
            wait idle
            expect draws 999
            """
        let run = try DemoRun.run(
            DemoHeadlessTests.fast + ["--screenshots", shots], script: script, directory: directory)
        #expect(run.status == 1, "\(run.output)")
        let failures = run.output.split(separator: "\n").filter { $0.contains("expectation failed") }
        #expect(failures.count == 2, "\(run.output)")
        #expect(failures.first?.contains("script.damask:3:1") == true, "\(run.output)")
        #expect(failures.last?.contains("script.damask:6:1") == true, "\(run.output)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: shots))?.sorted() ?? []
        #expect(files == ["layers.png", "progress.png"], "\(files)")
    }
}
