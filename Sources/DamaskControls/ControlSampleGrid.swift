import DamaskViews
import Foundation

/// A grid of sample controls — buttons, labels, switches, sliders and progress views in
/// turn — for galleries, theme previews and measurements.
///
/// The bench's "200 controls" figure and the test that pins what it rests on build the same
/// screen from here, so the two cannot drift apart.
@MainActor public enum ControlSampleGrid {
    /// A vertical stack filling `frame` with `rows` horizontal stacks of `columns` controls
    /// each, evenly distributed and centred, not yet laid out.
    ///
    /// The control at row `r`, column `c` is the `(r + c) % 5`-th of button, label, switch,
    /// slider and progress view, so every kind appears in every row and every column.
    public static func make(rows: Int, columns: Int, frame: CGRect) -> StackView {
        precondition(rows >= 0 && columns >= 0, "a grid of \(rows) × \(columns) controls")
        let column = StackView(frame: frame)
        column.axis = .vertical
        column.distribution = .fillEqually
        for rowIndex in 0..<rows {
            let row = StackView(arrangedSubviews: (0..<columns).map { sampleControl(row: rowIndex, column: $0, of: columns) })
            row.distribution = .fillEqually
            row.spacing = 8
            row.alignment = .center
            column.addArrangedSubview(row)
        }
        return column
    }

    /// The controls of a grid made by ``make(rows:columns:frame:)``, row by row.
    public static func controls(in grid: StackView) -> [View] {
        grid.arrangedSubviews.flatMap { ($0 as? StackView)?.arrangedSubviews ?? [] }
    }

    /// The sample control at (`row`, `column`) of a grid `columns` wide.
    private static func sampleControl(row: Int, column index: Int, of columns: Int) -> View {
        switch (row + index) % 5 {
        case 0: return Button(title: "Button \(index)")
        case 1: return Label(text: "Label \(row).\(index)")
        case 2: return Switch(isOn: index % 2 == 0)
        case 3: return Slider(value: Float(index) / Float(max(columns, 1)))
        default: return ProgressView(progress: CGFloat(index) / CGFloat(max(columns, 1)))
        }
    }
}
