/// One styled piece of an input method's preedit: a range and its ``PreeditStyle``.
///
/// In an ``InputMethodUpdate`` the range is UTF-8 bytes of the preedit, as on the wire; in
/// ``EditableText/markedStyles`` it is clusters of the text (widened to whole clusters).
public struct PreeditStyleRun: Equatable, Sendable {
    public var range: Range<Int>
    public var style: PreeditStyle

    public init(range: Range<Int>, style: PreeditStyle) {
        self.range = range
        self.style = style
    }

    /// How the cluster at `position` is drawn when `marked` is the marked text and `runs`
    /// its styles: nil outside `marked`, else the last run covering it, else ``PreeditStyle/default``.
    public static func style(at position: Int, marked: Range<Int>?, runs: [PreeditStyleRun]) -> PreeditStyle? {
        guard let marked, marked.contains(position) else { return nil }
        return runs.last { $0.range.contains(position) }?.style ?? .default
    }
}
