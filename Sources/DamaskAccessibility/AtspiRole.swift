import DamaskViews

/// The AT-SPI roles the bridge gives (`AtspiRole` in at-spi2-core's atspi-constants.h,
/// whose numbers are the wire values), with their names.
enum AtspiRole: UInt32 {
    case animation = 3
    case canvas = 6
    case frame = 23
    case image = 27
    case label = 29
    case list = 31
    case listItem = 32
    case pageTabList = 38
    case panel = 39
    case progressBar = 42
    case pushButton = 43
    case slider = 51
    case table = 55
    case text = 61
    case toggleButton = 62
    case application = 75
    case entry = 79
    case heading = 83
    case link = 88
    case grouping = 99
    case landmark = 110

    /// at-spi2-core's name for the role (`atspi_role_get_name`).
    var name: String {
        switch self {
        case .animation: "animation"
        case .canvas: "canvas"
        case .frame: "frame"
        case .image: "image"
        case .label: "label"
        case .list: "list"
        case .listItem: "list item"
        case .pageTabList: "page tab list"
        case .panel: "panel"
        case .progressBar: "progress bar"
        case .pushButton: "push button"
        case .slider: "slider"
        case .table: "table"
        case .text: "text"
        case .toggleButton: "toggle button"
        case .application: "application"
        case .entry: "entry"
        case .heading: "heading"
        case .link: "link"
        case .grouping: "grouping"
        case .landmark: "landmark"
        }
    }

    /// The role of `node`: the first kind trait in this order decides, then the container
    /// type; an element of no kind is a label (its name is what it says), a container a
    /// panel. `parentIsList`: the node is a child of a list container (rows are list items).
    @MainActor init(of node: any Accessible, parentIsList: Bool) {
        let traits = node.accessibilityTraits
        if node.isAccessibilityElement {
            if traits.contains(.textEntry) || traits.contains(.searchField) {
                // A multi-line text (a text view) is a text, as GTK's and Qt's are; a field an entry.
                let multiline = (node as? any AccessibilityTextProviding)?.isAccessibilityTextMultiline ?? false
                self = multiline ? .text : .entry
            }
            else if traits.contains(.progressIndicator) { self = .progressBar }
            else if traits.contains(.adjustable) { self = .slider }
            else if traits.contains(.listItem) || parentIsList { self = .listItem }
            else if traits.contains(.toggleButton) { self = .toggleButton }
            else if traits.contains(.button) || traits.contains(.keyboardKey) { self = .pushButton }
            else if traits.contains(.link) { self = .link }
            else if traits.contains(.header) { self = .heading }
            else if traits.contains(.allowsDirectInteraction) { self = .canvas }
            else if traits.contains(.animation) { self = .animation }
            else if traits.contains(.image) { self = .image }
            else { self = .label }
            return
        }
        switch node.accessibilityContainerType {
        case .list: self = .list
        case .dataTable: self = .table
        case .landmark: self = .landmark
        case .semanticGroup: self = .grouping
        case .none: self = traits.contains(.tabBar) ? .pageTabList : .panel
        }
    }
}
