/// The keys held down (xkb keycodes), each once: a handful at a time.
///
/// An array searched linearly, not a `Set`: a typed key inserts one at its press and removes
/// it at its release, and hashing would bring the hasher's code into both wake-ups
/// (docs/performance.md, "The wake-ups of a key").
struct HeldKeys: Equatable {
    /// The keycodes, in the order they were pressed.
    private(set) var keycodes: [UInt32] = []

    /// No key held.
    init() {}

    /// The keys in `keycodes`, each once (a compositor's `enter` may repeat one); sorted
    /// first, so a hostile list of millions of keys costs O(n log n), not O(n²).
    init(_ keycodes: [UInt32]) {
        var unique: [UInt32] = []
        for keycode in keycodes.sorted() where unique.last != keycode { unique.append(keycode) }
        self.keycodes = unique
    }

    /// Whether `keycode` is held.
    func contains(_ keycode: UInt32) -> Bool {
        keycodes.contains(keycode)
    }

    /// Notes `keycode` as held (a second press of a held key changes nothing).
    mutating func insert(_ keycode: UInt32) {
        if !keycodes.contains(keycode) { keycodes.append(keycode) }
    }

    /// Notes `keycode` as released, if it was held.
    mutating func remove(_ keycode: UInt32) {
        if let index = keycodes.firstIndex(of: keycode) { keycodes.remove(at: index) }
    }

    /// Notes every key as released, keeping the storage for the next presses.
    mutating func removeAll() {
        keycodes.removeAll(keepingCapacity: true)
    }
}
