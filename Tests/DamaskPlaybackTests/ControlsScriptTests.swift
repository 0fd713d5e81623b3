import DamaskControls
import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

/// Rows "Row N" for the scripted list.
@MainActor private final class ScriptRows: ListViewDataSource {
    func numberOfRows(in listView: ListView) -> Int { 1000 }

    func listView(_ listView: ListView, cellForRow row: Int) -> ListViewCell {
        let cell = listView.dequeueReusableCell(withIdentifier: "row")
        cell.text = "Row \(row)"
        return cell
    }
}

/// The scroll view, list and text view driven by input scripts: the wheel (whole detents
/// and `axis_value120` fractions), the touchpad with its kinetic end, and the keyboard.
@MainActor
@Suite("Controls driven by scripts", .exclusive, .timeLimit(.minutes(5)))
struct ControlsScriptTests {
    private func play(_ text: String, in window: Window) async throws -> PlaybackReport {
        let script = try ScriptParser().parse(text, file: "controls.dsc")
        return try await ScriptPlayer(window: window, options: PlaybackOptions()).play(script)
    }

    private func makeWindow() -> (MemorySurface, Window) {
        let surface = MemorySurface(
            size: CGSize(width: 200, height: 100), bufferCapacity: 2, releasePolicy: .immediate,
            frameClock: .simulated(intervalMilliseconds: 16))
        return (surface, Window(surface: surface))
    }

    @Test("wheel and scroll move a list by detents and fractions; each one-row frame draws one cell")
    func wheelScrollsTheList() async throws {
        let (_, window) = makeWindow()
        let rows = ScriptRows()
        let list = ListView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        list.rowHeight = 20
        list.lineScrollDistance = 40
        list.dataSource = rows
        window.contentView.addSubview(list)
        window.flush()  // the first screen, before the script's counts start
        let report = try await play(
            """
            move 100 50
            wheel 0 60
            wait idle
            expect draws 1
            expect damage exactly 0 0 200 100
            scroll 0 2
            wheel 0 -30
            wheel 0 15
            """, in: window)
        #expect(report.failures.map(\.description) == [])
        #expect(list.contentOffset.y == 95, "20 + 80 - 10 + 5")
        withExtendedLifetime(rows) {}
    }

    @Test("wheel carries fractions of a detent between commands: eight 'wheel 0 15' make one discrete step, at the eighth; a reversal starts from zero")
    func wheelFractionsMakeDetents() async throws {
        final class Steps: View {
            var discrete: [Int] = []
            override func scrollWheel(_ event: ScrollEvent) { discrete.append(event.discreteY) }
        }
        let (_, window) = makeWindow()
        let view = Steps(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        window.contentView.addSubview(view)
        window.flush()
        let lines = ["move 100 50"] + Array(repeating: "wheel 0 15", count: 15) + Array(repeating: "wheel 0 -40", count: 3)
        let report = try await play(lines.joined(separator: "\n"), in: window)
        #expect(report.failures.map(\.description) == [])
        #expect(view.discrete == Array(repeating: 0, count: 7) + [1] + Array(repeating: 0, count: 9) + [-1], "\(view.discrete)")
    }

    @Test("↓ End Home PageDown by script select rows and keep the selection visible")
    func keysDriveTheList() async throws {
        let (_, window) = makeWindow()
        let rows = ScriptRows()
        let list = ListView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        list.rowHeight = 20
        list.dataSource = rows
        window.contentView.addSubview(list)
        #expect(list.becomeFirstResponder())
        var report = try await play("key Down\nkey Down\nkey Page_Down", in: window)
        #expect(report.failures.isEmpty)
        #expect(list.selectedRow == 5)
        report = try await play("key End", in: window)
        #expect(list.selectedRow == 999)
        #expect(list.contentOffset.y == 19_900)
        report = try await play("key Home\nkey Up", in: window)
        #expect(list.selectedRow == 0)
        #expect(list.contentOffset.y == 0)
        withExtendedLifetime(rows) {}
    }

    @Test("a touchpad flick by script scrolls on after the fingers lift, then stops")
    func touchpadKinetic() async throws {
        let (_, window) = makeWindow()
        let scrollView = ScrollView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        scrollView.contentSize = CGSize(width: 200, height: 5000)
        window.contentView.addSubview(scrollView)
        let report = try await play(
            """
            move 100 50
            touchpad 0 10
            wait 10ms
            touchpad 0 10
            wait 10ms
            touchpad 0 10
            touchpad end
            """, in: window)
        #expect(report.failures.isEmpty)
        #expect(scrollView.contentOffset.y == 30)
        #expect(scrollView.isDecelerating)
        _ = try await play("wait frames 400", in: window)
        #expect(scrollView.contentOffset.y > 100, "kept moving after the fingers lifted")
        #expect(!scrollView.isDecelerating, "and stopped")
    }

    @Test("typing, Return and Shift+arrows by script edit a text view across lines")
    func typingIntoTheTextView() async throws {
        let (_, window) = makeWindow()
        let textView = TextView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        window.contentView.addSubview(textView)
        #expect(textView.becomeFirstResponder())
        let report = try await play(
            """
            type "one"
            key Return
            type "two"
            key shift+Up
            """, in: window)
        #expect(report.failures.map(\.description) == [])
        #expect(textView.text == "one\ntwo")
        #expect(textView.selectedRange == 3..<7)
        #expect(ScriptPrinter.line(for: .wheel(dx: 0, dy: -60)) == "wheel 0 -60")
    }

    @Test("by script, End on a line wrapped inside a word and a typed letter land after the line's last character; Up from a line end keeps to line ends")
    func endOfAWrappedWordByScript() async throws {
        let (_, window) = makeWindow()
        let textView = TextView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let word = String(repeating: "0123456789", count: 8)
        textView.text = word
        window.contentView.addSubview(textView)
        window.flush()
        #expect(textView.becomeFirstResponder())
        let wrap = textView.lineStarts[1]
        try #require(textView.lineStarts.count >= 3 && wrap > 0, "the word wraps: \(textView.lineStarts)")
        let typed = String(word.prefix(wrap)) + "X" + String(word.dropFirst(wrap))
        let report = try await play(
            """
            key ctrl+Home
            key End
            type "X"
            expect text "\(typed)"
            key End
            key Up
            type "Y"
            wait idle
            """, in: window)
        #expect(report.failures.map(\.description) == [])
        // After "X" the caret is on line 1; End takes it to that line's end, Up to line 0's end.
        let lineEnd = textView.lineStarts[1]
        #expect(Array(textView.text)[lineEnd] == "Y", "typed at the end of line 0, not before its last character: \(textView.text)")
        #expect(textView.text.filter { $0 == "X" || $0 == "Y" }.count == 2)
    }
}
