@testable import DamaskWayland
import DamaskXKB
import DamaskGraphics
import DamaskInspect
import DamaskPlayback
import Foundation

/// One libFuzzer target: a function from arbitrary bytes to a check that traps on a bug.
///
/// Each target feeds untrusted input to one parser or decoder and checks what it can of
/// the answer (a round trip, a bound, a location inside the input). A wrong answer calls
/// `fatalError`, which libFuzzer (and the corpus replay of `damask-fuzz`) report as a crash
/// with the input saved. Runs on the main thread (libFuzzer's, or the replay's).
enum FuzzTarget: String, CaseIterable {
    /// Script lexer and parser: parse, print, parse again; errors point into the input.
    case script
    /// PNG decoder: decode; what decodes re-encodes and decodes to the same pixels.
    case png
    /// The inspector's wire decoder over every message table it knows.
    case wire
    /// xkb keymaps as a compositor sends them, then key presses through the compose table.
    case keymap
    /// The text shaper: arbitrary UTF-8 with bidi controls measured, hit-tested and selected.
    case text

    /// Runs the target on one input.
    @MainActor
    func run(_ data: [UInt8]) {
        switch self {
        case .script: Self.script(data)
        case .png: Self.png(data)
        case .wire: Self.wire(data)
        case .keymap: Self.keymap(data)
        case .text: Self.text(data)
        }
    }

    /// One parser for every input: it caches the keymaps scripts name (`type`, `key`), which
    /// compiled from scratch per input made the target run at 4–7 inputs a second.
    @MainActor static let parser = ScriptParser()

    @MainActor
    static func script(_ data: [UInt8]) {
        let lineCount = data.split(separator: 0x0A, omittingEmptySubsequences: false).count
        do {
            let script = try parser.parse(bytes: data, file: "fuzz.damask")
            let printed = ScriptPrinter.print(script)
            let again: Script
            do {
                again = try parser.parse(printed, file: "printed.damask")
            } catch {
                fatalError("the printed script does not parse: \(error)\n\(printed)")
            }
            let reprinted = ScriptPrinter.print(again)
            guard reprinted == printed else { fatalError("print(parse(print(s))) differs:\n\(printed)\n---\n\(reprinted)") }
        } catch {
            let location = error.location
            guard location.file == "fuzz.damask", (1...max(1, lineCount)).contains(location.line), location.column >= 1 else {
                fatalError("error location \(location) outside the input of \(lineCount) lines: \(error)")
            }
        }
    }

    static func png(_ data: [UInt8]) {
        guard let bitmap = try? Bitmap(pngData: data) else { return }
        guard bitmap.width > 0, bitmap.height > 0 else { fatalError("decoded an empty bitmap") }
        let encoded: [UInt8]
        do { encoded = try bitmap.pngData() } catch { fatalError("a decoded bitmap does not encode: \(error)") }
        guard let again = try? Bitmap(pngData: encoded) else { fatalError("an encoded bitmap does not decode") }
        guard again.width == bitmap.width, again.height == bitmap.height,
            Bitmap.difference(bitmap, again, tolerance: 0).differingPixelCount == 0
        else { fatalError("decode(encode(decode(x))) differs from decode(x)") }
    }

    /// The interfaces in a fixed order, so a byte picks the same one in every run.
    static let interfaces = WireInterface.known.values.sorted { $0.name < $1.name }

    static func wire(_ data: [UInt8]) {
        guard data.count >= 3 else { return }
        let interface = interfaces[Int(data[0]) % interfaces.count]
        let isEvent = data[1] & 0x80 != 0
        let messages = isEvent ? interface.events : interface.requests
        guard !messages.isEmpty else { return }
        let message = messages[Int(data[1] & 0x7F) % messages.count]
        let fdCount = Int(data[2] % 4)
        var fds = ArraySlice((0..<Int32(fdCount)).map { 1000 + $0 })
        let body = Array(data.dropFirst(3))
        if let header = WireCodec.header(in: body, at: 0) {
            guard header.size >> 16 == 0, header.opcode >> 16 == 0 else { fatalError("header fields out of 16 bits") }
        }
        do {
            let values = try WireCodec.decode(body[...], as: message, objectID: 7, interface: interface.name, fds: &fds)
            guard values.count == message.arguments.count else {
                fatalError("\(values.count) values for \(message.arguments.count) arguments of \(interface.name).\(message.name)")
            }
        } catch {
            guard "\(error)".contains(interface.name) else { fatalError("an error that does not name the interface: \(error)") }
        }
    }

    /// The US keymap with the en_US.UTF-8 compose table, compiled once: each input gets a
    /// keyboard in a fresh state sharing them (compiling the compose table per input, about
    /// 0.2 s under ASan, was most of the target's time).
    @MainActor static let usKeyboard: XKBKeyboard = {
        guard let keyboard = try? XKBKeyboard(layout: "us", composeLocale: "en_US.UTF-8") else {
            fatalError("the us layout does not compile")
        }
        return keyboard
    }()

    @MainActor
    static func keymap(_ data: [UInt8]) {
        // The first byte splits the input: keymap text, then key codes to press.
        guard let split = data.firstIndex(of: 0) else {
            if let xkb = XKBKeymap(text: String(decoding: data, as: UTF8.self)) {
                _ = try? XKBKeyboard(keymap: xkb, composeTableOf: usKeyboard)
            }
            return
        }
        let text = String(decoding: data[..<split], as: UTF8.self)
        let keyboard: XKBKeyboard
        if text.isEmpty {
            guard let layout = try? XKBKeyboard(composeTableOf: usKeyboard) else { fatalError("a keyboard on the us keymap fails") }
            keyboard = layout
        } else {
            guard let xkb = XKBKeymap(text: text), let compiled = try? XKBKeyboard(keymap: xkb, composeTableOf: usKeyboard)
            else { return }
            keyboard = compiled
        }
        var index = data.index(after: split)
        while index + 4 <= data.endIndex {
            let code = data[index..<index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let keycode = code & 0x100 != 0 ? code : 8 + code % 248
            index += 4
            guard keyboard.knows(keycode) else { continue }
            let translation = keyboard.press(keycode)
            guard !translation.text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                fatalError("control characters in typed text for key \(keycode)")
            }
            keyboard.updateModifiers(depressed: code >> 8 & 0xFF, latched: 0, locked: code >> 16 & 0x3, group: 0)
        }
    }

    static let font = Font.system(size: 13)

    static func text(_ data: [UInt8]) {
        let string = String(decoding: data, as: UTF8.self)
        let count = string.count
        let metrics = font.measure(string)
        guard metrics.width.isFinite, metrics.width >= 0 else { fatalError("width \(metrics.width)") }
        let extents = font.characterExtents(in: string)
        guard extents.allSatisfy({ $0.lowerBound.isFinite && $0.upperBound.isFinite }) else { fatalError("extents not finite") }
        let x = CGFloat(data.first ?? 0) - 20
        let index = font.characterIndex(closestTo: x, in: string)
        guard (0...count).contains(index) else { fatalError("character index \(index) outside 0...\(count)") }
        let caret = font.caretOffset(atCharacter: index, in: string)
        guard caret.isFinite else { fatalError("caret not finite") }
        let lower = count == 0 ? 0 : Int(data.last ?? 0) % (count + 1)
        let ranges = font.selectionRanges(forCharacters: lower..<max(lower, index), in: string)
        guard ranges.allSatisfy({ $0.lowerBound.isFinite && $0.upperBound.isFinite }) else { fatalError("selection not finite") }
        _ = font.isRightToLeft(string)
    }
}
