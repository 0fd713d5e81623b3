/// How a container's accessibility children belong together (UIKit's
/// `UIAccessibilityContainerType`).
public enum AccessibilityContainerType: Sendable, Hashable {
    /// An ordinary container: it groups nothing in particular.
    case none
    /// A list: its children are its rows; one or more may be selected.
    case list
    /// A table of data in rows and columns.
    case dataTable
    /// A landmark: a region a user jumps to (a sidebar, the main content).
    case landmark
    /// A group whose children are read as one unit.
    case semanticGroup
}
