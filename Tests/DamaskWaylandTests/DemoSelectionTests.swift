import DamaskTestSupport
import Foundation
import Testing

/// The demo's clipboard and primary selection with other clients under mutter:
/// `wl-copy`/`wl-paste` and a second Damask window, with RemoteDesktop input (real key and
/// button serials).
///
/// Under mutter there are no screenshots, so the field's text is read back as a user would:
/// select all, copy, `wl-paste` (repeated until it holds, since a paste arrives through a
/// pipe some time after Ctrl+V).
@Suite("Demo selections with other clients under GNOME (mutter)", .serialized, .exclusive, .integration)
struct DemoSelectionTests {
    /// The text field's middle, in content points (text scene at a 640×480 window).
    static let field = (x: 300, y: 180)
    static let smallWindow = ["--scene", "text", "--size", "640x480"]

    /// The field's text as Ctrl+A, Ctrl+C and `wl-paste` see it, once it equals `expected`
    /// (or what it was when 15 s passed).
    static func fieldText(_ demo: DemoOnMutter.Demo, on mutter: DemoOnMutter, expecting expected: String) throws -> String {
        let deadline = Date().addingTimeInterval(15)
        var last = ""
        repeat {
            try mutter.refocus(demo, clickingAt: field.x, field.y)
            try mutter.press("ctrl+a", "ctrl+c", in: demo)
            let pasted = try mutter.wlPaste(["--no-newline"])
            last = pasted.output
            if pasted.status == 0, last == expected { return last }
            usleep(200_000)
        } while Date() < deadline
        return last
    }

    /// Empties `demo`'s focused field (Ctrl+A, BackSpace: harmless if repeated) and runs
    /// `input` (keys into it) until no key of it was held past the repeat delay, at most 3
    /// times.
    static func typeWithoutHeldKeys(_ demo: DemoOnMutter.Demo, on mutter: DemoOnMutter, _ input: () throws -> Void) throws {
        for _ in 1...3 {
            try mutter.press("ctrl+a", "BackSpace", in: demo)
            let start = demo.process.lines.count
            try input()
            if !demo.keyWasHeld(since: start) { return }
        }
        Issue.record("mutter held a key past the repeat delay in 3 attempts (machine load): \(demo.process.lines.filter { $0.contains(".key(") }.suffix(20))")
    }

    /// Presses Ctrl+V in `demo` and waits until the pasted text is drawn: the text comes
    /// through a pipe later, and a Ctrl+A before it arrives would have it replace the line.
    static func paste(into demo: DemoOnMutter.Demo, on mutter: DemoOnMutter) throws {
        let commits = demo.commits.count
        try mutter.press("ctrl+v", in: demo)
        try #require(demo.waitForTextDamage(beyond: commits), "the pasted text was never drawn")
    }

    /// Clicks `demo`'s field with the left button.
    static func clickField(_ demo: DemoOnMutter.Demo, on mutter: DemoOnMutter, x: Int = field.x) throws {
        mutter.move(to: x, field.y, in: demo)
        try mutter.click(in: demo)
    }

    @Test("mutter: Ctrl+C in the field reaches wl-paste, and wl-copy's text pastes into the field with Ctrl+V")
    func clipboardWithWlClipboardUnderMutter() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let demo = try mutter.launch(Self.smallWindow)
        try Self.clickField(demo, on: mutter)
        try Self.typeWithoutHeldKeys(demo, on: mutter) { try mutter.type("hello", in: demo) }
        try mutter.press("ctrl+a", "ctrl+c", in: demo)
        #expect(demo.requests(containing: "wl_data_device@").contains { $0.contains(".set_selection(") })
        let pasted = try mutter.wlPaste(["--no-newline"])
        #expect(pasted.status == 0 && pasted.output == "hello", "wl-paste: \(pasted.status) \(pasted.output)")

        let copied = try mutter.wlCopy([" from wl-copy"])
        #expect(copied.status == 0, "wl-copy: \(copied.output)")
        try mutter.refocus(demo, clickingAt: Self.field.x, Self.field.y)
        try Self.clickField(demo, on: mutter)
        try Self.typeWithoutHeldKeys(demo, on: mutter) { try mutter.type("hello", in: demo) }
        try Self.paste(into: demo, on: mutter)
        let text = try Self.fieldText(demo, on: mutter, expecting: "hello from wl-copy")
        #expect(text == "hello from wl-copy")
        #expect(demo.requests(containing: "wl_data_offer@").contains { $0.contains(".receive(") }, "the paste read an offer")
    }

