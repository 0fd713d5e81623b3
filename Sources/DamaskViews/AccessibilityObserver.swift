/// Something that listens to accessibility notifications: the AT-SPI bridge, a test.
/// Main-actor.
@MainActor public protocol AccessibilityObserver: AnyObject {
    /// Called for every posted notification, in the order posted.
    func accessibilityNotificationPosted(_ notification: AccessibilityNotification)
}
