import DamaskGraphics
import DamaskViews
import Foundation

/// What a text field tells the compositor's input method: the text around the caret, where
/// the caret is on the surface and what kind of text it is. Compared with what was sent
/// last, so that only a change is sent again.
struct TextInputState: Equatable {
    /// The text around the caret, without the preedit (nil: the field does not tell it).
    var surrounding: SurroundingText?
    /// The caret in surface points, rounded out to whole points (nil: not told).
    var cursorRectangle: (x: Int32, y: Int32, width: Int32, height: Int32)?
    /// The field's purpose and hints.
    var contentType: TextContentType

    /// A state from its parts.
    init(
        surrounding: SurroundingText?, cursorRectangle: (x: Int32, y: Int32, width: Int32, height: Int32)?,
        contentType: TextContentType
    ) {
        self.surrounding = surrounding
        self.cursorRectangle = cursorRectangle
        self.contentType = contentType
    }

    /// The state `input` shows now.
    @MainActor init(of input: any TextInput) {
        surrounding = input.surroundingText
        contentType = input.textContentType
        cursorRectangle = input.textInputCursorRect.flatMap(Self.wireRectangle)
    }

    /// A rect in surface points as the protocols' integers, rounded outwards; nil when it
    /// is not finite or does not fit.
    static func wireRectangle(_ rect: CGRect) -> (x: Int32, y: Int32, width: Int32, height: Int32)? {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        let bound = CGFloat(Int32.max / 2)
        let minX = rect.minX.rounded(.down), minY = rect.minY.rounded(.down)
        let maxX = rect.maxX.rounded(.up), maxY = rect.maxY.rounded(.up)
        guard abs(minX) < bound, abs(minY) < bound, abs(maxX) < bound, abs(maxY) < bound else { return nil }
        return (Int32(minX), Int32(minY), Int32(maxX - minX), Int32(maxY - minY))
    }

    static func == (lhs: TextInputState, rhs: TextInputState) -> Bool {
        lhs.surrounding == rhs.surrounding && lhs.contentType == rhs.contentType
            && hasSameCursorRectangle(lhs, rhs)
    }

    /// Whether both states tell the same cursor rectangle (or neither tells one). Tuples
    /// compare element by element; no array per side (this runs on every key).
    static func hasSameCursorRectangle(_ lhs: TextInputState, _ rhs: TextInputState) -> Bool {
        switch (lhs.cursorRectangle, rhs.cursorRectangle) {
        case (nil, nil): return true
        case let (left?, right?): return left == right
        default: return false
        }
    }
}

/// Why the text around the caret changed (zwp_text_input_v3's `change_cause`): the input
/// method's own update, or anything else (typing, a click, a paste).
enum TextChangeCause: Equatable {
    case inputMethod
    case other
}

/// One text-input protocol's object for one seat (zwp_text_input_v3 or v1), behind the seam
/// ``TextInputSession`` drives: the session decides when to enable, what to send and what
/// to apply; a binding speaks its protocol's requests, events and serial rules.
@MainActor protocol TextInputBinding: AnyObject {
    /// Whether the text input is enabled (v1: activated) on a surface now.
    var isEnabled: Bool { get }
    /// Whether the protocol's focus is the seat's keyboard focus (v1: the client activates
    /// on the surface that has it) rather than the protocol's own `enter`/`leave` (v3).
    var followsKeyboardFocus: Bool { get }
    /// Enables the text input on `surface` and sends `state`.
    func enable(on surface: OpaquePointer, state: TextInputState)
    /// Sends the parts of `state` that differ from `previous`.
    func send(_ state: TextInputState, previous: TextInputState, cause: TextChangeCause)
    /// Disables the text input (the text responder lost focus).
    func disable()
    /// Destroys the protocol object (the seat or the connection goes). Idempotent.
    func destroy()
}

extension TextContentType {
    /// zwp_text_input_v3's `content_purpose` value.
    var v3Purpose: UInt32 {
        switch purpose {
        case .normal: 0
        case .alpha: 1
        case .digits: 2
        case .number: 3
        case .phone: 4
        case .url: 5
        case .email: 6
        case .name: 7
        case .password: 8
        case .pin: 9
        case .date: 10
        case .time: 11
        case .dateTime: 12
        case .terminal: 13
        }
    }

    /// zwp_text_input_v1's `content_purpose` value (v1 has no PIN: a PIN is a password).
    var v1Purpose: UInt32 {
        switch purpose {
        case .normal: 0
        case .alpha: 1
        case .digits: 2
        case .number: 3
        case .phone: 4
        case .url: 5
        case .email: 6
        case .name: 7
        case .password, .pin: 8
        case .date: 9
        case .time: 10
        case .dateTime: 11
        case .terminal: 12
        }
    }

    /// The hints as both protocols number them (the same bits; v1 calls spellcheck
    /// auto-correction).
    var wireHints: UInt32 { hints.rawValue & 0x3FF }
}

/// Text from an input method on the wire.
enum WireText {
    /// The string at `pointer` (nil pointer: ""), or nil when it is not valid UTF-8: such
    /// a string is rejected whole, never shown in part. Control characters other than tab
    /// are dropped (a field holds one line), as ``InputMethodUpdate/decode(_:)`` does.
    static func decode(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return "" }
        guard let valid = String(validatingCString: pointer) else { return nil }
        return InputMethodUpdate.decode(valid.utf8)
    }
}
