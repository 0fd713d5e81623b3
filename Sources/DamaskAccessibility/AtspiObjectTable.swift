import DamaskViews

/// The object paths handed out so far and the nodes behind them: built lazily, as an
/// assistive technology asks (nothing is walked before it asks). Objects are held weakly:
/// a view that went away answers as defunct. Main-actor.
@MainActor final class AtspiObjectTable {
    /// The application's path (the one the registry embeds).
    static let rootPath = "/org/a11y/atspi/accessible/root"
    /// The prefix of every other path.
    static let prefix = "/org/a11y/atspi/accessible/"

    /// What the table remembers about one exported object.
    final class Entry {
        let path: String
        weak var object: AnyObject?
        let isWindow: Bool
        /// The node it was last listed under (its parent in the tree the AT saw).
        weak var listedParent: AnyObject?
        /// The visible children last reported, once the AT asked for them (for
        /// children-changed events).
        var reportedChildren: [ObjectIdentifier]?
        /// The extents last reported (for bounds-changed events).
        var reportedExtents: [Int32]?
        /// The text last reported (for text-changed events): a text's text when the AT
        /// first learnt of it (its path was handed out), then after each change.
        var reportedText: String?

        init(path: String, object: AnyObject, isWindow: Bool) {
            self.path = path
            self.object = object
            self.isWindow = isWindow
        }
    }

    private var entriesByObject: [ObjectIdentifier: Entry] = [:]
    private var entriesByPath: [String: Entry] = [:]
    private var nextID = 1

    /// The path of `node`, handed out now if it has none.
    func path(of node: AtspiNode) -> String {
        guard let object = node.object else { return Self.rootPath }
        return entry(for: object, isWindow: { if case .window = node { true } else { false } }()).path
    }

    /// The entry of `object`, made now if there is none.
    func entry(for object: AnyObject, isWindow: Bool) -> Entry {
        let key = ObjectIdentifier(object)
        if let entry = entriesByObject[key], entry.object === object { return entry }
        let entry = Entry(path: Self.prefix + String(nextID), object: object, isWindow: isWindow)
        // What the AT may read from now on: the base the next text-changed event is told against.
        entry.reportedText = (object as? any AccessibilityTextProviding)?.accessibilityText
        nextID += 1
        entriesByObject[key] = entry
        entriesByPath[entry.path] = entry
        if entriesByObject.count > 64 && entriesByObject.count.isMultiple(of: 64) { prune() }
        return entry
    }

    /// The entry of `object` if it was exported.
    func existingEntry(for object: AnyObject) -> Entry? {
        guard let entry = entriesByObject[ObjectIdentifier(object)], entry.object === object else { return nil }
        return entry
    }

    /// The node at `path`; nil when unknown or gone.
    func node(at path: String) -> AtspiNode? {
        if path == Self.rootPath { return .application }
        guard let entry = entriesByPath[path], let object = entry.object else { return nil }
        if entry.isWindow, let window = object as? Window { return .window(window) }
        if let element = object as? any Accessible { return .element(element) }
        return nil
    }

    /// Every live entry.
    var entries: [Entry] { entriesByPath.values.filter { $0.object != nil } }

    /// Forgets entries whose object went away.
    private func prune() {
        for (key, entry) in entriesByObject where entry.object == nil {
            entriesByObject[key] = nil
            entriesByPath[entry.path] = nil
        }
    }
}
