import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The test client's scroll view (`--scroll-view`): a ``ScrollView`` over the left half of
/// the window whose content is 1000 points of horizontal bands, 5 points each, in the
/// seven colours of ``BandedScrollView/colors`` in turn (band `n` at content y `5n`), so a
/// pixel's colour tells how far the content moved. Prints "offset X Y" after every change
/// of the content offset.
final class BandedScrollView: ScrollView {
    /// The band colours, in order from the top of the content.
    static let colors = ["#E6194B", "#3CB44B", "#FFE119", "#4363D8", "#F58231", "#911EB4", "#46F0F0"]
        .map { Color(hex: $0)! }
    /// The height of one band, in points.
    static let bandHeight: CGFloat = 5

    /// Draws the bands.
    final class Bands: View {
        override func draw(_ rect: CGRect) {
            guard let context = GraphicsContext.current else { return }
            let first = Int(rect.minY / BandedScrollView.bandHeight)
            let last = Int((rect.maxY / BandedScrollView.bandHeight).rounded(.up))
            for band in max(first, 0)..<max(last, first) {
                context.setFillColor(BandedScrollView.colors[band % BandedScrollView.colors.count])
                context.fill(CGRect(
                    x: 0, y: CGFloat(band) * BandedScrollView.bandHeight,
                    width: bounds.width, height: BandedScrollView.bandHeight))
            }
        }
    }

    /// Creates the view with its band content, `frame.width` wide and 1000 points tall.
    override init(frame: CGRect) {
        super.init(frame: frame)
        let bands = Bands(frame: CGRect(x: 0, y: 0, width: frame.width, height: 1000))
        bands.isOpaque = true
        addSubview(bands)
        contentSize = bands.frame.size
        showsVerticalScrollIndicator = false
        showsHorizontalScrollIndicator = false
    }

    override func contentOffsetDidChange(from oldOffset: CGPoint) {
        super.contentOffsetDidChange(from: oldOffset)
        // + 0 turns a negative zero (a clamp against an inset of 0) into 0.
        emit("offset \(contentOffset.x + 0) \(contentOffset.y + 0)")
    }
}
