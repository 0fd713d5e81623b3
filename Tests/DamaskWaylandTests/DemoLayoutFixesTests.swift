import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Small layout defects of the demo found by a new user (issue 28, point 4).
@Suite("Demo layout fixes", .serialized, .exclusive)
struct DemoLayoutFixesTests {
    @Test("Layers at contentsScale 2.0: the wrapped caption line is the whole size (200 × 200 px), not \"px\" alone")
    func layersCaptionKeepsTheUnit() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("double.png")
        // "Next contentsScale" (Tab to the second button, Space) steps 0.5 → 1.0 → 2.0.
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
}
