import Testing

@testable import DamaskGraphics

/// The cache of whole-line masks stays within its byte budget and drops the least
/// recently used masks first.
@Suite("Line mask cache", .timeLimit(.minutes(5)))
struct LineMaskCacheTests {
    /// A zeroed mask of `kibibytes` KiB (rows of 1,024 bytes).
    private func mask(kibibytes: Int) throws -> CoverageMask {
        try #require(CoverageMask(x: 0, y: 0, width: 1024, height: kibibytes))
    }

    private func key(_ line: Int) -> LineMaskCache.Key {
        LineMaskCache.Key(line: line, size64: 14 * 64, scale: 1, fractionX: 0, fractionY: 0)
    }

    @Test("beyond 4 MiB the least recently used masks go first; a recently used one stays")
    func evictsLeastRecentlyUsed() throws {
        let cache = LineMaskCache()
        let perMask = 512
        let fits = LineMaskCache.byteLimit / (perMask * 1024)
        #expect(fits == 8)
        for line in 1...fits { cache.insert(try mask(kibibytes: perMask), for: key(line)) }
        #expect(cache.count == fits)
        #expect(cache.byteCount == LineMaskCache.byteLimit)
        // Line 1 is used again, so line 2 is now the least recently used.
        #expect(cache.mask(for: key(1)) != nil)
        cache.insert(try mask(kibibytes: perMask), for: key(fits + 1))
        #expect(cache.byteCount <= LineMaskCache.byteLimit)
        #expect(cache.count == fits)
        #expect(cache.mask(for: key(1)) != nil)
        #expect(cache.mask(for: key(2)) == nil)
        #expect(cache.mask(for: key(fits + 1)) != nil)
        // Many more inserts never exceed the budget.
        for line in 100..<140 { cache.insert(try mask(kibibytes: 100 + line % 7 * 50), for: key(line)) }
        #expect(cache.byteCount <= LineMaskCache.byteLimit)
    }

    @Test("a mask above 1 MiB is not kept, and the same key looks up only its own mask")
    func largeMasksAreNotKept() throws {
        let cache = LineMaskCache()
        cache.insert(try mask(kibibytes: 1025), for: key(1))
        #expect(cache.count == 0 && cache.byteCount == 0)
        let small = try mask(kibibytes: 4)
        cache.insert(small, for: key(2))
        #expect(cache.mask(for: key(2)) === small)
        var shifted = key(2)
        shifted.fractionX = 0.25
        #expect(cache.mask(for: shifted) == nil)
        // Replacing a key's mask does not count its bytes twice.
        cache.insert(try mask(kibibytes: 8), for: key(2))
        #expect(cache.count == 1 && cache.byteCount == 8 * 1024)
    }
}
