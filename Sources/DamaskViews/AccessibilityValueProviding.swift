/// An accessible view or element whose value is a number in a range: a progress bar, a
/// slider (UIKit gives this through `UIProgressView` and `UISlider`; AT-SPI has a Value
/// interface for it). Main-actor.
///
/// ``Accessible/accessibilityValue`` stays the text read out ("40 %"); this is the number
/// behind it.
@MainActor public protocol AccessibilityValueProviding: AnyObject {
    /// The current value, within ``accessibilityValueRange``.
    var accessibilityNumericValue: Double { get }
    /// The smallest and largest value.
    var accessibilityValueRange: ClosedRange<Double> { get }
    /// The smallest step a change makes (0: any).
    var accessibilityValueStep: Double { get }
    /// Sets the value on behalf of an assistive technology; returns whether it was taken
    /// (a progress bar shows a task's progress and refuses). Default: refuses.
    func setAccessibilityNumericValue(_ value: Double) -> Bool
}

extension AccessibilityValueProviding {
    public var accessibilityValueStep: Double { 0 }
    public func setAccessibilityNumericValue(_ value: Double) -> Bool { false }
}
