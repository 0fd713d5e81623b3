/// What kind of element an accessible view or element is, and what state it is in, as
/// assistive technologies see it (UIKit's `UIAccessibilityTraits`).
///
/// Traits combine: a selected row of a list is `[.button, .selected]`. The AT-SPI bridge
/// (DamaskAccessibility) derives an element's role from the first kind trait it has and its
/// states from the state traits (see docs/accessibility.md for the table). The first block
/// mirrors UIKit's traits; the second adds kinds UIKit expresses through its control
/// classes (a text field, a progress bar), which a view of another class needs to say.
public struct AccessibilityTraits: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    // MARK: UIKit's traits

    /// Something that acts when activated (a push button).
    public static let button = AccessibilityTraits(rawValue: 1 << 0)
    /// A link to another place.
    public static let link = AccessibilityTraits(rawValue: 1 << 1)
    /// A heading that starts a section.
    public static let header = AccessibilityTraits(rawValue: 1 << 2)
    /// Text that does not change by itself and cannot be edited (a label).
    public static let staticText = AccessibilityTraits(rawValue: 1 << 3)
    /// A picture.
    public static let image = AccessibilityTraits(rawValue: 1 << 4)
    /// The element is selected (a list row, a tab).
    public static let selected = AccessibilityTraits(rawValue: 1 << 5)
    /// The element is disabled: it does not respond to the user now.
    public static let notEnabled = AccessibilityTraits(rawValue: 1 << 6)
    /// The element's value can be changed by steps (``View/accessibilityIncrement()``).
    public static let adjustable = AccessibilityTraits(rawValue: 1 << 7)
    /// The element's label or value changes often (a clock, a progress bar): an assistive
    /// technology polls it rather than announcing every change.
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 8)
    /// A field that searches.
    public static let searchField = AccessibilityTraits(rawValue: 1 << 9)
    /// A key of an on-screen keyboard.
    public static let keyboardKey = AccessibilityTraits(rawValue: 1 << 10)
    /// A summary of the app's state, read when it starts.
    public static let summaryElement = AccessibilityTraits(rawValue: 1 << 11)
    /// The user works on the element directly with the pointer (a drawing canvas).
    public static let allowsDirectInteraction = AccessibilityTraits(rawValue: 1 << 12)
    /// A container of tabs.
    public static let tabBar = AccessibilityTraits(rawValue: 1 << 13)
    /// The element plays a sound when activated.
    public static let playsSound = AccessibilityTraits(rawValue: 1 << 14)
    /// The element starts a media session when activated.
    public static let startsMediaSession = AccessibilityTraits(rawValue: 1 << 15)
    /// Activating the element turns a page.
    public static let causesPageTurn = AccessibilityTraits(rawValue: 1 << 16)
    /// The element has no traits of its own (UIKit's `.none`; the empty set).
    public static let none: AccessibilityTraits = []

    // MARK: Kinds UIKit gives through its control classes

    /// Text the user edits (UIKit: `UITextField`); its text is read through
    /// ``AccessibilityTextProviding``.
    public static let textEntry = AccessibilityTraits(rawValue: 1 << 32)
    /// The progress of a task (UIKit: `UIProgressView`); its value is read through
    /// ``AccessibilityValueProviding``.
    public static let progressIndicator = AccessibilityTraits(rawValue: 1 << 33)
    /// The element is busy: work is under way and its content is not final (UIKit:
    /// `UIActivityIndicatorView` while animating).
    public static let busy = AccessibilityTraits(rawValue: 1 << 34)
    /// A row of a list; in a container of type ``AccessibilityContainerType/list`` rows are
    /// list items whatever their other traits.
    public static let listItem = AccessibilityTraits(rawValue: 1 << 35)
    /// A moving picture (an animation the user can watch but not work with).
    public static let animation = AccessibilityTraits(rawValue: 1 << 36)
    /// A button that stays on or off (UIKit: `UISwitch`, iOS 17's `.toggleButton`): with
    /// ``selected`` it is on. The AT-SPI bridge gives it the toggle-button role and the
    /// checkable and checked states.
    public static let toggleButton = AccessibilityTraits(rawValue: 1 << 37)
}
