import DamaskTestSupport
import Foundation
import Testing

/// The controls scene's TextView ("Notes") seen from outside by an assistive technology
/// while a person types: a private session bus with at-spi2-core's accessibility bus, Weston
/// on Xvfb with real keys (xdotool, ``DemosOnWestonSeat``), and a walker written with
/// python3-pyatspi that reads the text, its lines and extents, follows the caret through
/// its events and edits it through EditableText.
@Suite("damask-demo's TextView on the AT-SPI accessibility bus", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoTextViewAccessibilityTests {
    /// `walker.py NAME`: finds the application, presses the "Controls" row, finds the text
    /// called "Notes" and prints it (`found`), grabs focus for it (`focused`); then for each
    /// stdin line `report`, prints the events seen since the last report (`events`, waiting
    /// up to 10 s for at least one); on `edit`, inserts "Hi " at 0 through EditableText and
    /// prints the text and events (`edited`). One JSON object per line.
    static let walker = DemoAccessibilityScripts.library + #"""
import select

events = []
def on_event(e):
    try:
        src = e.source
        events.append({"type": e.type, "role": src.getRoleName() if src else None, "detail1": e.detail1,
                       "detail2": e.detail2, "any": e.any_data if isinstance(e.any_data, (str, int, float)) else None})
    except Exception as ex:
        events.append({"type": e.type, "error": str(ex)})

for kind in ["object:state-changed:focused", "object:text-changed", "object:text-caret-moved"]:
    pyatspi.Registry.registerEventListener(on_event, kind)

def main(name):
    app = find_app(name)
    if app is None:
        emit("error", message="no application named " + name)
        return
    lst = find(app, lambda a: a.getRoleName() == "list" and a.name == "Scenes")
    row = [lst.getChildAtIndex(i) for i in range(lst.childCount) if lst.getChildAtIndex(i).name == "Controls"][0]
    row.queryAction().doAction(0)
    notes = None
    deadline = time.monotonic() + 15
    while notes is None and time.monotonic() < deadline:
        pump(0.1)
        notes = find(app, lambda a: a.getRoleName() == "text" and a.name == "Notes")
    if notes is None:
        emit("error", message="no text called Notes in the controls scene")
        return
    text = notes.queryText()
    count = text.characterCount
    lines = []
    offset = 0
    while offset < count and len(lines) < 20:
        line, start, end = text.getTextAtOffset(offset, pyatspi.TEXT_BOUNDARY_LINE_START)
        lines.append([start, end, line])
        offset = max(end, offset + 1)
    x, y, w, h = text.getCharacterExtents(0, pyatspi.WINDOW_COORDS)
    at = text.getOffsetAtPoint(x + w // 2, y + h // 2, pyatspi.WINDOW_COORDS)
    emit("found", text=text.getText(0, -1), count=count, caret=text.caretOffset, lines=lines,
         states=states(notes),
         extents=[x, y, w, h], offsetAtCentre=at)
    del events[:]
    grabbed = notes.queryComponent().grabFocus()
    pump(10, lambda: any(e["type"].startswith("object:state-changed:focused") and e.get("detail1") == 1
                         and e.get("role") == "text" for e in events))
    emit("focused", grabbed=grabbed, events=events[:])
    del events[:]
    while True:
        pump(0.05)
        ready, _, _ = select.select([sys.stdin], [], [], 0.05)
        if not ready:
            continue
        command = sys.stdin.readline().strip()
        if command == "report":
            pump(10, lambda: len(events) > 0)
            pump(0.5)  # the rest of a burst
            emit("events", events=events[:], caret=text.caretOffset, text=text.getText(0, -1))
            del events[:]
        elif command == "edit":
            editable = notes.queryEditableText()
            inserted = editable.insertText(0, "Hi ", 3)
            pump(10, lambda: any(e["type"].startswith("object:text-changed:insert") for e in events))
            emit("edited", inserted=inserted, text=text.getText(0, -1), caret=text.caretOffset, events=events[:])
            del events[:]
        elif command == "quit" or command == "":
            return

main(sys.argv[1])
"""#

    /// The walker's next record of `kind` after line `start`.
    static func record(_ walker: TestProcess, _ kind: String, from start: Int = 0, timeout: TimeInterval = 60) -> [String: Any]? {
        let found = walker.waitForLine(from: start, timeout: timeout) { $0.contains("\"kind\": \"\(kind)\"") || $0.contains("\"kind\": \"error\"") }
        return found.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.line.utf8))) as? [String: Any] }
    }

    /// The caret offsets of the `text-caret-moved` events in a record.
    static func caretMoves(_ record: [String: Any]?) -> [Int] {
        ((record?["events"] as? [[String: Any]]) ?? []).filter { $0["type"] as? String == "object:text-caret-moved" }
            .compactMap { $0["detail1"] as? Int }
    }

    @Test("A pyatspi walker finds the Notes text view as a multi-line text, reads its text, visual lines and extents, follows the caret moved by real End, Down and Ctrl+End keys, sees typing as text-changed and inserts through EditableText")
    func textViewThroughAccessibility() throws {
        let session = try AccessibilityBusSession()
        defer { session.stop() }
        try session.setAccessibilityEnabled(true)
        let seat = try DemosOnWestonSeat()
        defer { seat.stop() }
        seat.extraEnvironment = session.environment([:])
        let demo = try seat.launch(["--size", "640x480", "--scene", "controls"])
        let directory = try DemoAccessibilityTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try DemoAccessibilityScripts.write(Self.walker, named: "textview.py", in: directory)
        let walker = try TestProcess(
            AccessibilityBusSession.python, [script, "damask-demo"], environment: session.environment(ProcessInfo.processInfo.environment))
        defer {
            walker.send("quit")
            walker.kill()
        }

        let found = try #require(Self.record(walker, "found"), "the walker found nothing:\n\(walker.transcript)")
        try #require(found["kind"] as? String == "found", "\(found)")
        let text = try #require(found["text"] as? String)
        #expect(text.hasPrefix("Notes: a TextView."))
        #expect(found["count"] as? Int == text.count)
        let states = Set(found["states"] as? [String] ?? [])
        #expect(states.isSuperset(of: ["multi line", "editable", "focusable", "selectable text"]), "\(states)")
        #expect(!states.contains("single line"))
        // The visual lines: the paragraph wraps at the view's width into several lines that
        // tile the text, none longer than a line of the view holds.
        let lines = (found["lines"] as? [[Any]] ?? []).map { (start: $0[0] as? Int ?? -1, end: $0[1] as? Int ?? -1, text: $0[2] as? String ?? "") }
        #expect(lines.count >= 2, "the notes wrap: \(lines)")
        #expect(lines.first?.start == 0 && lines.last?.end == text.count, "\(lines)")
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.end == $1.start }, "lines tile the text")
        #expect(lines.map(\.text).joined() == text)
        let extents = found["extents"] as? [Int] ?? []
        #expect(extents.count == 4 && extents[2] > 0 && extents[3] > 0, "character 0 has a box: \(extents)")
        #expect(found["offsetAtCentre"] as? Int == 0, "the offset at that box's centre is 0")

        let focused = try #require(Self.record(walker, "focused"))
        #expect(focused["grabbed"] as? Bool == true)
        let focusEvents = (focused["events"] as? [[String: Any]]) ?? []
        #expect(focusEvents.contains { $0["type"] as? String == "object:state-changed:focused" && $0["detail1"] as? Int == 1 && $0["role"] as? String == "text" })

        // End: the end of the first visual line (before the space it wraps after).
        let firstLine = try #require(lines.first)
        var mark = walker.lines.count
        try seat.press("End", in: demo)
        walker.send("report")
        let afterEnd = Self.record(walker, "events", from: mark)
        let lineEnd = firstLine.text.last == " " ? firstLine.end - 1 : firstLine.end
        #expect(Self.caretMoves(afterEnd).last == lineEnd, "End: \(String(describing: afterEnd))")
        #expect(afterEnd?["caret"] as? Int == lineEnd)
        // Down: onto the second visual line.
        mark = walker.lines.count
        try seat.press("Down", in: demo)
        walker.send("report")
        let afterDown = Self.record(walker, "events", from: mark)
        let caretAfterDown = Self.caretMoves(afterDown).last ?? -1
        #expect((lines[1].start...lines[1].end).contains(caretAfterDown), "Down: \(caretAfterDown) on line 1 \(lines[1])")
        // Ctrl+End, then a typed letter: caret-moved to the end, text-changed with the letter.
        mark = walker.lines.count
        try seat.press("ctrl+End", in: demo)
        walker.send("report")
        let afterCtrlEnd = Self.record(walker, "events", from: mark)
        #expect(Self.caretMoves(afterCtrlEnd).last == text.count, "Ctrl+End: \(String(describing: afterCtrlEnd))")
        mark = walker.lines.count
        try seat.type("x", in: demo)
        walker.send("report")
        let afterTyping = Self.record(walker, "events", from: mark)
        let typedEvents = (afterTyping?["events"] as? [[String: Any]]) ?? []
        #expect(typedEvents.contains {
            $0["type"] as? String == "object:text-changed:insert" && $0["detail1"] as? Int == text.count && $0["any"] as? String == "x"
        }, "typing: \(typedEvents)")
        #expect(afterTyping?["text"] as? String == text + "x")

        // EditableText: "Hi " at the start, as if typed.
        mark = walker.lines.count
        walker.send("edit")
        let edited = try #require(Self.record(walker, "edited", from: mark))
        #expect(edited["inserted"] as? Bool == true)
        #expect(edited["text"] as? String == "Hi " + text + "x")
        let editEvents = (edited["events"] as? [[String: Any]]) ?? []
        #expect(editEvents.contains { $0["type"] as? String == "object:text-changed:insert" && $0["detail1"] as? Int == 0 && $0["any"] as? String == "Hi " })
        #expect(editEvents.contains { $0["type"] as? String == "object:text-caret-moved" && $0["detail1"] as? Int == 3 })
        #expect(demo.process.isRunning, "the demo still runs")
    }
}
