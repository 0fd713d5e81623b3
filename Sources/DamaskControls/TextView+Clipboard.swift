import DamaskGraphics
import DamaskViews
import Foundation

/// Copy, cut and paste: the window's pasteboards through its surface
/// (``Surface/pasteboard(_:)``), the path ``TextField`` takes, so a text view and a field
/// exchange text with each other and with other programs alike.
extension TextView {
    /// Ctrl+C: puts the selected text on the clipboard (nothing selected: nothing happens).
    public func copy() {
        guard editor.hasSelection else { return }
        window?.surface.pasteboard(.clipboard)?.setString(editor.selectedText)
    }

    /// Ctrl+X: copies the selection, then deletes it (only while ``isEditable``).
    public func cut() {
        guard editor.hasSelection, isEditable else { return }
        copy()
        edit { $0.deleteSelection() }
    }

    /// Ctrl+V (clipboard) or a middle click (primary selection): inserts the pasteboard's
    /// text at the caret when it arrives, replacing the selection. Line breaks (`\r\n`,
    /// `\r`) become `\n`; tabs stay; other control characters are dropped.
    public func paste(from kind: PasteboardKind) {
        guard isEditable, let pasteboard = window?.surface.pasteboard(kind) else { return }
        pasteboard.requestString { [weak self] text in
            guard let self, let text, !text.isEmpty else { return }
            let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            let cleaned = String(String.UnicodeScalarView(unified.unicodeScalars.filter { scalar in
                scalar == "\n" || scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7f)
            }))
            guard !cleaned.isEmpty else { return }
            self.edit { $0.insert(cleaned) }
        }
    }

    /// Offers the selected text as the primary selection (after the user selected it).
    func publishPrimarySelection() {
        guard editor.hasSelection else { return }
        window?.surface.pasteboard(.primarySelection)?.setString(editor.selectedText)
    }

    /// Ctrl+C, Ctrl+X, Ctrl+V (by the key's Latin letter, so on any layout), Ctrl+Insert,
    /// Shift+Insert and, over a selection, Shift+Delete; returns whether `event` was one of them.
    func handleClipboardKey(_ event: KeyEvent) -> Bool {
        let modifiers = event.modifiers
        if modifiers.contains(.control), !modifiers.contains(.alt), !modifiers.contains(.logo) {
            switch event.shortcutKeysym {
            case 0x63, 0x43: copy()
            case 0x78, 0x58: cut()
            case 0x76, 0x56: paste(from: .clipboard)
            case 0xff63: copy()  // Ctrl+Insert
            default: return false
            }
            return true
        }
        if event.keysym == 0xff63, modifiers.contains(.shift) {
            paste(from: .clipboard)  // Shift+Insert
            return true
        }
        if event.keysym == 0xffff, modifiers.contains(.shift), !modifiers.contains(.control), editor.hasSelection {
            cut()  // Shift+Delete, as in GTK and Qt (with nothing selected it deletes forward)
            return true
        }
        return false
    }
}
