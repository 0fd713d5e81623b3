import CFontconfig
import CFreeType
import Foundation

/// The process-wide FreeType library and fontconfig access, behind one lock.
///
/// FreeType's `FT_Library` and its faces are not thread-safe, so every FreeType and
/// fontconfig call in DamaskGraphics, and every use of a cached glyph image, happens
/// inside ``withLock(_:)``. The library and the faces it opens live for the whole
/// process (faces are shared by every ``Font`` using the same file).
final class FreeTypeLibrary: @unchecked Sendable {
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
    /// Box glyphs (the built-in font and missing glyphs) by pixel size in 1/64 px.
    var boxGlyphs: [Int: GlyphImage] = [:]

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
        let key = "\(file)#\(index)"
        if let face = faces[key] {
            matches[request] = face
            return face
        }
        var face: FT_Face?
        guard FT_New_Face(library, file, index, &face) == 0, let face else { return nil }
        guard face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            return nil
        }
        let result = FontFace(face: face)
        faces[key] = result
        matches[request] = result
        return result
    }

    /// Asks fontconfig for the file and face index best matching the request.
    private static func match(family: String, weight: Font.Weight) -> (String, Int)? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                FcPatternAddString(pattern, "family", $0)
            }
        }
        _ = FcPatternAddInteger(pattern, "weight", weight == .bold ? 200 : 80)
        _ = FcPatternAddBool(pattern, "scalable", 1)
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(matched, "file", 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(matched, "index", 0, &index) != FcResultMatch { index = 0 }
        return (String(cString: file), Int(index))
    }
}
