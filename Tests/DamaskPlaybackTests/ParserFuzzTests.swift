import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskPlayback

// Exclusive: a CPU-bound half minute that would slow the timing-sensitive tests beside it.
@Suite("Parser fuzzing", .exclusive, .timeLimit(.minutes(5)))
struct ParserFuzzTests {
    /// Valid scripts the mutations start from.
    static let seeds: [String] = [
        ScriptPrinterTests.sample,
        "size 320x240\nclick 10 10 right double\nexpect draws 1\nexpect no-damage\n",
        "type \"Hello, \\\"world\\\"\\n\"\nkey ctrl+shift+Return\nwait frames 2\nwait idle\n",
        "drag 0 0 100 100 steps 5 # drag\ntouch down 0 1 1\ntouch move 0 2 2\ntouch up 0\n",
        "expect pixel 10 10 #ff0000 ±8\nexpect damage exactly 0 0 10 10 5 5 1 1\nscroll 0 -3\n",
        "layout de\ntype \"Grüße\"\nscene blue 2\nlayout us:intl\nkey alt+F4\n",
    ]

    /// A registered command for the mutations to exercise: `scene NAME [SPEED]`.
    static let registry = ScriptCommandRegistry([
        ScriptCommandDefinition(
            name: "scene", usage: "scene NAME [SPEED]",
            parse: { (reader: inout ArgumentReader) throws(ScriptError) -> String in
                let name = try reader.word("NAME")
                if reader.peek() != nil { _ = try reader.integer("SPEED", in: 1...10) }
                return name
            },
            handler: { _, _ in })
    ])

    /// Bytes that make mutations interesting: token boundaries, quotes, escapes, numbers.
    static let fragments: [[UInt8]] = [
        " ", "\t", "\n", "\r\n", "\"", "\\", "\\u{", "}", "#", "#ffffff", "±", "+-", "x", "e",
        "-", ".", "0", "9", "1e999", "nan", "ü", "😀", "\u{FFFD}", "move", "expect", "pixel",
        "damage", "within", "wait", "frames", "ms", "s", "key", "type", "ctrl+", "+", "touch",
        "layout", "steps", "double", "scene", "\0",
    ].map { Array($0.utf8) }

    @Test("a hundred thousand random and mutated inputs never crash and report in-range locations")
    func fuzz() {
        var random = SeededRandom(seed: 0xDA3A5C)
        let parser = ScriptParser(registry: Self.registry)
        var failures = 0
        var successes = 0
        var problems: [String] = []
        for iteration in 0..<100_000 {
            let bytes: [UInt8]
            if iteration % 4 == 0 {
                bytes = (0..<random.next(80)).map { _ in UInt8(random.next(256)) }
            } else {
                bytes = mutate(Array(Self.seeds[random.next(Self.seeds.count)].utf8), &random)
            }
            // Decoded once here (as `parse(bytes:file:)` would) so the check can reuse it.
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try parser.parse(text, file: "fuzz.dsc")
                successes += 1
            } catch {
                failures += 1
                if let problem = check(error, text, bytes), problems.count < 5 {
                    problems.append(problem)
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(failures > 10_000)
        #expect(successes > 1_000)
    }

    /// A description of what is wrong with `error` for input `bytes`, or nil if it is in range.
    private func check(_ error: ScriptError, _ text: String, _ bytes: [UInt8]) -> String? {
        // Scalars per line, lines split at "\n" as the parser splits them.
        var lineLengths = [0]
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lineLengths.append(0) } else { lineLengths[lineLengths.count - 1] += 1 }
        }
        let location = error.location
        guard location.file == "fuzz.dsc", (1...lineLengths.count).contains(location.line),
            (1...lineLengths[location.line - 1] + 1).contains(location.column)
        else { return "out of range: \(error) for \(bytes)" }
        let expected = "fuzz.dsc:\(location.line):\(location.column): error: \(error.message)"
        guard error.description == expected, !error.message.isEmpty,
            !error.description.contains("\n")
        else { return "bad description: \(error)" }
        return nil
    }

    /// One to four random edits of `bytes`.
    private func mutate(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + random.next(4)) {
            let position = bytes.isEmpty ? 0 : random.next(bytes.count)
            switch random.next(6) {
            case 0 where !bytes.isEmpty:
                bytes[position] = UInt8(random.next(256))
            case 1 where !bytes.isEmpty:
                bytes.remove(at: position)
            case 2:
                bytes.insert(contentsOf: Self.fragments[random.next(Self.fragments.count)], at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + random.next(16))
                bytes.insert(contentsOf: Array(bytes[position..<end]), at: random.next(bytes.count))
            case 4:
                bytes = Array(bytes.prefix(position))
            default:
                bytes.insert(UInt8(random.next(128)), at: position)
            }
        }
        return bytes
    }
}
