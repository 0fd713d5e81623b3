import DamaskViews
import Foundation

/// Counts repeated presses of one button into single, double and triple clicks.
///
/// A press continues the current run when it uses the same button, comes within
/// ``interval`` milliseconds of the previous press and lands within ``slop`` points of it;
/// otherwise it starts a new run at 1. A plain value type; the seat's pointer owns one.
struct ClickCounter: Equatable {
    /// The longest gap between two presses of one run, in milliseconds.
    var interval: UInt32 = 400
    /// The farthest two presses of one run may be apart, in points.
    var slop: CGFloat = 4

    private var lastButton: MouseButton?
    private var lastTime: UInt32 = 0
    private var lastLocation: CGPoint = .zero
    private var count = 0

    /// Records a press and returns its click count (1 for a single click, 2 for a double…).
    mutating func press(_ button: MouseButton, at location: CGPoint, time: UInt32) -> Int {
        let elapsed = time &- lastTime
        let distance = hypot(location.x - lastLocation.x, location.y - lastLocation.y)
        if lastButton == button, count > 0, elapsed <= interval, distance <= slop {
            count += 1
        } else {
            count = 1
        }
        lastButton = button
        lastTime = time
        lastLocation = location
        return count
    }

    /// Forgets the current run (the pointer left, or the window lost focus).
    mutating func reset() {
        lastButton = nil
        count = 0
    }
}
