import DamaskGraphics
import DamaskViews
import Foundation

/// The seeds' `ChromosomeBlockView`: a nucleotide sequence drawn as coloured blocks with
/// their letters, row after row.
///
/// It draws nothing until ``sequenceString`` and ``nucleotideBases`` are set (the data
/// arrives from the network); setting them only records (`setNeedsDisplay()`), as in the
/// seed. ``highlightedBase`` dims every other base. Main-actor.
final class ChromosomeBlockView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
        isAccessibilityElement = true  // a picture of the sequence; its value, how many bases
        accessibilityTraits = .image
        accessibilityLabel = "Chromosome blocks"
    }

    override var accessibilityValue: String? {
        get { super.accessibilityValue ?? sequenceString.map { "\($0.count) bases" } ?? "no sequence yet" }
        set { super.accessibilityValue = newValue }
    }
    /// The bases, e.g. `"ATGGTG…"`.
    var sequenceString: String? {
        didSet {
            guard sequenceString != oldValue else { return }
            setNeedsDisplay()
            AccessibilityNotification.valueChanged(self).post()
        }
    }
    /// The colour of each base letter.
    var nucleotideBases: [Character: Color] = [:] {
        didSet { if nucleotideBases != oldValue { setNeedsDisplay() } }
    }
    /// When set, blocks of other bases are drawn faded. Does not invalidate by itself: the
    /// scene chooses between `setNeedsDisplay()` and `displayNow()`.
    var highlightedBase: Character?
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0
    /// Called at the end of every draw.
    var onDraw: @MainActor (ChromosomeBlockView) -> Void = { _ in }

    /// A block's size in points, gap included.
    static let blockSize = CGSize(width: 24, height: 26)
    private static let letterFont = Font.system(size: 12, weight: .bold)

    /// The seed's colours: adenine green, cytosine blue, guanine amber, thymine red.
    static let standardBases: [Character: Color] = [
        "A": Color(red: 0.20, green: 0.66, blue: 0.33),
        "C": Color(red: 0.20, green: 0.45, blue: 0.85),
        "G": Color(red: 0.93, green: 0.62, blue: 0.10),
        "T": Color(red: 0.85, green: 0.25, blue: 0.25),
    ]

    override func draw(_ rect: CGRect) {
        drawCount += 1
        defer { onDraw(self) }
        guard let context = GraphicsContext.current, let sequence = sequenceString else { return }
        let columns = max(1, Int(bounds.width / Self.blockSize.width))
        let font = Self.letterFont
        for (index, base) in sequence.enumerated() {
            let block = CGRect(
                x: CGFloat(index % columns) * Self.blockSize.width,
                y: CGFloat(index / columns) * Self.blockSize.height,
                width: Self.blockSize.width - 2, height: Self.blockSize.height - 2)
            if block.minY >= bounds.maxY { break }
            guard block.intersects(rect) else { continue }
            var color = nucleotideBases[base] ?? .gray
            if let highlightedBase, highlightedBase != base {
                color = color.withAlphaComponent(0.22)
            }
            context.setFillColor(color)
            context.fill(Path(roundedRect: block, cornerRadius: 3))
            let letter = String(base)
            let width = font.measure(letter).width
            context.draw(
                letter,
                at: CGPoint(x: (block.midX - width / 2).rounded(), y: (block.midY + font.ascent / 2 - 1).rounded()),
                font: font, color: .white)
        }
    }
}
