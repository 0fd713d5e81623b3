import Testing

@testable import DamaskWayland

/// The keys a `wl_keyboard` holds down: each once, released one by one or all together.
@Suite("Held keys", .timeLimit(.minutes(1)))
struct HeldKeysTests {
    @Test("A key pressed twice is held once, and one release frees it")
    func repeatedPressIsHeldOnce() {
        var keys = HeldKeys()
        keys.insert(38)
        keys.insert(39)
        keys.insert(38)
        #expect(keys.keycodes == [38, 39])
        keys.remove(38)
        #expect(!keys.contains(38))
        #expect(keys.contains(39))
        keys.remove(40)  // never pressed: nothing changes
        #expect(keys.keycodes == [39])
    }

    @Test("The keys an enter lists are held once each, however often the list repeats them")
    func enterListIsDeduplicated() {
        let keys = HeldKeys([50, 38, 50, 38, 38, 9])
        #expect(keys.keycodes == [9, 38, 50])
        #expect(HeldKeys([]) == HeldKeys())
    }

    @Test("A hostile enter listing a million keys is taken in one sort, every key once")
    func millionKeyEnterIsSorted() {
        let keys = HeldKeys((0..<1_000_000).map { UInt32($0 % 1_000) })
        #expect(keys.keycodes.count == 1_000)
        #expect(keys.keycodes == (0..<1_000).map(UInt32.init))
    }

    @Test("Releasing every key empties the set, and keys can be pressed again")
    func removeAllReleasesEverything() {
        var keys = HeldKeys([38, 39])
        keys.removeAll()
        #expect(keys.keycodes.isEmpty)
        keys.insert(40)
        #expect(keys.keycodes == [40])
    }
}
