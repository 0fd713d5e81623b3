import DamaskGraphics
import DamaskViews
import Foundation

/// A one-line text field on the library's editing core, doing per keystroke what the
/// demo's text field does (``EditableText`` edits, ``TextLayout`` follows them, the caret
/// is scrolled into view, the clusters in view are compared to damage only what changed,
/// and only the chunks in view are drawn): the unit of work of the typing suite.
final class TypingFieldView: View {
    private(set) var editor: EditableText
    private var layout: TextLayout
    private var scrollOffset: CGFloat = 0
    private let font = Font.system(size: 16)
    private static let padding: CGFloat = 10

    /// Creates a field holding `text`, the caret at its end.
    init(frame: CGRect, text: String) {
        editor = EditableText(text)
        layout = TextLayout(editor, font: font)
        super.init(frame: frame)
        contentMode = .redraw
        backgroundColor = .white
        scrollToCaret()
    }

    /// Types `text` at the caret, as a key press does.
    func type(_ text: String) { change { $0.type(text) } }

    /// Deletes the cluster before the caret, as Backspace does.
    func deleteBackward() { change { $0.deleteBackward() } }

    private var textArea: CGRect {
        CGRect(x: Self.padding - 2, y: 2, width: max(bounds.width - 2 * Self.padding + 4, 0), height: max(bounds.height - 4, 0))
    }

    private var textOriginX: CGFloat { Self.padding - scrollOffset }

    private var visibleX: ClosedRange<CGFloat> {
        (textArea.minX - textOriginX)...max(textArea.maxX - textOriginX, textArea.minX - textOriginX)
    }

    private var cursorRect: CGRect {
        CGRect(x: (textOriginX + layout.caretOffset(at: editor.caret)).rounded(), y: 8, width: 2, height: bounds.height - 16)
    }

    private func clustersInView(of chunks: [TextLayout.ChunkSnapshot]) -> TextLayout.ClusterList {
        let visible = visibleX
        var result = TextLayout.ClusterList()
        for chunk in chunks { result.append(chunk, reaching: (visible.lowerBound - 4)...(visible.upperBound + 4)) }
        return result
    }

    private func change(_ body: (inout EditableText) -> Void) {
        let oldCursor = cursorRect, oldScroll = scrollOffset
        var oldChunks = layout.chunks(overlapping: visibleX)
        body(&editor)
        layout.update(for: editor)
        scrollToCaret()
        setNeedsDisplay(oldCursor)
        setNeedsDisplay(cursorRect)
        guard oldScroll == scrollOffset else {
            setNeedsDisplay(textArea)
            return
        }
        // As the demo's field: the chunks laid out exactly as before are not compared.
        var newChunks = layout.chunks(overlapping: visibleX)
        let unchanged = newChunks.filter { chunk in oldChunks.contains { $0.isLaidOutLike(chunk) } }
        oldChunks.removeAll { old in unchanged.contains { $0.isLaidOutLike(old) } }
        newChunks.removeAll { new in unchanged.contains { $0.isLaidOutLike(new) } }
        let old = clustersInView(of: oldChunks), new = clustersInView(of: newChunks)
        func same(_ o: Int, _ n: Int) -> Bool { old[o].extent == new[n].extent && old.hasSameText(at: o, as: n, in: new) }
        var prefix = 0
        while prefix < old.count, prefix < new.count, same(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, same(old.count - 1 - suffix, new.count - 1 - suffix) {
            suffix += 1
        }
        let pieces = old.clusters[max(prefix - 1, 0)..<min(old.count - suffix + 1, old.count)].map(\.extent)
            + new.clusters[max(prefix - 1, 0)..<min(new.count - suffix + 1, new.count)].map(\.extent)
        guard let lower = pieces.map(\.lowerBound).min(), let upper = pieces.map(\.upperBound).max() else { return }
        let changed = CGRect(x: textOriginX + lower - 2, y: textArea.minY, width: upper - lower + 4, height: textArea.height)
        setNeedsDisplay(changed.intersection(textArea))
    }

    private func scrollToCaret() {
        let caret = layout.caretOffset(at: editor.caret)
        let visible = max(bounds.width - 2 * Self.padding, 0)
        var offset = scrollOffset
        if caret - offset > visible - 2 { offset = caret - visible + 2 }
        if caret - offset < 0 { offset = caret }
        offset = min(offset, max(layout.width + 2 - visible, 0))
        scrollOffset = max(offset, 0).rounded()
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setStrokeColor(Color(white: 0.7))
        context.stroke(bounds.insetBy(dx: 0.5, dy: 0.5))
        context.saveGState()
        context.clip(to: textArea)
        let baseline = ((bounds.height + font.ascent - font.descent) / 2).rounded()
        layout.draw(in: context, at: CGPoint(x: textOriginX, y: baseline), visible: visibleX, color: .black)
        context.setFillColor(.black)
        context.fill(cursorRect)
        context.restoreGState()
    }
}
