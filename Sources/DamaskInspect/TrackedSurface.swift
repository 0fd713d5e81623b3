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
    /// Whether the sub-surface is in synchronized mode (`wl_subsurface.set_sync`, the
    /// default); its own commits then only cache state, applied at its parent's commit.
    var isSynchronized = false
    /// Whether the sub-surface's parent was destroyed (its wl_subsurface lives on): it is
    /// unmapped, never applied by a parent again (not by a new surface that gets the parent's
    /// object id either), and a synchronized one caches its commits for good, as Weston's
    /// `subsurface_is_synchronized` keeps it synchronized without a parent.
    var isOrphaned = false
    var pending: Pending
    /// State a synchronized sub-surface committed that its parent has not applied yet: later
    /// commits add to it (newest attach and geometry win, damage accumulates).
    var cached: Pending?
    var geometry = SurfaceGeometry()
    /// The buffer of the last commit that attached one.
    var currentBuffer: TrackedBuffer?
    /// The content of the last buffer commit (nil before the first one or after unmapping):
    /// the store of the buffer committed then, shared with it (counted in its `shownBy`).
    var content: PixelStore? {
        didSet {
            guard oldValue !== content else { return }
            oldValue?.shownBy -= 1
            content?.shownBy += 1
        }
    }
    /// A store no buffer or surface uses any more, kept to be reused when a buffer cannot be
    /// rewritten in place (it is the content being compared against, or another surface shows it).
    var spare: PixelStore?
    /// The geometry `content` was committed with.
    var contentGeometry: SurfaceGeometry?
    var commitCount = 0

    init(id: UInt32, client: Int) {
        self.id = id
        self.client = client
        pending = Pending(geometry: SurfaceGeometry())
    }

    deinit { content?.shownBy -= 1 }

    /// Adds `newer` (a later commit) to cached state `older`, as a compositor does.
    static func merge(_ older: Pending?, _ newer: Pending) -> Pending {
        guard var merged = older else { return newer }
        if let attached = newer.attached { merged.attached = attached }
        merged.surfaceDamage += newer.surfaceDamage
        merged.bufferDamage += newer.bufferDamage
        merged.frameRequested = merged.frameRequested || newer.frameRequested
        merged.geometry = newer.geometry
        return merged
    }

    /// A label for reports: role and title.
    var label: String {
        var text = role
        if let parent { text += " of @\(parent)" }
        if let title, !title.isEmpty { text += " \"\(title)\"" }
        return text
    }
}
