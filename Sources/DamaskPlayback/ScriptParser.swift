import DamaskGraphics
import Foundation

/// Parses and validates input scripts.
///
/// A script with any error is rejected as a whole with a `ScriptError` at the offending token,
/// so nothing is played from a broken script. Validation covers what can be known before
/// playing: command names and arguments, key names and that the keyboard layout has a key for
/// every chord and typed character, and that reference images can be read.
///
/// Threading: not `Sendable` (it caches compiled keymaps); use an instance from one thread.
public final class ScriptParser {
    /// Application-defined commands to accept.
    public var registry: ScriptCommandRegistry
    /// The keyboard layout in effect at the start of every script.
    public var layout: KeyboardLayout
    /// Whether `expect image` references are opened and decoded while parsing.
    public var validatesReferenceImages: Bool = true

    private var keymaps: [KeyboardLayout: Keymap] = [:]
    private var unknownLayouts: Set<KeyboardLayout> = []

    /// Creates a parser.
    public init(registry: ScriptCommandRegistry = ScriptCommandRegistry(), layout: KeyboardLayout = .us) {
        self.registry = registry
        self.layout = layout
    }

    /// Parses the script in the file at `path`; relative paths inside it resolve against the
    /// file's directory. An unreadable file is an error at line 1, column 1.
    public func parse(contentsOfFile path: String) throws(ScriptError) -> Script {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScriptError(
                "cannot read script", at: SourceLocation(file: path, line: 1, column: 1))
        }
        let directory = (path as NSString).deletingLastPathComponent
        return try parse(bytes: Array(data), file: path, baseDirectory: directory)
    }

    /// Parses a script given as bytes (invalid UTF-8 is replaced by U+FFFD).
    public func parse(
        bytes: [UInt8], file: String, baseDirectory: String? = nil
    ) throws(ScriptError) -> Script {
        try parse(String(decoding: bytes, as: UTF8.self), file: file, baseDirectory: baseDirectory)
    }

    /// Parses a script given as text.
    public func parse(
        _ text: String, file: String, baseDirectory: String? = nil
    ) throws(ScriptError) -> Script {
        var script = Script(file: file, baseDirectory: baseDirectory, statements: [])
        var currentLayout = layout
        var scalars = Array(text.unicodeScalars)
        // A UTF-8 byte-order mark (editors on Windows write one) is not part of the script.
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var lineNumber = 0
        var lineStart = 0
        while lineStart <= scalars.count {
            let lineEnd = scalars[lineStart...].firstIndex(of: "\n") ?? scalars.count
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            let tokens = try ScriptLexer.tokenize(
                Array(scalars[lineStart..<lineEnd]), lineNumber: lineNumber, file: file)
            guard let first = tokens.first else { continue }
            let location = SourceLocation(file: file, line: lineNumber, column: first.column)
            guard !first.isQuoted else {
                throw ScriptError("expected a command, found a string", at: location)
            }
            var reader = ArgumentReader(
                commandName: first.text, tokens: tokens, startIndex: 1, file: file, line: lineNumber)
            let command = try parseCommand(first.text, &reader, at: location)
            try reader.finish()
            try validate(command, reader: reader, script: &script, layout: &currentLayout)
            script.statements.append(ScriptStatement(command, at: location))
        }
        return script
    }

    // MARK: Commands

    private func parseCommand(
        _ name: String, _ reader: inout ArgumentReader, at location: SourceLocation
    ) throws(ScriptError) -> ScriptCommand {
        switch name {
        case "size": return try parseSize(&reader)
        case "scale": return .scale(try reader.number("SCALE", in: 0.25...16))
        case "layout":
            let text = try reader.word("LAYOUT")
            guard let layout = KeyboardLayout(text) else {
                throw reader.error("bad layout '\(text)' (expected NAME or NAME:VARIANT)")
            }
            return .layout(layout)
        case "move": return .move(try point(&reader))
        case "press": return .press(try button(&reader) ?? .left)
        case "release": return .release(try button(&reader) ?? .left)
        case "click": return try parseClick(&reader)
        case "drag": return try parseDrag(&reader)
        case "scroll":
            return .scroll(
                dx: try reader.integer("DX", in: Self.scrollStepRange),
                dy: try reader.integer("DY", in: Self.scrollStepRange))
        case "wheel":
            return .wheel(
                dx: try reader.integer("DX", in: Self.wheelStepRange),
                dy: try reader.integer("DY", in: Self.wheelStepRange))
        case "touchpad":
            if reader.peek() == "end" {
                _ = reader.optionalWord()
                return .touchpadEnd
            }
            return .touchpadScroll(
                dx: try reader.number("DX", in: Self.coordinateRange),
                dy: try reader.number("DY", in: Self.coordinateRange))
        case "key": return .key(try parseChord(&reader))
        case "keydown": return .keyDown(try keyName(&reader))
        case "keyup": return .keyUp(try keyName(&reader))
        case "type": return .type(try reader.quotedString("TEXT"))
        case "touch": return try parseTouch(&reader)
        case "wait": return .wait(try parseWait(&reader))
        case "screenshot": return .screenshot(path: try path(&reader))
        case "expect": return try parseExpectation(&reader)
        case "ime": return try parseInputMethod(&reader)
        default:
            guard let definition = registry.definition(named: name) else {
                throw ScriptError("unknown command '\(name)'", at: location)
            }
            let arguments = reader.remainingArguments
            let payload = try definition.parseArguments(&reader)
            return .custom(CustomInvocation(name: name, arguments: arguments, payload: payload))
        }
    }

    private func parseSize(_ reader: inout ArgumentReader) throws(ScriptError) -> ScriptCommand {
        let text = try reader.word("WIDTHxHEIGHT")
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = ArgumentReader.integer(String(parts[0])),
            let height = ArgumentReader.integer(String(parts[1])),
            !parts[0].hasPrefix("-"), !parts[0].hasPrefix("+"), !parts[1].hasPrefix("-"),
            !parts[1].hasPrefix("+")
        else {
            throw reader.error("bad size '\(text)' (expected WIDTHxHEIGHT, e.g. 800x600)")
        }
        guard (1...16_384).contains(width), (1...16_384).contains(height) else {
            throw reader.error("size \(text) is out of range 1…16384 per side")
        }
        return .size(width: width, height: height)
    }

    private func parseClick(_ reader: inout ArgumentReader) throws(ScriptError) -> ScriptCommand {
        let location = try point(&reader)
        var button: ScriptButton?
        var count = 1
        while let word = reader.peek() {
            if count == 1, let clicks = Self.clickCounts[word] {
                count = clicks
                _ = reader.optionalWord()
            } else if button == nil, count == 1, let parsed = try self.button(&reader) {
                button = parsed
            } else {
                break
            }
        }
        return .click(location, button: button ?? .left, count: count)
    }

    private func parseDrag(_ reader: inout ArgumentReader) throws(ScriptError) -> ScriptCommand {
        let from = try point(&reader)
        let to = try point(&reader)
        var steps = 10
        if reader.peek() != nil {
            let word = try reader.word("steps")
            guard word == "steps" else {
                throw reader.error("unexpected argument '\(word)' for 'drag' (expected 'steps N')")
            }
            steps = try reader.integer("N", in: 1...10_000)
        }
        return .drag(from: from, to: to, steps: steps)
    }

    private func parseChord(_ reader: inout ArgumentReader) throws(ScriptError) -> KeyChord {
        let text = try reader.word("KEY")
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // A trailing "+" names the plus key itself: "ctrl++" is ctrl and plus.
        var names = parts
        if text.hasSuffix("++") || text == "+" {
            names = Array(parts.dropLast(2)) + ["plus"]
        }
        var modifiers: [KeyModifier] = []
        for name in names.dropLast() {
            guard let modifier = KeyModifier(name: name) else {
                throw reader.error(
                    "unknown modifier '\(name)' in '\(text)' (expected shift, ctrl, alt or super)")
            }
            guard !modifiers.contains(modifier) else {
                throw reader.error("modifier '\(name)' repeated in '\(text)'")
            }
            modifiers.append(modifier)
        }
        let key = names.last ?? ""
        guard Keymap.keysym(named: key) != nil else {
            throw reader.error("unknown key name '\(key)'")
        }
        return KeyChord(modifiers: modifiers, keyName: key)
    }

    private func keyName(_ reader: inout ArgumentReader) throws(ScriptError) -> String {
        let name = try reader.word("KEYSYM")
        guard Keymap.keysym(named: name) != nil else {
            throw reader.error("unknown key name '\(name)'")
        }
        return name
    }

    /// `ime preedit "TEXT" [cursor BYTES|hidden]`, `ime commit "TEXT"`,
    /// `ime delete before BYTES after BYTES` (lengths and the cursor in UTF-8 bytes, as on
    /// the wire).
    private func parseInputMethod(_ reader: inout ArgumentReader) throws(ScriptError) -> ScriptCommand {
        let action = try reader.word("preedit|commit|delete|language|direction")
        reader.enterSubcommand(action)
        switch action {
        case "preedit":
            let text = try reader.quotedString("TEXT")
            let end = text.utf8.count
            guard reader.peek() != nil else { return .inputMethod(InputMethodUpdate(preedit: text, preeditCursor: end..<end)) }
            let keyword = try reader.word("cursor")
            guard keyword == "cursor" else { throw reader.error("expected 'cursor', found '\(keyword)'") }
            if reader.peek() == "hidden" {
                _ = reader.optionalWord()
                return .inputMethod(InputMethodUpdate(preedit: text, preeditCursor: nil))
            }
            let cursor = try reader.integer("BYTES", in: 0...text.utf8.count)
            return .inputMethod(InputMethodUpdate(preedit: text, preeditCursor: cursor..<cursor))
        case "commit":
            return .inputMethod(InputMethodUpdate(commit: try reader.quotedString("TEXT")))
        case "delete":
            let before = try reader.word("before")
            guard before == "before" else { throw reader.error("expected 'before', found '\(before)'") }
            let beforeLength = try reader.integer("BYTES", in: 0...Int(Int32.max))
            let after = try reader.word("after")
            guard after == "after" else { throw reader.error("expected 'after', found '\(after)'") }
            return .inputMethod(
                InputMethodUpdate(deleteBefore: beforeLength, deleteAfter: try reader.integer("BYTES", in: 0...Int(Int32.max))))
        case "language":
            let tag = try reader.quotedString("TAG")
            let valid = !tag.isEmpty && tag.utf8.count <= 35
                && tag.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
            guard valid else { throw reader.error("ime language takes a language tag such as \"ko\" or \"zh-CN\"") }
            return .inputMethodSetting(.language(tag))
        case "direction":
            let word = try reader.word("auto|ltr|rtl")
            guard let direction = InputMethodSetting.direction(named: word) else {
                throw reader.error("unknown direction '\(word)' (expected auto, ltr or rtl)")
            }
            return .inputMethodSetting(.direction(direction))
        default:
            throw reader.error("unknown ime action '\(action)' (expected preedit, commit, delete, language or direction)")
        }
    }

    private func parseTouch(_ reader: inout ArgumentReader) throws(ScriptError) -> ScriptCommand {
        let phase = try reader.word("down|move|up")
        reader.enterSubcommand(phase)
        switch phase {
        case "down":
            let id = try touchID(&reader)
            return .touchDown(id: id, at: try point(&reader))
        case "move":
            let id = try touchID(&reader)
            return .touchMove(id: id, to: try point(&reader))
        case "up":
            return .touchUp(id: try touchID(&reader))
        default:
            throw reader.error("unknown touch phase '\(phase)' (expected down, move or up)")
        }
    }

    private func parseWait(_ reader: inout ArgumentReader) throws(ScriptError) -> WaitCondition {
        let word = try reader.word("DURATION")
        switch word {
        case "idle": return .idle
        case "frames": return .frames(try reader.integer("N", in: 0...100_000))
        default:
            let milliseconds: Double?
            if word.hasSuffix("ms") {
                milliseconds = ArgumentReader.decimal(String(word.dropLast(2)))
            } else if word.hasSuffix("s") {
                milliseconds = ArgumentReader.decimal(String(word.dropLast())).map { $0 * 1000 }
            } else {
                milliseconds = nil
            }
            guard let milliseconds else {
                throw reader.error(
                    "bad duration '\(word)' (expected e.g. 250ms or 2s, 'frames N' or 'idle')")
            }
            guard (0...Self.maximumWaitMilliseconds).contains(milliseconds) else {
                throw reader.error("duration '\(word)' is out of range 0ms…3600s")
            }
            return .duration(milliseconds: milliseconds)
        }
    }

    /// The words after `click` that make it a multiple click, with its number of clicks.
    static let clickCounts = ["double": 2, "triple": 3]

    private func parseExpectation(
        _ reader: inout ArgumentReader
    ) throws(ScriptError) -> ScriptCommand {
        let kind = try reader.word("pixel|image|damage|no-damage|draws|text|clipboard|primary")
        reader.enterSubcommand(kind)
        switch kind {
        case "pixel":
            let location = try point(&reader)
            let colorText = try reader.word("#rrggbb")
            guard let color = PixelColor(hex: colorText) else {
                throw reader.error("bad colour '\(colorText)' (expected #rrggbb)")
            }
            return .expectPixel(location, color: color, tolerance: try tolerance(&reader))
        case "image":
            let path = try path(&reader)
            return .expectImage(path: path, tolerance: try tolerance(&reader))
        case "damage":
            let mode = try reader.word("within|exactly")
            reader.enterSubcommand(mode)
            guard mode == "within" || mode == "exactly" else {
                throw reader.error("unknown damage check '\(mode)' (expected within or exactly)")
            }
            var scale: CGFloat?
            if reader.peek() == "at" {
                _ = reader.optionalWord()
                let word = try reader.word("scale")
                guard word == "scale" else { throw reader.error("expected 'scale' after 'at', found '\(word)'") }
                scale = CGFloat(try reader.number("S", in: 0.25...16))
            }
            var rects: [CGRect] = []
            repeat {
                let x = try reader.number("X", in: -1_000_000...1_000_000)
                let y = try reader.number("Y", in: -1_000_000...1_000_000)
                let width = try reader.number("W", in: 0...1_000_000)
                let height = try reader.number("H", in: 0...1_000_000)
                rects.append(CGRect(x: x, y: y, width: width, height: height))
            } while !reader.isAtEnd
            if let scale { return .expectDamageAtScale(scale, exactly: mode == "exactly", rects) }
            return mode == "within" ? .expectDamageWithin(rects) : .expectDamageExactly(rects)
        case "no-damage": return .expectNoDamage
        case "draws": return .expectDraws(try reader.integer("N", in: 0...Int(Int32.max)))
        case "text": return .expectText(try reader.quotedString("TEXT"))
        case "clipboard": return .expectPasteboard(.clipboard, text: try reader.quotedString("TEXT"))
        case "primary": return .expectPasteboard(.primarySelection, text: try reader.quotedString("TEXT"))
        default:
            throw reader.error(
                "unknown expectation '\(kind)' "
                    + "(expected pixel, image, damage, no-damage, draws, text, clipboard or primary)")
        }
    }

    // MARK: Arguments

    /// The coordinates a script may use (points), shared with ``ScriptRecorder``.
    public static let coordinateRange: ClosedRange<Double> = -1_000_000...1_000_000
    /// The wheel steps one `scroll` may take per axis, shared with ``ScriptRecorder``.
    public static let scrollStepRange: ClosedRange<Int> = -10_000...10_000
    /// The high-resolution wheel steps (120 per detent) one `wheel` may take per axis.
    public static let wheelStepRange: ClosedRange<Int> = -1_200_000...1_200_000
    /// The longest `wait DURATION`, in milliseconds (an hour), shared with ``ScriptRecorder``.
    public static let maximumWaitMilliseconds: Double = 3_600_000

    private func point(_ reader: inout ArgumentReader) throws(ScriptError) -> CGPoint {
        let x = try reader.number("X", in: Self.coordinateRange)
        let y = try reader.number("Y", in: Self.coordinateRange)
        return CGPoint(x: x, y: y)
    }

    private func touchID(_ reader: inout ArgumentReader) throws(ScriptError) -> Int32 {
        Int32(try reader.integer("ID", in: 0...Int(Int32.max)))
    }

    /// An optional button name; other words are left for the caller.
    private func button(_ reader: inout ArgumentReader) throws(ScriptError) -> ScriptButton? {
        guard let word = reader.peek() else { return nil }
        guard let button = ScriptButton(rawValue: word) else {
            if word == "double" { return nil }
            _ = reader.optionalWord()
            throw reader.error("unknown button '\(word)' (expected left, right or middle)")
        }
        _ = reader.optionalWord()
        return button
    }

    private func path(_ reader: inout ArgumentReader) throws(ScriptError) -> String {
        let path = try reader.word("PATH")
        guard !path.isEmpty, !path.unicodeScalars.contains("\0") else {
            throw reader.error("bad path '\(path)'")
        }
        return path
    }

    /// An optional `±N` (or `+-N`) per-channel tolerance, 0 if absent.
    private func tolerance(_ reader: inout ArgumentReader) throws(ScriptError) -> Int {
        guard let word = reader.optionalWord() else { return 0 }
        let digits: Substring
        if word.hasPrefix("±") {
            digits = word.dropFirst()
        } else if word.hasPrefix("+-") {
            digits = word.dropFirst(2)
        } else {
            throw reader.error("bad tolerance '\(word)' (expected ±N)")
        }
        guard digits.first != "+", digits.first != "-", let value = ArgumentReader.integer(String(digits)) else {
            throw reader.error("bad tolerance '\(word)' (expected ±N)")
        }
        guard (0...255).contains(value) else {
            throw reader.error("tolerance \(value) is out of range 0…255")
        }
        return value
    }

    // MARK: Validation

    /// Checks what needs more than syntax: the layout can produce every key and character,
    /// and reference images can be read.
    private func validate(
        _ command: ScriptCommand, reader: ArgumentReader, script: inout Script,
        layout: inout KeyboardLayout
    ) throws(ScriptError) {
        switch command {
        case .layout(let newLayout):
            guard keymap(for: newLayout) != nil else {
                throw reader.error("unknown keyboard layout '\(newLayout)'")
            }
            layout = newLayout
        case .key(let chord):
            let keymap = try requireKeymap(layout, reader)
            for modifier in chord.modifiers where keymap.keycode(for: modifier) == nil {
                throw reader.error(
                    "layout '\(layout)' has no key for modifier '\(modifier.rawValue)'")
            }
            try requireKey(chord.keyName, keymap, reader)
        case .keyDown(let name), .keyUp(let name):
            try requireKey(name, try requireKeymap(layout, reader), reader)
        case .type(let text):
            let keymap = try requireKeymap(layout, reader)
            if let character = keymap.firstUntypableCharacter(in: text) {
                throw reader.error(
                    "character '\(ScriptPrinter.escaped(String(character)))' "
                        + "(U+\(String(character.value, radix: 16, uppercase: true).leftPadded(to: 4))) "
                        + "cannot be typed with layout '\(layout)'")
            }
        case .expectImage(let path, _):
            guard validatesReferenceImages else { return }
            let resolved = script.resolve(path)
            guard script.referenceImages[resolved] == nil else { return }
            switch ReferenceImage.decode(at: resolved) {
            case .success(let image):
                // Kept, so that the check does not decode the file a second time.
                script.referenceImages[resolved] = image
            case .failure(let problem):
                throw reader.error("cannot read reference image '\(path)': \(problem.description)")
            }
        default:
            break
        }
    }

    private func requireKeymap(
        _ layout: KeyboardLayout, _ reader: ArgumentReader
    ) throws(ScriptError) -> Keymap {
        guard let keymap = keymap(for: layout) else {
            throw reader.error("unknown keyboard layout '\(layout)'")
        }
        return keymap
    }

    private func requireKey(
        _ name: String, _ keymap: Keymap, _ reader: ArgumentReader
    ) throws(ScriptError) {
        guard let sym = Keymap.keysym(named: name), keymap.stroke(forKeysym: sym) != nil else {
            throw reader.error("layout '\(keymap.layout)' has no key for '\(name)'")
        }
    }

    /// The compiled keymap for `layout`, cached; nil if XKB does not know the layout.
    private func keymap(for layout: KeyboardLayout) -> Keymap? {
        if let keymap = keymaps[layout] { return keymap }
        guard !unknownLayouts.contains(layout) else { return nil }
        guard let keymap = Keymap(layout: layout) else {
            unknownLayouts.insert(layout)
            return nil
        }
        keymaps[layout] = keymap
        return keymap
    }
}

extension String {
    /// The string padded with leading zeros to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
