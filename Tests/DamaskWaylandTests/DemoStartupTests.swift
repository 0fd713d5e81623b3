import DamaskTestSupport
import Foundation
import Testing

/// What the demo does at start-up: it makes only the scene it shows first, so the fonts
/// the other scenes need are not opened before they are shown.
@Suite("damask-demo start-up under Weston", .serialized, .exclusive, .integration)
struct DemoStartupTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")

    /// The font file fontconfig picks for sans-serif text in `language` (`fc-match`).
    static func fontFile(forLanguage language: String) throws -> String {
        let result = try TestProcess.run("/usr/bin/fc-match", ["-f", "%{file}", "sans-serif:lang=\(language)"], timeout: 20)
        try #require(result.status == 0, "fc-match failed: \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts the demo with `arguments` under a fresh Weston, waits for its first frame,
    /// and returns the font files (under /usr/share/fonts) it has mapped then.
    static func fontsMapped(_ arguments: [String]) throws -> Set<String> {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try ClientProcess(demo, arguments, environment: weston.clientEnvironment)
        // The demo's client is the one that makes a toplevel (desktop-shell's helper, which
        // also attaches buffers, makes none); its first attach of a buffer is its first frame.
        let toplevel = weston.waitForLogLines(containing: ".get_xdg_surface(", timeout: 30)
        let words = try #require(toplevel.first, "no toplevel from damask-demo \(arguments): \(client.standardError)")
            .split(separator: " ")
        let clientID = try #require(words.firstIndex(of: "client").map { words[$0 + 1] })
        let frames = weston.waitForLogLines(containing: "client \(clientID) rq wl_surface@", timeout: 30) { lines in
            lines.contains { $0.contains(".attach(wl_buffer@") }
        }
        try #require(
            frames.contains { $0.contains(".attach(wl_buffer@") }, "no frame from damask-demo \(arguments): \(client.standardError)")
        // The frame is drawn before it is attached: every font it used is open by now.
        // Read to the end of file: procfs reports a size of 0, and a read sized by the file's
        // size can come back short for maps longer than a page.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(client.pid)/maps"), "the demo has no maps")
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        withExtendedLifetime(client) {}  // its deinit ends the demo
        return Set(
            maps.split(separator: "\n").compactMap { line in
                line.range(of: "/usr/share/fonts/").map { String(line[$0.lowerBound...]) }
            })
    }

    @Test("At start only the first scene is made: the text scene's Bengali and Korean fonts are opened when it is shown, not before")
    func otherScenesAreMadeWhenFirstShown() throws {
        let textOnly = try Set(["bn", "ko"].map(Self.fontFile(forLanguage:)))
        try #require(textOnly.allSatisfy { !$0.contains("DejaVu") }, "fontconfig picks DejaVu for Bengali or Korean: \(textOnly)")

        let shown = try Self.fontsMapped(["--scene", "text"])
        #expect(textOnly.isSubset(of: shown), "the text scene should open \(textOnly); mapped: \(shown)")

        let atStart = try Self.fontsMapped([])
        #expect(!atStart.isEmpty, "the first scene draws text, so some font is mapped")
        #expect(atStart.isDisjoint(with: textOnly), "opened before the text scene was shown: \(atStart.intersection(textOnly))")
    }
}
