import DamaskTestSupport
import Foundation
import Testing

/// What the demo does at start-up: it makes only the scene it shows first, so the fonts
/// the other scenes need are not opened before they are shown; and the fonts it opens are
/// read through a stream, not mapped.
@Suite("damask-demo start-up under Weston", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoStartupTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")

    /// The font file fontconfig picks for sans-serif text in `language` (`fc-match`).
    static func fontFile(forLanguage language: String) throws -> String {
        let result = try TestProcess.run("/usr/bin/fc-match", ["-f", "%{file}", "sans-serif:lang=\(language)"], timeout: 20)
        try #require(result.status == 0, "fc-match failed: \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The font files (under /usr/share/fonts) the demo had open, and those it had mapped.
    struct FontFiles {
        var open: Set<String>
        var mapped: Set<String>
    }

    /// Starts the demo with `arguments` under a fresh Weston, waits for its first frame,
    /// and returns the font files it has open (FreeType reads each through a descriptor it
    /// keeps for the life of the face) and mapped then.
    static func fontFiles(_ arguments: [String]) throws -> FontFiles {
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
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(client.pid)/fd")
        let open = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(client.pid)/fd/\($0)") }
        withExtendedLifetime(client) {}  // its deinit ends the demo
        return FontFiles(
            open: Set(open.filter { $0.hasPrefix("/usr/share/fonts/") }),
            mapped: Set(
                maps.split(separator: "\n").compactMap { line in
                    line.range(of: "/usr/share/fonts/").map { String(line[$0.lowerBound...]) }
                }))
    }

    @Test("At start only the first scene is made: the text scene's Bengali and Korean fonts are opened when it is shown, not before")
    func otherScenesAreMadeWhenFirstShown() throws {
        let textOnly = try Set(["bn", "ko"].map(Self.fontFile(forLanguage:)))
        try #require(textOnly.allSatisfy { !$0.contains("DejaVu") }, "fontconfig picks DejaVu for Bengali or Korean: \(textOnly)")

        let shown = try Self.fontFiles(["--scene", "text"]).open
        #expect(textOnly.isSubset(of: shown), "the text scene should open \(textOnly); open: \(shown)")

        let atStart = try Self.fontFiles([]).open
        #expect(!atStart.isEmpty, "the first scene draws text, so some font is open")
        #expect(atStart.isDisjoint(with: textOnly), "opened before the text scene was shown: \(atStart.intersection(textOnly))")
    }

    @Test("Font files are read, not mapped: none is in the demo's maps after its first frame")
    func fontFilesAreNotMapped() throws {
        let files = try Self.fontFiles([])
        #expect(!files.open.isEmpty, "the first scene draws text, so some font is open")
        #expect(files.mapped.isEmpty, "font files mapped (each costs up to its size in resident pages): \(files.mapped)")
    }
}
