import CFontconfig
import CFreeType
import CHarfBuzz
import Foundation

/// The process-wide FreeType library and fontconfig access, behind one lock.
///
/// FreeType's `FT_Library` and its faces are not thread-safe, so every FreeType and
/// fontconfig call in DamaskGraphics, and every use of a cached glyph image, happens
/// inside ``withLock(_:)``. The library and the faces it opens live for the whole
/// process (faces are shared by every ``Font`` using the same file).
final class FreeTypeLibrary: @unchecked Sendable {
    /// A font fontconfig offers for a request: its file, face index and the characters it
    /// has (one `FcCharSet` reference owned here for the life of the process).
    private struct FallbackCandidate {
        var file: String
        var index: Int
        var charset: OpaquePointer
    }

    /// The shared instance.
    static let shared = FreeTypeLibrary()

    private let lock = NSLock()
    /// The `FT_Library`; nil when FreeType failed to initialise (text then uses the
    /// built-in box font). Only touched under `lock`.
    private let library: FT_Library?
    /// Opened faces by "file#index"; only touched under `lock`.
    private var faces: [String: FontFace] = [:]
    /// Faces already matched by "family#weight", so repeated `Font` creation skips
    /// fontconfig; only touched under `lock`.
    private var matches: [String: FontFace] = [:]
    /// fontconfig's ordered fonts by "family#weight#language"; only touched under `lock`.
    private var fallbackCandidates: [String: [FallbackCandidate]] = [:]
    /// Rendered glyph images. Only used under `lock`.
    let glyphCache = GlyphCache()
    /// Laid-out lines by string and font; only touched under `lock`.
    private var lines: [TextLine.Key: TextLine] = [:]
    /// Lines kept before the line cache is emptied.
    static let lineCacheLimit = 1024
    /// The lines looked up last, most recent first (at most ``recentLineLimit``): a line
    /// drawn again is found by comparing bytes, without hashing its whole string (hashing
    /// is proportional to the UTF-8 length: 381 bytes for a Bengali line of 80 clusters,
    /// 80 for a Latin line of 80). Only touched under `lock`.
    private var recentLines: [(key: TextLine.Key, line: TextLine)] = []
    /// How many recently used lines are checked before the hashed cache.
    static let recentLineLimit = 4
    /// The last ``TextLine/serial`` handed out; only touched under `lock`.
    private var lastLineSerial = 0
    /// How many times the line cache was emptied (it is emptied whole at
    /// ``lineCacheLimit``); only touched under `lock`. Lets a test tell a line laid out
    /// again because the cache was emptied (by any thread) from one that was never cached.
    private(set) var lineCacheClearCountLocked = 0
    /// Rendered masks of whole lines; only used under `lock`.
    let lineMasks = LineMaskCache()
    /// The HarfBuzz buffer all shaping goes through, cleared before each use
    /// (``TextShaper``), so that its glyph arrays are allocated once rather than for every
    /// line shaped (a typed key shapes one). Owned by the library, which lives as long as
    /// the process; only used under `lock`. nil when HarfBuzz could not allocate it.
    let shapingBuffer: OpaquePointer? = {
        guard let buffer = hb_buffer_create(), hb_buffer_allocation_successful(buffer) != 0 else { return nil }
        return buffer
    }()

    private init() {
        var library: FT_Library?
        if FT_Init_FreeType(&library) != 0 { library = nil }
        self.library = library
        _ = FcInit()
    }

    /// Runs `body` holding the lock. Not reentrant: `body` must not call `withLock`.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Finds the best fontconfig match for `family` and `weight` and returns its face,
    /// opening it on first use. Call with the lock held.
    func faceLocked(family: String, weight: Font.Weight) -> FontFace? {
        let request = "\(family)#\(weight)"
        if let face = matches[request] { return face }
        guard library != nil, let (file, index) = Self.match(family: family, weight: weight) else { return nil }
        guard let face = openFaceLocked(file: file, index: index) else { return nil }
        matches[request] = face
        return face
    }

    /// The face in `file` at `index`, opened on first use. Call with the lock held.
    private func openFaceLocked(file: String, index: Int) -> FontFace? {
        let key = "\(file)#\(index)"
        if let face = faces[key] { return face }
        // Read through a stream, not mapped: only the bytes FreeType asks for become resident.
        guard let library, let face = FontFileStream.openFace(library: library, path: file, index: index) else {
            return nil
        }
        guard let result = FontFace(face: face) else {
            FT_Done_Face(face)
            return nil
        }
        faces[key] = result
        return result
    }

