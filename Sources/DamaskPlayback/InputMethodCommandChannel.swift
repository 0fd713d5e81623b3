import DamaskGraphics
import Foundation

/// Hands a script's `ime` updates to a compositor's input method that reads commands from a
/// FIFO (the tests' scripted input method for zwp_input_method_v1 does, named by
/// `DAMASK_TEST_IM_COMMANDS`), so that live playback takes the real protocol path: the input
/// method sends the update to the compositor, which sends it to the window's text input.
///
/// One line per update, in the input method's script syntax: `preedit "TEXT" cursor N` (N
/// negative: hidden), `commit "TEXT"`, or `delete INDEX LENGTH` then `commit ""` (v1 applies
/// a deletion with the commit after it). Strings escape `"`, `\` and bytes below 0x20 as
/// `\xNN`. Each write opens the FIFO without blocking and closes it again (the descriptor is
/// owned by ``send(_:)`` for its duration); the reader keeps the FIFO open.
public struct InputMethodCommandChannel: Sendable {
    /// The FIFO's path.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// An error writing to the FIFO, naming it.
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The lines that make the input method send `update`.
    public static func lines(for update: InputMethodUpdate) -> [String] {
        var lines: [String] = []
        if update.deleteBefore > 0 || update.deleteAfter > 0 {
            lines.append("delete \(-update.deleteBefore) \(update.deleteBefore + update.deleteAfter)")
            lines.append("commit \(quoted(update.commit))")
        } else if !update.commit.isEmpty {
            lines.append("commit \(quoted(update.commit))")
        }
        if !update.preedit.isEmpty || lines.isEmpty {
            let cursor = update.preeditCursor.map { String($0.lowerBound) } ?? "-1"
            lines.append("preedit \(quoted(update.preedit)) cursor \(cursor)")
        }
        return lines
    }

    /// The line that makes the input method send `setting`: `language "TAG"` or
    /// `direction auto|ltr|rtl` (zwp_input_method_v1's `language`, `text_direction`).
    public static func lines(for setting: InputMethodSetting) -> [String] {
        switch setting {
        case .language(let tag): ["language \(quoted(tag))"]
        case .direction(let direction): ["direction \(InputMethodSetting.word(for: direction))"]
        }
    }

    /// Writes `update`'s lines to the FIFO in one write (atomic for a FIFO up to PIPE_BUF
    /// bytes; longer updates are written whole, in order).
    public func send(_ update: InputMethodUpdate) throws {
        try writeLines(Self.lines(for: update))
    }

    /// Writes `setting`'s line to the FIFO.
    public func send(_ setting: InputMethodSetting) throws {
        try writeLines(Self.lines(for: setting))
    }

    /// Writes `lines` to the FIFO in one write.
    private func writeLines(_ lines: [String]) throws {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw WriteError(description: "\(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw WriteError(description: "\(path): \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }

    /// `text` quoted for the input method's script: `"` and `\` escaped, bytes 0x01…0x1F and
    /// 0x7F as `\xNN` (NUL, which the script cannot carry, is left out).
    static func quoted(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case 0: continue
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x01..<0x20, 0x7F: out += Array(String(format: "\\x%02X", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }
}
