import CXKBCommon

/// The key sequences that type characters through a compose table on one keymap: dead keys
/// (`dead_acute` then `e` types "é") and `Multi_key` sequences, for characters no key level
/// produces by itself.
///
/// libxkbcommon 1.5 cannot list a compose table, so the sequences are found by feeding the
/// table what the keymap's keys produce: every keysym a key level types is tried after every
/// prefix the table is still composing, shortest sequences first (at most
/// ``longestSequence`` keys), and the first sequence found for a character is kept. Within
/// one length, keys with fewer modifiers and lower keycodes come first, so the result is
/// deterministic. The search runs once, on the first look-up.
///
/// Ownership: holds one reference to the `xkb_compose_table` it is given (released in
/// `deinit`). Its `Keymap` owns it (a cache per locale), so it refers to the keymap
/// `unowned`: a strong reference back made a cycle that leaked every keymap that had
/// searched a compose table (LeakSanitizer). Threading: use from one thread at a time,
/// like ``Keymap``.
final class ComposeSequences {
    /// The longest sequence searched, in keys (dead keys stack; `Multi_key` sequences are
    /// usually three keys long).
    static let longestSequence = 4
    /// The most unfinished prefixes followed per length, so a table with unusually many
    /// long sequences cannot make the search balloon.
    static let prefixLimit = 4096

    private let table: OpaquePointer
    /// The keymap that owns this search (it outlives it).
    private unowned let keymap: Keymap
    private var sequences: [Unicode.Scalar: [KeyStroke]]?

    /// A search over `table` (an `xkb_compose_table*`, referenced here) for `keymap`'s keys;
    /// `keymap` must own the new object (it is not retained).
    init(table: OpaquePointer, keymap: Keymap) {
        self.table = xkb_compose_table_ref(table)
        self.keymap = keymap
    }

    deinit {
        xkb_compose_table_unref(table)
    }

    /// The strokes that type `character` through the table, or nil if no sequence of the
    /// keymap's keys composes it.
    func strokes(for character: Unicode.Scalar) -> [KeyStroke]? {
        if sequences == nil { sequences = search() }
        return sequences?[character]
    }

    /// Every character the table composes from the keymap's keys, with its shortest sequence.
    private func search() -> [Unicode.Scalar: [KeyStroke]] {
        guard let state = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS) else { return [:] }
        defer { xkb_compose_state_unref(state) }
        let keys = keymap.keysymStrokes
        var found: [Unicode.Scalar: [KeyStroke]] = [:]
        var prefixes: [[(keysym: UInt32, stroke: KeyStroke)]] = [[]]
        for _ in 0..<Self.longestSequence {
            var longer: [[(keysym: UInt32, stroke: KeyStroke)]] = []
            for prefix in prefixes {
                for key in keys {
                    xkb_compose_state_reset(state)
                    for step in prefix { xkb_compose_state_feed(state, step.keysym) }
                    guard xkb_compose_state_feed(state, key.keysym) == XKB_COMPOSE_FEED_ACCEPTED else { continue }
                    switch xkb_compose_state_get_status(state) {
                    case XKB_COMPOSE_COMPOSING:
                        if longer.count < Self.prefixLimit { longer.append(prefix + [key]) }
                    case XKB_COMPOSE_COMPOSED:
                        let scalars = Array(Self.utf8(of: state).unicodeScalars)
                        guard scalars.count == 1, found[scalars[0]] == nil else { continue }
                        found[scalars[0]] = (prefix + [key]).map(\.stroke)
                    default:
                        continue
                    }
                }
            }
            if longer.isEmpty { break }
            prefixes = longer
        }
        return found
    }

    /// The text `state` (an `xkb_compose_state*` that has just composed) produces.
    private static func utf8(of state: OpaquePointer) -> String {
        let length = xkb_compose_state_get_utf8(state, nil, 0)
        guard length > 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        xkb_compose_state_get_utf8(state, &buffer, buffer.count)
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