    /// The face to draw a grapheme cluster's `scalars` with in a run of `language` (a
    /// fontconfig language tag for the run's script, or nil): the first font that has
    /// every one of them in fontconfig's ordering for (`family`, `weight`, `language`), as
    /// Pango chooses. The ordering is fetched once per request and language and kept.
    /// Nil when no installed scalable font has them all. Call with the lock held.
    func faceLocked(covering scalars: [UInt32], language: String?, family: String, weight: Font.Weight) -> FontFace? {
        let key = "\(family)#\(weight)#\(language ?? "")"
        let candidates: [FallbackCandidate]
        if let cached = fallbackCandidates[key] {
            candidates = cached
        } else {
            candidates = library == nil ? [] : Self.sortedCandidates(family: family, weight: weight, language: language)
            fallbackCandidates[key] = candidates
        }
        for candidate in candidates where scalars.allSatisfy({ FcCharSetHasChar(candidate.charset, $0) != 0 }) {
            guard let face = openFaceLocked(file: candidate.file, index: candidate.index) else { continue }
            if scalars.allSatisfy({ Unicode.Scalar($0).map { face.glyphIndex(for: $0) != 0 } ?? false }) { return face }
        }
        return nil
    }

    /// All scalable fonts in fontconfig's order of preference for the request.
    private static func sortedCandidates(family: String, weight: Font.Weight, language: String?) -> [FallbackCandidate] {
        guard let pattern = makePattern(family: family, weight: weight, language: language) else { return [] }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        guard let set = FcFontSort(nil, pattern, 0, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        var candidates: [FallbackCandidate] = []
        for index in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[index] else { continue }
            var charset: OpaquePointer?
            var scalable: FcBool = 0
            guard FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset,
                FcPatternGetBool(font, "scalable", 0, &scalable) == FcResultMatch, scalable != 0,
                let (file, faceIndex) = fileAndIndex(of: font), let copy = FcCharSetCopy(charset)
            else { continue }
            candidates.append(FallbackCandidate(file: file, index: faceIndex, charset: copy))
        }
        return candidates
    }

    /// The cached layout of `key`'s string, or the result of `make`, cached from then on.
    /// Call with the lock held.
    func lineLocked(_ key: TextLine.Key, make: () -> TextLine) -> TextLine {
        if let recent = recentLines.first(where: { $0.key == key }) { return recent.line }
        let line: TextLine
        if let cached = lines[key] {
            line = cached
        } else {
            line = numbered(make())
            if lines.count >= Self.lineCacheLimit {
                lines.removeAll(keepingCapacity: true)
                lineCacheClearCountLocked += 1
            }
            lines[key] = line
        }
        if recentLines.count >= Self.recentLineLimit { recentLines.removeLast() }
        recentLines.insert((key, line), at: 0)
        return line
    }

    /// The result of `make`, numbered like a cached line but neither looked up nor cached:
    /// the line of an edited chunk (see ``Font/line(for:style:reusing:)``). Call with the
    /// lock held.
    func uncachedLineLocked(make: () -> TextLine) -> TextLine {
        numbered(make())
    }

    /// `line` with the next serial (masks and glyph placements are keyed by it).
    private func numbered(_ line: TextLine) -> TextLine {
        lastLineSerial += 1
        line.serial = lastLineSerial
        return line
    }

    /// Asks fontconfig for the file and face index best matching the request.
    static func match(family: String, weight: Font.Weight) -> (String, Int)? {
        guard let pattern = makePattern(family: family, weight: weight) else { return nil }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        return fileAndIndex(of: matched)
    }

    /// A substituted fontconfig pattern for a scalable `family` at `weight` (and
    /// `language`, when given); the caller owns (destroys) it.
    private static func makePattern(family: String, weight: Font.Weight, language: String? = nil) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        if let language {
            _ = language.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: language.utf8.count + 1) {
                    FcPatternAddString(pattern, "lang", $0)
                }
            }
        }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                FcPatternAddString(pattern, "family", $0)
            }
        }
        _ = FcPatternAddInteger(pattern, "weight", weight == .bold ? 200 : 80)
        _ = FcPatternAddBool(pattern, "scalable", 1)
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    /// The "file" and "index" of a fontconfig font pattern.
    private static func fileAndIndex(of matched: OpaquePointer) -> (String, Int)? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(matched, "file", 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(matched, "index", 0, &index) != FcResultMatch { index = 0 }
        return (String(cString: file), Int(index))
    }
}
