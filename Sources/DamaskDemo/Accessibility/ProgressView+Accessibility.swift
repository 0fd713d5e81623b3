import DamaskViews

/// The progress bar's number for AT-SPI's Value interface: 0…100 %, not settable by an
/// assistive technology (the bar shows progress; the scene's keys change it).
extension ProgressView: AccessibilityValueProviding {
    var accessibilityNumericValue: Double { Double(progress) * 100 }
    var accessibilityValueRange: ClosedRange<Double> { 0...100 }
}
