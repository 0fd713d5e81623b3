import DamaskTestSupport
import Foundation
import Testing

/// Shortcuts with a Russian layout on a real seat: Weston on Xvfb with the X keyboard set
/// by `setxkbmap` (Russian alone, and Russian with US as the second group, as a user who
/// switches between them has it), keys sent by xdotool by the keysyms the Russian layout
/// gives them.
@Suite("Shortcuts with a Russian layout (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoShortcutSeatTests {
    @Test("Ctrl+A, X, V edit the field, 3 switches scenes, S shows statistics and Ctrl+Q quits, with ru active",
        arguments: ["ru", "ru,us"])
    func russianShortcuts(layout: String) throws {
        let display = try XvfbDisplay(layout: layout)
        defer { display.stop() }
        let seat = try DemoOnSeat(arguments: ["--scene", "text"], display: display)
        try DemoLanguagesTests.focusField(of: seat)
        try display.xdotool("type", "--delay", "60", "привет")
        // The keys labelled A, X and V: ф, ч, м on the Russian layout.
        try seat.press("ctrl+Cyrillic_ef", "ctrl+Cyrillic_che", "ctrl+Cyrillic_em", "ctrl+Cyrillic_em", "Escape")
        let differing = try DemoLanguagesTests.waitForField("приветпривет", on: seat)
        #expect(differing < 20, "the field does not show the word pasted twice (\(differing) pixels differ)")
        try seat.press("3")
        let star = seat.waitForColor(0xFFCC00, at: (614, 300))
        #expect(star.map { DemoOnSeat.isClose($0, 0xFFCC00) } == true, "key 3 did not show the paths scene")
        // The key labelled S: ы.
        try seat.press("Cyrillic_yeru")
        let panel = seat.waitForColor(0x34373F, at: (570, 540))
        #expect(panel.map { DemoOnSeat.isClose($0, 0x34373F) } == true, "S did not show the statistics")
        // The key labelled Q: й.
        try display.run("xdotool", ["key", "ctrl+Cyrillic_shorti"])
        #expect(seat.process.waitForExit(timeout: 20) == 0, "Ctrl+Q did not quit: \(seat.process.transcript.suffix(2000))")
    }

    @Test("us,ru with grp:alt_shift_toggle, the Russian group locked by xdotool for its keys: Cyrillic text, Ctrl+A/C/V edit the field, S shows statistics, Ctrl+Q quits")
    func secondGroupRussian() throws {
        let display = try XvfbDisplay(layout: "us,ru", options: "grp:alt_shift_toggle")
        defer { display.stop() }
        let seat = try DemoOnSeat(arguments: ["--scene", "text"], display: display)
        try DemoLanguagesTests.focusField(of: seat)
        // xdotool sends a keysym of the second group by locking the X keyboard to that
        // group for the key (a group switch, as Alt+Shift makes; Weston passes the group
        // on in wl_keyboard.modifiers), so the demo sees the Russian layout active.
        try display.xdotool("type", "--delay", "60", "привет")
        // Ctrl+A, Ctrl+C, End, Ctrl+V on the keys labelled A, C, V: ф, с, м in the group.
        try seat.press("ctrl+Cyrillic_ef", "ctrl+Cyrillic_es", "End", "ctrl+Cyrillic_em", "Escape")
        let pasted = try DemoLanguagesTests.waitForField("приветпривет", on: seat)
        #expect(pasted < 20, "the field does not show привет typed, copied and pasted (\(pasted) pixels differ)")
        try seat.press("3")
        let star = seat.waitForColor(0xFFCC00, at: (614, 300))
        #expect(star.map { DemoOnSeat.isClose($0, 0xFFCC00) } == true, "key 3 did not show the paths scene")
        try seat.press("Cyrillic_yeru")
        let panel = seat.waitForColor(0x34373F, at: (570, 540))
        #expect(panel.map { DemoOnSeat.isClose($0, 0x34373F) } == true, "the key labelled S (ы) did not show the statistics")
        try display.run("xdotool", ["key", "ctrl+Cyrillic_shorti"])
        #expect(seat.process.waitForExit(timeout: 20) == 0, "Ctrl+Q (й) did not quit: \(seat.process.transcript.suffix(2000))")
    }
}

/// Keyboard-only use on a real seat (Weston on Xvfb, xdotool), as a new user tries it.
@Suite("Keyboard-only use on a real seat (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoKeyboardSeatTests {
    @Test("Tab puts the blue ring round the sidebar, Down changes the scene, Tab takes the ring on to the scene's buttons and Shift+Tab brings it back")
    func tabThroughTheSidebarAndBack() throws {
        let display = try XvfbDisplay(layout: "us")
        defer { display.stop() }
        let seat = try DemoOnSeat(arguments: [], display: display)
        // The ring round the sidebar: 2 points wide, 2 points right of its edge (x 182…183).
        let ring: UInt32 = 0x2E70F3, background: UInt32 = 0xEEF0F5
        try seat.press("Tab")
        #expect(seat.waitForColor(ring, at: (182, 250)).map { DemoOnSeat.isClose($0, ring) } == true, "Tab: no ring round the sidebar")
        try seat.press("Down", "Down")
        #expect(seat.waitForColor(0xFFCC00, at: (614, 300)).map { DemoOnSeat.isClose($0, 0xFFCC00) } == true, "Down Down did not show the paths scene")
        try seat.press("Tab")
        #expect(seat.waitForColor(background, at: (182, 250)).map { DemoOnSeat.isClose($0, background) } == true, "Tab: the ring stayed on the sidebar")
        try seat.press("shift+Tab")
        #expect(seat.waitForColor(ring, at: (182, 250)).map { DemoOnSeat.isClose($0, ring) } == true, "Shift+Tab: the ring did not come back to the sidebar")
        #expect(seat.quit() == 0)
    }
}
