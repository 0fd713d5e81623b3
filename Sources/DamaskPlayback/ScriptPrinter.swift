import Foundation

/// Writes scripts back as text, one canonical line per command, such that parsing the output
/// gives the same commands (comments and blank lines are not kept).
public enum ScriptPrinter {
    /// The whole script, one command per line, ending with a newline.
    public static func print(_ script: Script) -> String {
        print(script.commands)
    }

    /// The commands, one per line, ending with a newline.
    public static func print(_ commands: [ScriptCommand]) -> String {
        commands.map { line(for: $0) + "\n" }.joined()
    }

    /// The canonical line for one command (no newline).
    public static func line(for command: ScriptCommand) -> String {
        switch command {
        case .size(let width, let height): return "size \(width)x\(height)"
        case .scale(let scale): return "scale \(format(scale))"
        case .layout(let layout): return "layout \(layout)"
        case .move(let point): return "move \(format(point))"
        case .press(let button): return "press \(button.rawValue)"
        case .release(let button): return "release \(button.rawValue)"
        case .click(let point, let button, let count):
            let suffix = ScriptParser.clickCounts.first { $0.value == count }.map { " " + $0.key } ?? ""
            return "click \(format(point)) \(button.rawValue)" + suffix
        case .drag(let from, let to, let steps):
            return "drag \(format(from)) \(format(to)) steps \(steps)"
        case .scroll(let dx, let dy): return "scroll \(dx) \(dy)"
        case .wheel(let dx, let dy): return "wheel \(dx) \(dy)"
        case .touchpadScroll(let dx, let dy): return "touchpad \(format(dx)) \(format(dy))"
        case .touchpadEnd: return "touchpad end"
        case .key(let chord): return "key \(chord)"
        case .keyDown(let name): return "keydown \(name)"
        case .keyUp(let name): return "keyup \(name)"
        case .type(let text): return "type \(quoted(text))"
        case .touchDown(let id, let point): return "touch down \(id) \(format(point))"
        case .touchMove(let id, let point): return "touch move \(id) \(format(point))"
        case .touchUp(let id): return "touch up \(id)"
        case .wait(.duration(let milliseconds)): return "wait \(format(milliseconds))ms"
        case .wait(.frames(let count)): return "wait frames \(count)"
        case .wait(.idle): return "wait idle"
        case .screenshot(let path): return "screenshot \(argument(path))"
        case .expectPixel(let point, let color, let tolerance):
            return "expect pixel \(format(point)) \(color)" + toleranceSuffix(tolerance)
        case .expectImage(let path, let tolerance):
            return "expect image \(argument(path))" + toleranceSuffix(tolerance)
        case .expectDamageWithin(let rects):
            return "expect damage within " + rects.map(format).joined(separator: " ")
        case .expectDamageExactly(let rects):
            return "expect damage exactly " + rects.map(format).joined(separator: " ")
        case .expectDamageAtScale(let scale, let exactly, let rects):
            return "expect damage \(exactly ? "exactly" : "within") at scale \(format(Double(scale))) "
                + rects.map(format).joined(separator: " ")
        case .expectNoDamage: return "expect no-damage"
        case .expectDraws(let count): return "expect draws \(count)"
        case .expectText(let text): return "expect text \(quoted(text))"
        case .expectPasteboard(.clipboard, let text): return "expect clipboard \(quoted(text))"
        case .expectPasteboard(.primarySelection, let text): return "expect primary \(quoted(text))"
        case .inputMethod(let update):
            if !update.commit.isEmpty { return "ime commit \(quoted(update.commit))" }
            if update.deleteBefore > 0 || update.deleteAfter > 0 {
                return "ime delete before \(update.deleteBefore) after \(update.deleteAfter)"
            }
            let cursor = update.preeditCursor.map { "cursor \($0.lowerBound)" } ?? "cursor hidden"
            return "ime preedit \(quoted(update.preedit)) \(cursor)"
        case .inputMethodSetting(.language(let tag)): return "ime language \(quoted(tag))"
        case .inputMethodSetting(.direction(let direction)): return "ime direction \(InputMethodSetting.word(for: direction))"
        case .custom(let invocation):
            return ([invocation.name]
                + invocation.arguments.map { $0.isQuoted ? quoted($0.text) : argument($0.text) })
                .joined(separator: " ")
        }
    }

    /// A number the parser reads back exactly: integers without a fraction, others in Swift's
    /// shortest round-tripping form.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// `text` as a quoted string with `"`, `\` and control characters escaped.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// `text` with `"`, `\` and control characters escaped as in script strings.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if needsEscape(scalar) {
                    result += escape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether `scalar` is a control character or line separator that strings must escape.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // Also the byte-order mark: invisible in a message, it made "unknown command 'scene'"
        // look like nonsense.
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF: return true
        default: return false
        }
    }

    /// The escape sequence for a control character: `\n`, `\t`, `\r` or `\u{HEX}`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default: return "\\u{\(String(scalar.value, radix: 16))}"
        }
    }

    /// A bare word if it lexes back as itself (as an argument, never the first token of a
    /// line), otherwise a quoted string.
    static func argument(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let startsComment =
            text.hasPrefix("#") && !(scalars.count == 7 && ScriptLexer.isColourLiteral(scalars, at: 0))
        let needsQuotes =
            text.isEmpty || startsComment || text.hasPrefix("\"")
            || text.unicodeScalars.contains { ScriptLexer.isSpace($0) || needsEscape($0) }
        return needsQuotes ? quoted(text) : text
    }

    private static func format(_ point: CGPoint) -> String {
        "\(format(Double(point.x))) \(format(Double(point.y)))"
    }

    private static func format(_ rect: CGRect) -> String {
        [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
            .map { format(Double($0)) }.joined(separator: " ")
    }

    private static func toleranceSuffix(_ tolerance: Int) -> String {
        tolerance == 0 ? "" : " ±\(tolerance)"
    }
}
