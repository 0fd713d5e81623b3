import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

/// Hostile script files and recorder input: long tokens, byte-order marks, sizes beyond the
/// buffer limits, coordinates beyond the parser's ranges, reference images decoded once.
@MainActor
@Suite("Hostile script input", .timeLimit(.minutes(5)))
struct HostileInputTests {
    @Test("A 256 KiB token of NULs is reported in well under a second, quoted short with …")
    func longTokenIsReportedQuicklyAndShort() throws {
        let bytes = [UInt8](repeating: 0, count: 256 * 1024) + [UInt8(ascii: "\n")]
        let started = ThreadCPUTime.now()
        let error = #expect(throws: ScriptError.self) {
            _ = try ScriptParser().parse(bytes: bytes, file: "nul.damask")
        }
        // CPU time, not wall-clock: a loaded machine slows the run, not the work.
        let cpu = ThreadCPUTime.since(started)
        #expect(cpu < 2, "linear, not quadratic: \(cpu) s of CPU")
        let description = try #require(error?.description)
        #expect(description.hasPrefix("nul.damask:1:1: error: unknown command '\\u{0}\\u{0}"))
        #expect(description.contains("…'"), "\(description.prefix(200))")
        #expect(description.count < 1_200, "\(description.count) characters")
        #expect(!description.contains("\n"))
    }

    @Test("Fuzz, bounded: 60 fixed-seed scripts with tokens up to 32 KiB of any bytes each parse or fail in linear time with a short one-line message")
    func longTokenFuzzStaysLinearAndShort() {
        var random = SeededRandom(seed: 0x13_DA3A5C)
        let commands = ["click", "move", "type", "wait", "expect", "size", "key", "scroll", "", "scene"]
        let started = ThreadCPUTime.now()
        for _ in 0..<60 {
            var bytes = Array(commands[random.next(commands.count)].utf8)
            bytes.append(random.next(2) == 0 ? UInt8(ascii: " ") : UInt8(ascii: "\""))
            let length = 1 + random.next(32 * 1024)
            // Mostly control characters and quotes, which messages must escape.
            let alphabet: [UInt8] = [0, 1, 7, 9, 11, 27, 34, 39, 92, 127, 0xC2, 0x85, 0xEF, 0xBB, 0xBF, 65]
            bytes += (0..<length).map { _ in alphabet[random.next(alphabet.count)] }
            bytes.append(UInt8(ascii: "\n"))
            do {
                _ = try ScriptParser.withoutReferenceImages.parse(bytes: bytes, file: "fuzz.damask")
            } catch {
                #expect(error.description.count < 1_200, "\(error.description.count) characters")
                #expect(!error.description.contains("\n"))
                #expect(error.description.hasPrefix("fuzz.damask:1:"))
            }
        }
        let cpu = ThreadCPUTime.since(started)
        #expect(cpu < 60, "60 long-token scripts took \(cpu) s of CPU")
    }

    @Test("A message is cut at the limit however its quotes fall")
    func messageLengthIsBounded() {
        let error = ScriptError(String(repeating: "x", count: 50_000), at: SourceLocation(file: "f", line: 1, column: 1))
        #expect(error.message.count == ScriptError.messageLimit + 1)
        #expect(error.message.hasSuffix("…"))
    }

    @Test("A UTF-8 byte-order mark before the first command is accepted")
    func byteOrderMarkIsAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("wait frames 1\nclick 1 2\n".utf8)
        let script = try ScriptParser().parse(bytes: bytes, file: "bom.damask")
        #expect(script.commands == [.wait(.frames(1)), .click(CGPoint(x: 1, y: 2), button: .left, count: 1)])
    }

    @Test("A byte-order mark elsewhere is shown in the message, not invisible")
    func strayByteOrderMarkIsVisible() {
        let error = #expect(throws: ScriptError.self) {
            _ = try ScriptParser().parse("wait frames 1\n\u{FEFF}click 1 2\n", file: "bom.damask")
        }
        #expect(error?.description == "bom.damask:2:1: error: unknown command '\\u{feff}click'")
    }

    @Test("size 5000x5000 at scale 8 is reported with the buffer it would need, not ignored")
    func oversizedResizeIsReported() async throws {
        let fixture = PlaybackFixture()
        await #expect {
            _ = try await fixture.play("scale 8\nsize 5000x5000")
        } throws: { error in
            (error as? PlaybackError)?.description
                == "play.dsc:2:1: error: size 5000x5000 at scale 8 needs a 40000×40000 pixel buffer, more than the limit (16384 pixels a side, 33177600 pixels in all)"
        }
        #expect(fixture.surface.size == CGSize(width: 100, height: 80))
    }

    @Test("The recorder clamps compositor values to the parser's ranges, so its script always parses")
    func recorderOutputAlwaysParses() throws {
        let recorder = ScriptRecorder()
        recorder.record(.pointer(PointerEvent(kind: .moved, location: CGPoint(x: 8_388_595.99609375, y: -8_388_608))), at: 1)
        recorder.record(.scroll(ScrollEvent(location: CGPoint(x: 3, y: 4), discreteX: Int(Int32.max), discreteY: Int(Int32.min))), at: 50)
        recorder.record(.scroll(ScrollEvent(location: CGPoint(x: 3, y: 4), deltaY: .infinity)), at: 100)
        recorder.record(.touch(TouchEvent(phase: .began, id: -5, location: CGPoint(x: 1, y: 1))), at: 150)
        recorder.record(.touch(TouchEvent(phase: .began, id: 2, location: CGPoint(x: 2e9, y: 1))), at: 4_000_000_000 / 2)
        let text = recorder.script()
        let script = try ScriptParser().parse(text, file: "recorded.damask")
        #expect(script.commands.contains(.move(CGPoint(x: 1_000_000, y: -1_000_000))), "\(text)")
        #expect(script.commands.contains(.scroll(dx: 10_000, dy: -10_000)), "\(text)")
        #expect(script.commands.contains(.touchDown(id: 2, at: CGPoint(x: 1_000_000, y: 1))), "\(text)")
        #expect(!text.contains("-5"), "a negative touch id is left out: \(text)")
        #expect(script.commands.contains(.wait(.duration(milliseconds: 3_600_000))), "\(text)")
    }

    @Test("A reference image is decoded once, by the parser: the check uses that copy")
    func referenceImageIsDecodedOnce() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixture = PlaybackFixture()
        _ = try await fixture.play("wait frames 1")
        let presented = try #require(fixture.surface.presentedBitmap)
        try presented.writePNG(to: directory + "/screen.png")
        let script = try ScriptParser().parse("expect image screen.png", file: "once.dsc", baseDirectory: directory)
        #expect(script.referenceImages[directory + "/screen.png"]?.width == 100)
        // Gone from disk: a second decode would fail.
        try FileManager.default.removeItem(atPath: directory + "/screen.png")
        let report = try await ScriptPlayer(window: fixture.window).play(script)
        #expect(report.failures.isEmpty, "\(report.failures)")
    }
}

extension ScriptParser {
    /// A parser that does not open `expect image` files (fuzzed paths name nothing real).
    static var withoutReferenceImages: ScriptParser {
        let parser = ScriptParser()
        parser.validatesReferenceImages = false
        return parser
    }
}
