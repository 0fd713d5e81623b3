/// AT-SPI states (`AtspiStateType` in atspi-constants.h: bit numbers in the two 32-bit
/// words `GetState` returns).
enum AtspiState: Int {
    case active = 1
    case busy = 3
    case checked = 4
    case editable = 7
    case enabled = 8
    case focusable = 11
    case focused = 12
    case horizontal = 14
    case multiLine = 17
    case resizable = 21
    case selectable = 22
    case selected = 23
    case sensitive = 24
    case showing = 25
    case singleLine = 26
    case visible = 30
    case selectableText = 38
    case checkable = 41
    case readOnly = 43

    /// The name used in `object:state-changed:NAME` events.
    var eventName: String {
        switch self {
        case .active: "active"
        case .busy: "busy"
        case .checked: "checked"
        case .editable: "editable"
        case .enabled: "enabled"
        case .focusable: "focusable"
        case .focused: "focused"
        case .horizontal: "horizontal"
        case .multiLine: "multi-line"
        case .resizable: "resizable"
        case .selectable: "selectable"
        case .selected: "selected"
        case .sensitive: "sensitive"
        case .showing: "showing"
        case .singleLine: "single-line"
        case .visible: "visible"
        case .selectableText: "selectable-text"
        case .checkable: "checkable"
        case .readOnly: "read-only"
        }
    }

    /// `states` as `GetState`'s two words.
    static func words(_ states: Set<AtspiState>) -> [UInt32] {
        var words: [UInt32] = [0, 0]
        for state in states { words[state.rawValue / 32] |= 1 << UInt32(state.rawValue % 32) }
        return words
    }
}
