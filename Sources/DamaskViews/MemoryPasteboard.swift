/// A pasteboard that keeps its text in memory, shared by every offscreen window of the
/// process (what ``MemorySurface`` hands out, so that headless scripts can copy and paste).
///
/// ``requestString(_:)`` answers on the next main-queue turn, as a Wayland paste would
/// answer later, so that callers cannot come to depend on a synchronous answer. Main-actor.
@MainActor public final class MemoryPasteboard: Pasteboard {
    /// The process's clipboard and primary selection for offscreen windows.
    public static let clipboard = MemoryPasteboard()
    /// See ``clipboard``.
    public static let primarySelection = MemoryPasteboard()

    /// The shared pasteboard of `kind`.
    public static func shared(_ kind: PasteboardKind) -> MemoryPasteboard {
        kind == .clipboard ? clipboard : primarySelection
    }

    /// The text held, if any.
    public var string: String?

    /// Creates an empty pasteboard.
    public init() {}

    public func setString(_ text: String) {
        string = text
    }

    public func requestString(_ completion: @escaping @MainActor (String?) -> Void) {
        let text = string
        Task { @MainActor in completion(text) }
    }
}