    @Test("mutter: text selected in the field (Shift+Home) reaches wl-paste --primary")
    func primarySelectionReachesWlPasteUnderMutter() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let demo = try mutter.launch(Self.smallWindow)
        try Self.clickField(demo, on: mutter)
        try Self.typeWithoutHeldKeys(demo, on: mutter) { try mutter.type("primary words", in: demo) }
        try mutter.press("shift+Home", in: demo)
        #expect(demo.requests(containing: "zwp_primary_selection_device_v1@").contains { $0.contains(".set_selection(") })
        var primary = try mutter.wlPaste(["--primary", "--no-newline"])
        let deadline = Date().addingTimeInterval(10)
        while primary.output != "primary words" && Date() < deadline {
            usleep(100_000)
            primary = try mutter.wlPaste(["--primary", "--no-newline"])
        }
        #expect(primary.status == 0 && primary.output == "primary words", "wl-paste --primary: \(primary.status) \(primary.output)")
    }

    @Test("mutter: wl-copy --primary's text pastes into the field with a middle click")
    func middleClickPastesOtherClientsPrimaryUnderMutter() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let demo = try mutter.launch(Self.smallWindow)
        try Self.clickField(demo, on: mutter)
        try Self.typeWithoutHeldKeys(demo, on: mutter) { try mutter.type("ab", in: demo) }
        // The field's own selection (Ctrl+A) was the primary selection until wl-copy took it.
        let copied = try mutter.wlCopy(["--primary", "from wl-copy"])
        #expect(copied.status == 0, "wl-copy --primary: \(copied.output)")
        try mutter.refocus(demo, clickingAt: Self.field.x, Self.field.y)
        try Self.clickField(demo, on: mutter)
        mutter.move(to: Self.field.x + 200, Self.field.y, in: demo)
        let commits = demo.commits.count
        try mutter.click(button: 274, in: demo)
        let drawn = demo.waitForTextDamage(beyond: commits)
        #expect(drawn, "the middle click drew no pasted text: \(demo.process.transcript.suffix(6000))")
        #expect(
            demo.requests(containing: "zwp_primary_selection_offer_v1@").contains { $0.contains(".receive(") },
            "the middle click read wl-copy's primary selection offer")
        let text = try Self.fieldText(demo, on: mutter, expecting: "abfrom wl-copy")
        #expect(text == "abfrom wl-copy")
    }

    @Test("mutter: text copied in one Damask window pastes into another, both ways")
    func clipboardBetweenTwoDemosUnderMutter() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let first = try mutter.launch(Self.smallWindow)
        try Self.clickField(first, on: mutter)
        try Self.typeWithoutHeldKeys(first, on: mutter) { try mutter.type("from a", in: first) }
        try mutter.press("ctrl+a", "ctrl+c", in: first)

        let second = try mutter.launch(Self.smallWindow)
        try Self.clickField(second, on: mutter)
        try Self.typeWithoutHeldKeys(second, on: mutter) { try mutter.type("b:", in: second) }
        try Self.paste(into: second, on: mutter)
        let secondText = try Self.fieldText(second, on: mutter, expecting: "b:from a")
        #expect(secondText == "b:from a")
        // The second window now owns the clipboard ("b:from a", copied by fieldText); the
        // first pastes it.
        try Self.clickField(first, on: mutter)
        try #require(first.waitForFocus())
        try Self.typeWithoutHeldKeys(first, on: mutter) { try mutter.type("from a", in: first) }
        try Self.paste(into: first, on: mutter)
        let firstText = try Self.fieldText(first, on: mutter, expecting: "from ab:from a")
        #expect(firstText == "from ab:from a")
    }
}
