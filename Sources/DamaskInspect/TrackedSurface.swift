/// One `wl_surface` as the inspector follows it: pending and current state, and the content
/// it last committed.
///
/// Not thread-safe: owned by the `DamageTracker` of its connection.
final class TrackedSurface {
    /// The state a commit applies.
    struct Pending {
        /// nil: no attach since the last commit; .some(nil): a null buffer attached.
        var attached: UInt32??
        var surfaceDamage: [PixelRect] = []
        var bufferDamage: [PixelRect] = []
        var frameRequested = false
        var geometry: SurfaceGeometry
    }

    let id: UInt32
    let client: Int
    /// "toplevel", "popup", "subsurface", "cursor" or "surface" (no role seen).
    var role = "surface"
    /// The toplevel's title, when it has one.
    var title: String?
    /// The parent surface of a sub-surface.
    var parent: UInt32?
    var pending: Pending
    var geometry = SurfaceGeometry()
    /// The buffer of the last commit that attached one.
    var currentBuffer: TrackedBuffer?
    /// The content of the last buffer commit (nil before the first one or after unmapping).
    var content: ContentSnapshot?
    /// The geometry `content` was committed with.
    var contentGeometry: SurfaceGeometry?
    var commitCount = 0

    init(id: UInt32, client: Int) {
        self.id = id
        self.client = client
        pending = Pending(geometry: SurfaceGeometry())
    }

    /// A label for reports: role and title.
    var label: String {
        var text = role
        if let parent { text += " of @\(parent)" }
        if let title, !title.isEmpty { text += " \"\(title)\"" }
        return text
    }
}
