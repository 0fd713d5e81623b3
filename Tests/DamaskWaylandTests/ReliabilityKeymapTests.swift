import CWaylandClient
import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskWayland

/// A keymap from the compositor that cannot be used — an unknown format, a descriptor that
/// is not a file, a size larger than the file, bytes that do not compile — is an error with
/// a message, never a crash (`WaylandKeyboard` logs it and ignores the keyboard).
@Suite("Reliability: bad keymaps", .exclusive, .timeLimit(.minutes(5)))
@MainActor
struct ReliabilityKeymapTests {
    static let xkbV1 = WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue

    /// An unlinked temporary file holding `bytes`, open for reading; the caller closes it.
    func descriptor(holding bytes: [UInt8]) throws -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-keymap-\(UUID())").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        unlink(path)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        return fd
    }

    /// The problem `compileKeymap` reports, or nil when it compiled.
    func problem(format: UInt32 = xkbV1, fd: Int32, size: UInt32) -> String? {
        do {
            _ = try WaylandKeyboard.compileKeymap(format: format, fd: fd, size: size)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("A keymap the compositor sends as an xkb v1 file compiles")
    func validKeymapCompiles() throws {
        let text = Array(try XKBKeyboard(layout: "us").keymapText.utf8) + [0]
        let fd = try descriptor(holding: text)
        defer { close(fd) }
        let keyboard = try WaylandKeyboard.compileKeymap(format: Self.xkbV1, fd: fd, size: UInt32(text.count))
        #expect(keyboard.translate(30 + 8).text == "a")
    }

    @Test("An unknown keymap format or no keymap is reported")
    func unknownFormatIsReported() throws {
        let text = Array(try XKBKeyboard(layout: "us").keymapText.utf8) + [0]
        let fd = try descriptor(holding: text)
        defer { close(fd) }
        #expect(problem(format: 7, fd: fd, size: UInt32(text.count)) == "the compositor's keymap has an unknown format (7)")
        #expect(problem(format: WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue, fd: fd, size: 0) == "the compositor sends no keymap")
    }

    @Test("Garbage bytes, a closed descriptor, a pipe, an empty keymap and a size beyond the file are reported")
    func garbageKeymapsAreReported() throws {
        var random = SeededRandom(seed: 0x5EED_0057)
        let garbage = (0..<5000).map { _ in UInt8.random(in: 1...255, using: &random) } + [0]
        let garbageFD = try descriptor(holding: garbage)
        defer { close(garbageFD) }
        #expect(problem(fd: garbageFD, size: UInt32(garbage.count)) == "the compositor's keymap does not compile")

        let closedFD = try descriptor(holding: garbage)
        close(closedFD)
        #expect(problem(fd: closedFD, size: 100)?.hasPrefix("cannot read the keymap: ") == true)

        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(problem(fd: ends[0], size: 4096) == "the keymap is 4096 bytes but its file has 0")

        #expect(problem(fd: garbageFD, size: 0) == "the compositor's keymap is empty")

        let short = try descriptor(holding: Array("xkb_keymap {".utf8))
        defer { close(short) }
        #expect(problem(fd: short, size: 1 << 20) == "the keymap is 1048576 bytes but its file has 12")
    }
}
