/// Counters of the work one window's frames did: what its passes visited, painted and
/// allocated. For tests, benchmarks and diagnostics; nothing in the display cycle reads them.
///
/// Each ``Window`` owns one (``Window/statistics``), so two windows — two tests running
/// side by side — never count into each other. A layer tree in no window counts nowhere.
/// Main-actor isolated, like the window.
@MainActor public final class WindowStatistics {
    /// Creates zeroed counters.
    init() {}

    // MARK: Compositing

    /// How many layers painted their own content (background, contents).
    @exclusivity(unchecked) public internal(set) var paintedLayerCount = 0
    /// How many layers compositing visited (a subtree skipped by its footprint is not).
    @exclusivity(unchecked) public internal(set) var visitedLayerCount = 0
    /// How many layers a repaint left unpainted because opaque layers in front of them hide
    /// all they would paint in the region.
    @exclusivity(unchecked) public internal(set) var occludedLayerCount = 0
    /// How many sublayers a repaint looked at to decide whether to visit them.
    @exclusivity(unchecked) public internal(set) var examinedSublayerCount = 0
    /// How many times a layer's opaque contents or background replaced pixels (SRC) instead
    /// of blending over them.
    @exclusivity(unchecked) public internal(set) var replacedLayerCount = 0
    /// How many repaints were done by copying one layer's opaque contents without a plan
    /// (``OpaqueContentsRepaint``).
    @exclusivity(unchecked) public internal(set) var copiedRepaintCount = 0

    // MARK: Walks

    /// How many layers the display walks visited.
    @exclusivity(unchecked) public internal(set) var displayWalkVisitCount = 0
    /// How many views the layout walks visited.
    @exclusivity(unchecked) public internal(set) var layoutWalkVisitCount = 0

    // MARK: Backing stores

    /// The bytes held now by the backing stores allocated while their layers were in this
    /// window (a store is charged to the window it was allocated in until it is freed).
    public internal(set) var liveBackingStoreBytes = 0
    /// How many backing stores (or tiles of tiled ones) were allocated in this window.
    public internal(set) var backingStoreAllocationCount = 0
    /// How many display attempts found a backing store too large to allocate.
    public internal(set) var oversizedBackingStoreReportCount = 0

    // MARK: Animations

    /// How many animations added to this window's layers were refused.
    public internal(set) var animationProblemCount = 0
    /// The refusal messages already written for this window's layers.
    var reportedAnimationProblems = Set<String>()

    /// Adds `bytes` of a newly allocated store (or tile) to the live bytes.
    func backingStoreDidAllocate(bytes: Int) {
        precondition(bytes >= 0, "a store holds a non-negative number of bytes")
        liveBackingStoreBytes += bytes
        backingStoreAllocationCount += 1
    }

    /// Takes `bytes` of a freed store (or tiles) off the live bytes.
    func backingStoreDidFree(bytes: Int) {
        liveBackingStoreBytes -= bytes
        assert(liveBackingStoreBytes >= 0, "freed more backing-store bytes than were charged to this window")
    }
}
