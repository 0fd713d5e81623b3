/// Text shared between applications: the clipboard (Ctrl+C, Ctrl+X, Ctrl+V) or the primary
/// selection (select, then middle-click to paste).
///
/// A window finds its pasteboards through its surface (``Surface/pasteboard(_:)``): a
/// Wayland surface answers with `wl_data_device` (clipboard) and
/// `zwp_primary_selection_v1` (primary, where the compositor offers it); an offscreen
/// surface with a ``MemoryPasteboard``. Reading is asynchronous, since on Wayland the text
/// comes from the other application through a pipe. Main-actor.
@MainActor public protocol Pasteboard: AnyObject {
    /// Puts `text` on the pasteboard: this application now owns it and hands it to any
    /// client that pastes, until another one takes it.
    func setString(_ text: String)
    /// Reads the pasteboard's text; `completion` runs later on the main actor with it, or
    /// with `nil` when the pasteboard holds no text (or the owner sent none that decodes).
    func requestString(_ completion: @escaping @MainActor (String?) -> Void)
}

/// Which of the two pasteboards.
public enum PasteboardKind: Sendable, Equatable, CaseIterable {
    /// The clipboard: copy, cut and paste.
    case clipboard
    /// The primary selection: whatever was last selected, pasted with the middle button.
    case primarySelection
}
