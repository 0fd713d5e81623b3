import CHarfBuzz

/// The HarfBuzz shapers a face shapes with: the library's default list, or OpenType and
/// the fallback shaper alone.
///
/// HarfBuzz tries its shapers in order for each `hb_shape` call, and Debian's HarfBuzz puts
/// Graphite first. For a face without Graphite tables (no `Silf`: nearly every font) the
/// Graphite shaper's face data is never made, and so never kept: each call looks for the
/// table again (`FT_Load_Sfnt_Table` through hb-ft, FreeType's module look-up by name),
/// some 25 lines of code per typed key (docs/performance.md, "Listeners without libffi").
/// Naming the shapers for such a face (`hb_shape_full`) skips the look; a face with
/// Graphite tables keeps the default list, Graphite first, and shapes as before.
///
/// The names live at a fixed address for the life of the process and are never written,
/// hence `@unchecked Sendable`.
struct HarfBuzzShapers: @unchecked Sendable {
    /// The NULL-terminated list for `hb_shape_full`; nil for HarfBuzz's default.
    let list: UnsafePointer<UnsafePointer<CChar>?>?

    /// HarfBuzz's default list (Graphite first, where it is built in).
    static let all = HarfBuzzShapers(list: nil)

    /// "ot", then "fallback": every shaper but Graphite's.
    static let withoutGraphite: HarfBuzzShapers = {
        let names = ["ot", "fallback"]
        let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count + 1)
        for (index, name) in names.enumerated() {
            list[index] = name.withCString { UnsafePointer(strdup($0)) }  // never freed: static
        }
        list[names.count] = nil
        return HarfBuzzShapers(list: UnsafePointer(list))
    }()

    /// The shapers for `face`: the default list when the face has Graphite tables
    /// (`Silf`), otherwise ``withoutGraphite``. Looks the table up once.
    static func forFace(_ face: OpaquePointer) -> HarfBuzzShapers {
        let silf = hb_tag_from_string("Silf", 4)
        guard let table = hb_face_reference_table(face, silf) else { return withoutGraphite }
        defer { hb_blob_destroy(table) }
        return hb_blob_get_length(table) > 0 ? all : withoutGraphite
    }
}
