import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo used as a desktop app: focus, keys and scene layout, with a real seat (Weston
/// on Xvfb driven by xdotool) where the seat matters, headless where it does not.
@Suite("Demo desktop behaviour", .serialized, .exclusive, .timeLimit(.minutes(5)))
struct DemoDesktopTests {
    @Test("After Escape in the text field, key 3 switches to the paths scene (real seat, decorated window)", .integration)
    func escapeHandsKeysBack() throws {
        let demo = try DemoOnSeat(arguments: ["--scene", "text"])
        try demo.move(toScreen: 0, 0)
        // The field is at content (204, 160), 420 × 40.
        try demo.move(to: 300, 180)
        try demo.click()
        try demo.press("a", "b", "Escape")
        try demo.press("3")
        // The paths scene's star is yellow at content (614, 300).
        let star = demo.waitForColor(0xFFCC00, at: (614, 300))
        #expect(star.map { DemoOnSeat.isClose($0, 0xFFCC00) } == true,
            "content at \(demo.origin): \(star.map { String($0, radix: 16) } ?? "no screenshot")")
        #expect(demo.quit() == 0)
    }

    @Test("Clicking the scene's background ends editing: S then shows the statistics, not an s (real seat)", .integration)
    func clickOutsideResignsField() throws {
        let demo = try DemoOnSeat(arguments: ["--scene", "text"])
        try demo.move(toScreen: 0, 0)
        try demo.move(to: 300, 180)
        try demo.click()
        // The scene's empty background, below the hint.
        try demo.move(to: 400, 400)
        try demo.click()
        try demo.press("s")
        // The statistics overlay's dark panel appears at content (570, 540).
        let panel = demo.waitForColor(0x34373F, at: (570, 540))
        #expect(panel.map { DemoOnSeat.isClose($0, 0x34373F) } == true,
            "content at \(demo.origin): \(panel.map { String($0, radix: 16) } ?? "no screenshot")")
        #expect(demo.quit() == 0)
    }

    @Test("In a short window the sidebar's key hints give way: the header and rows look as in a tall one, nothing overlaps them")
    func sidebarHintsGiveWay() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        var script = "scene progress\nwait idle\nscreenshot \(path("600.png"))\n"
        for height in [380, 120] {
            script += "size 800x\(height)\nwait idle\nscreenshot \(path("\(height).png"))\n"
        }
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let tall = try Bitmap(contentsOfPNGFile: path("600.png"))
        // The tall sidebar shows the hints below its eight rows (which end at y 352).
        let hintRows = (600 - 74)..<(600 - 20)
        #expect(hintRows.contains { y in (0..<180).contains { tall.pixel(x: $0, y: y) & 0xFF_FFFF != DemoOnSeat.sidebarColor } },
            "the hints are drawn in a tall window")
        for height in [380, 120] {
            let short = try Bitmap(contentsOfPNGFile: path("\(height).png"))
            var differing = 0
            for y in 0..<height {
                for x in 0..<180 where short.pixel(x: x, y: y) != tall.pixel(x: x, y: y) { differing += 1 }
            }
            #expect(differing == 0, "\(differing) sidebar pixels differ from the tall window's at height \(height)")
        }
    }

    @Test("In a 560-point window the text field narrows to the scene: its right border and the caret after long text stay in view")
    func narrowWindowKeepsFieldInView() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("narrow.png")
        let script = """
            size 560x400
            scene text
            click 300 180
            type "The quick brown fox jumps over the lazy dog, again and again"
            key End
            wait idle
            screenshot \(shot)

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let bitmap = try Bitmap(contentsOfPNGFile: shot)
        // The scene is 380 wide from x 180: the field spans 204…536 (24-point margins).
        let background: UInt32 = 0xEEF0F5
        let row = 180
        #expect(bitmap.pixel(x: 545, y: row) & 0xFF_FFFF == background, "nothing right of the field")
        let border = bitmap.pixel(x: 535, y: row) & 0xFF_FFFF
        #expect(border != background && border != 0xFFFFFF, "the field's right border is drawn: \(String(border, radix: 16))")
        // The caret (2 × 24, the text colour #212630) is drawn inside the padding's edge.
        let caretColumns = (500..<535).filter { x in
            (168..<192).allSatisfy { y in DemoOnSeat.isClose(bitmap.pixel(x: x, y: y) & 0xFF_FFFF, 0x212630) }
        }
        #expect(!caretColumns.isEmpty, "no caret near the field's right end")
    }

    @Test("Paths: views scaled and rotated stay in their own panels; the sidebar, header, buttons and the space between are untouched")
    func pathsViewsStayInTheirPanels() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let script = """
            scene paths
            wait idle
            screenshot \(path("before.png"))
            key plus
            key plus
            key plus
            key plus
            key plus
            key plus
            key bracketright
            key bracketright
            wait idle
            screenshot \(path("after.png"))

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let before = try Bitmap(contentsOfPNGFile: path("before.png"))
        let after = try Bitmap(contentsOfPNGFile: path("after.png"))
        // The two 200-point panels (triangle, star: scene x 54 and 334, y 190) and the
        // caption (y 440) may change; nothing else.
        let panels = [CGRect(x: 234, y: 190, width: 200, height: 200), CGRect(x: 514, y: 190, width: 200, height: 200)]
        let caption = CGRect(x: 180, y: 436, width: 620, height: 44)
        var inside = 0
        var outside: [String] = []
        for y in 0..<600 {
            for x in 0..<800 where before.pixel(x: x, y: y) != after.pixel(x: x, y: y) {
                let point = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
                if panels.contains(where: { $0.contains(point) }) {
                    inside += 1
                } else if !caption.contains(point) {
                    outside.append("\(x),\(y)")
                }
            }
        }
        #expect(inside > 5000, "the views were scaled and rotated")
        #expect(outside.isEmpty, "\(outside.count) pixels changed outside the panels, first \(outside.prefix(5))")
    }

    @Test("Layers: at contentsScale 2.0 the standalone layer's caption wraps inside its column instead of being cut off")
    func layersCaptionWraps() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        // "Next contentsScale" steps 0.5 → 1.0 → 2.0.
        let script = """
            scene layers
            wait idle
            screenshot \(path("half.png"))
            click 454 127
            wait idle
            click 454 127
            wait idle
            screenshot \(path("double.png"))

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        /// The caption's text lines under the middle panel (window x 400…585): groups of
        /// rows with dark pixels; and whether any dark pixel lies between the columns.
        func captionLines(_ bitmap: Bitmap) -> (lines: Int, spills: Bool) {
            func dark(_ x: Int, _ y: Int) -> Bool { bitmap.color(x: x, y: y).red < 0.6 }
            var lines = 0
            var previousInk = false
            for y in 355..<440 {
                let ink = (400..<586).contains { dark($0, y) }
                if ink && !previousInk { lines += 1 }
                previousInk = ink
            }
            let spills = (355..<440).contains { y in (587..<595).contains { dark($0, y) } }
            return (lines, spills)
        }
        let half = captionLines(try Bitmap(contentsOfPNGFile: path("half.png")))
        let double = captionLines(try Bitmap(contentsOfPNGFile: path("double.png")))
        #expect(half.lines == 3 && !half.spills, "at 0.5: \(half)")
        // "contentsScale 2.0: 200 × 200 px" is wider than the column: one line more, not "…".
        #expect(double.lines == 4 && !double.spills, "at 2.0: \(double)")
    }

    @Test("Keypad + zooms the paths scene as + does, and keypad − undoes it")
    func keypadZooms() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let script = """
            scene paths
            wait idle
            screenshot \(path("initial.png"))
            key KP_Add
            wait idle
            screenshot \(path("keypad-plus.png"))
            key KP_Subtract
            wait idle
            screenshot \(path("keypad-minus.png"))
            key plus
            wait idle
            screenshot \(path("plus.png"))

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let initial = try Bitmap(contentsOfPNGFile: path("initial.png"))
        let keypadPlus = try Bitmap(contentsOfPNGFile: path("keypad-plus.png"))
        let keypadMinus = try Bitmap(contentsOfPNGFile: path("keypad-minus.png"))
        let plus = try Bitmap(contentsOfPNGFile: path("plus.png"))
        #expect(Bitmap.difference(initial, keypadPlus, tolerance: 0).differingPixelCount > 1000, "KP_Add changed the scene")
        #expect(Bitmap.difference(initial, keypadMinus, tolerance: 0).differingPixelCount == 0, "KP_Subtract undid it")
        #expect(Bitmap.difference(keypadPlus, plus, tolerance: 0).differingPixelCount == 0, "KP_Add is +")
    }

    @Test("Keypad + and − zoom the paths scene under a real seat, and the caption's draw counts change only when the views draw again", .integration)
    func keypadZoomsOnSeat() throws {
        let demo = try DemoOnSeat(arguments: ["--scene", "paths"])
        try demo.move(toScreen: 0, 0)
        // The star's yellow at content (614, 300) once the scene is on screen.
        #expect(demo.waitForColor(0xFFCC00, at: (614, 300)).map { DemoOnSeat.isClose($0, 0xFFCC00) } == true)
        let initial = try demo.content(of: try demo.screenshot())
        try demo.press("KP_Add")
        let keypadPlus = try waitForContent(demo) { Bitmap.difference(initial, $0, tolerance: 0).differingPixelCount > 1000 }
        #expect(Bitmap.difference(initial, keypadPlus, tolerance: 0).differingPixelCount > 1000, "KP_Add zoomed")
        try demo.press("KP_Subtract")
        let keypadMinus = try waitForContent(demo) { Bitmap.difference(initial, $0, tolerance: 0).differingPixelCount == 0 }
        #expect(Bitmap.difference(initial, keypadMinus, tolerance: 0).differingPixelCount == 0, "KP_Subtract undid it")
        try demo.press("plus")
        let plus = try waitForContent(demo) { Bitmap.difference(keypadPlus, $0, tolerance: 0).differingPixelCount == 0 }
        #expect(Bitmap.difference(keypadPlus, plus, tolerance: 0).differingPixelCount == 0, "KP_Add is +")
        // The caption's second line ("draw(_:) calls: triangle 1, star 1 …", content y
        // 456…476 right of the sidebar) is the same after zooming (no draw), and changes
        // once the scene was left and shown again (its views drew again: "2").
        let countsLine = (x: 180, y: 456, width: 620, height: 20)
        #expect(Self.differingPixels(initial, plus, in: countsLine) == 0, "the draw counts changed with zooming")
        try demo.press("1")
        try demo.press("3")
        let revisited = try waitForContent(demo) { Self.differingPixels(initial, $0, in: countsLine) > 0 }
        #expect(Self.differingPixels(initial, revisited, in: countsLine) > 0, "the draw counts did not follow the new draws")
        #expect(demo.quit() == 0)
    }

    /// Takes content screenshots until `accept` holds (up to 20 s); the last one.
    private func waitForContent(_ demo: DemoOnSeat, until accept: (Bitmap) -> Bool) throws -> Bitmap {
        let deadline = Date().addingTimeInterval(20)
        var shot = try demo.content(of: try demo.screenshot())
        while !accept(shot) && Date() < deadline {
            usleep(50_000)
            shot = try demo.content(of: try demo.screenshot())
        }
        return shot
    }

    /// How many pixels of `rect` differ between `a` and `b`.
    static func differingPixels(_ a: Bitmap, _ b: Bitmap, in rect: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        var count = 0
        for y in rect.y..<rect.y + rect.height {
            for x in rect.x..<rect.x + rect.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 }
        }
        return count
    }
}
