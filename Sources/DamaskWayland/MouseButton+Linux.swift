import DamaskViews

extension MouseButton {
    /// The button for a Linux input event code (`BTN_LEFT` = 0x110, …), as `wl_pointer.button`
    /// reports it.
    init(linuxCode code: UInt32) {
        switch code {
        case 0x110: self = .left
        case 0x111: self = .right
        case 0x112: self = .middle
        default: self = .other(code)
        }
    }
}
