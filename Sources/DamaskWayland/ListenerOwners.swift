/// The objects registered as listener data, so that a callback can assert its owner is
/// still alive (debug builds; the test runs are debug builds).
///
/// The rule it checks (CONTRIBUTING.md, "Adding a Wayland protocol"): the owner passes
/// `Unmanaged.passUnretained(self)` as a proxy's data and destroys the proxy before it goes
/// away itself, so libwayland never calls back into a freed object. Each owner is kept
/// weakly by address; a callback whose data address has no live owner of the expected type
/// is an assertion failure naming the type. Main-actor: every listener runs on the main
/// thread.
@MainActor enum ListenerOwners {
    /// A weak reference to one owner.
    private final class Entry {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    /// Owners by address (entries whose owner is gone are pruned as the table grows).
    private static var entries: [Int: Entry] = [:]
    /// The table's size after the last pruning.
    private static var prunedCount = 0

    /// Records `owner` as live listener data.
    static func record(_ owner: AnyObject) {
        entries[Int(bitPattern: Unmanaged.passUnretained(owner).toOpaque())] = Entry(owner)
        if entries.count > 2 * prunedCount + 64 {
            entries = entries.filter { $0.value.object != nil }
            prunedCount = entries.count
        }
    }

    /// Whether the object at `address` is a live owner of type `type`.
    static func isLive<Owner: AnyObject>(_ address: Int, as type: Owner.Type) -> Bool {
        entries[address]?.object is Owner
    }
}

/// The listener data for `owner`: `Unmanaged.passUnretained(owner)`, recorded (in debug
/// builds) so that ``owner(_:as:)`` can assert the owner is alive when libwayland calls back.
/// The caller owns the proxy it passes this to and destroys it before going away.
@MainActor func listenerData(for owner: AnyObject) -> UnsafeMutableRawPointer {
    #if DEBUG
    ListenerOwners.record(owner)
    #endif
    return Unmanaged.passUnretained(owner).toOpaque()
}
