import DamaskGraphics
import Foundation

/// One repaint of a window's tree planned like a desktop compositor plans a frame: which
/// layers paint which pixels of the repaint region, which of them can replace pixels (SRC)
/// instead of blending over them (OVER), and what nothing opaque covers (the only part
/// that is cleared first).
///
/// Built back to front by walking the tree (skipping hidden layers and subtrees whose
/// presented footprint misses the region), then resolved front to back: a layer's own
/// painting is clipped to what the opaque layers in front of it leave visible, and a layer
/// hidden everywhere is not painted at all. Only opacity that is certain counts: a
/// background colour with alpha 1, or contents whose every pixel has full alpha
/// (``Layer/contentsAreOpaque``) placed pixel for pixel, under an effective opacity of 1,
/// an axis-aligned transform and clips that land on whole pixels. Every pixel equals the
/// plain back-to-front OVER composite (``Compositor/composite(_:in:placement:)``).
///
/// One instance is owned by a window's ``Presenter`` and planned again for every repaint
/// (its arrays keep their capacity, so a small repaint allocates almost nothing). Main-actor
/// isolated. Its steps and items refer to layers `unowned(unsafe)`: the window's tree owns
/// them, and between ``plan(root:scale:region:)`` and the end of ``paint(in:target:)`` —
/// one repaint, during which nothing else runs — the tree does not change; the one
/// exception, a tiled layer drawing a missing tile while it is painted (user `draw` code),
/// is covered by holding every planned layer strongly while a plan with a tiled layer paints.
@MainActor final class CompositingPlan {
    /// One step of the back-to-front replay.
    private enum Step {
        /// Save the graphics state, apply the layer's presented transform and, when it
        /// masks, its shape as the clip: entry `index` of ``entries``.
        case enter(Int)
        /// Paint item `index`'s own content.
        case paint(Int)
        /// Restore the graphics state.
        case exit
    }

    /// A layer entered in the replay.
    private struct Entry {
        /// Owned by the window's tree (see the type's note).
        unowned(unsafe) let layer: Layer
        let transform: CGAffineTransform
        let masks: Bool
        /// The index of the matching `exit` step.
        var end: Int
        /// The items painted inside.
        var items: Range<Int>
    }

    /// A layer's own painting (background and contents) in this repaint.
    private struct Item {
        /// Owned by the window's tree (see the type's note).
        unowned(unsafe) let layer: Layer
        /// The layer's effective opacity (its ancestors' included).
        let alpha: CGFloat
        /// The buffer pixels the painting can touch, within the repaint region.
        let footprint: CGRect
        /// The pixels where the background alone is opaque (whole device pixels), `.null`.
        let opaqueBackground: CGRect
        /// The pixels where the contents alone are opaque (whole device pixels), `.null`.
        let opaqueContents: CGRect
        /// Where the contents' top-left pixel lands when they map pixel for pixel.
        let contentsOrigin: (x: Int, y: Int)
        /// The clip of the layer's masking ancestors, in buffer pixels.
        let visibleClip: CGRect
    }

    /// Layers with fewer opaque pixels than this do not join the occlusion region: they
    /// hide too little to pay for the region arithmetic.
    static let minimumOccluderArea: CGFloat = 256

    // The walk's lists and region skip the runtime's exclusivity checks (docs/performance.md,
    // "Exclusivity"): they are private, and no access to them spans a call.
    @exclusivity(unchecked) private var steps: [Step] = []
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var items: [Item] = []
    /// Per item: the pixels it must paint (its footprint minus what opaque layers in front
    /// of it cover), filled by ``resolve()``.
    @exclusivity(unchecked) private var visible: [Region] = []
    /// How many items before each index are visible (prefix sums over ``visible``).
    private var visibleBefore: [Int] = []
    /// The planned layers, held strongly while a plan with a tiled layer paints.
    private var keptAlive: [Layer] = []
    /// Whether some planned layer has a tiled backing store (it may run `draw` code while
    /// it is painted).
    private var hasTiledLayer = false
    /// Debug builds only: every planned layer, held strongly, so that ``paint(in:target:)``
    /// can check the `unowned(unsafe)` invariant (each is still in the planned tree)
    /// without touching freed memory.
    private var plannedLayers: [Layer] = []
    /// Debug builds only: the root of the planned tree.
    private var plannedRoot: Layer?
    /// The part of the region nothing opaque covers: cleared before painting.
    private(set) var uncovered = Region()
    @exclusivity(unchecked) private var region = Region()
    @exclusivity(unchecked) private var regionBounds = CGRect.null
    private var scale: CGFloat = 1
    /// The counters the plan's work is added to (the owning window's; `nil`: none).
    private let statistics: WindowStatistics?

    /// Creates an empty plan counting into `statistics`.
    init(statistics: WindowStatistics? = nil) {
        self.statistics = statistics
    }

    /// Creates the plan of repainting `region` (buffer pixels) of `root`'s tree at `scale`.
    convenience init(root: Layer, scale: CGFloat, region: Region) {
        self.init()
        plan(root: root, scale: scale, region: region)
    }

    /// Plans the repaint of `region` (buffer pixels) of `root`'s tree at `scale`, replacing
    /// the previous plan.
    func plan(root: Layer, scale: CGFloat, region: Region) {
        steps.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        visible.removeAll(keepingCapacity: true)
        visibleBefore.removeAll(keepingCapacity: true)
        hasTiledLayer = false
        assert({
            plannedLayers.removeAll(keepingCapacity: true)
            plannedRoot = root
            return true
        }())
        self.region = region
        self.scale = scale
        self.regionBounds = region.boundingBox
        self.uncovered = region
        guard !region.isEmpty else { return }
        walk(root, parent: .root(scale: scale), exactClip: .infinite)
        resolve()
    }

    /// Walks `layer` back to front like the OVER composite does, recording its steps.
    /// `exactClip` is the device clip of the masking ancestors when it lands on whole
    /// pixels (`nil` when some mask is antialiased or rotated: nothing inside is trusted
    /// to be opaque).
    private func walk(_ layer: Layer, parent: LayerPlacement, exactClip: CGRect?) {
        statistics?.visitedLayerCount += 1
        let placement = parent.descending(into: layer)
        guard placement.isVisible else { return }
        let masks = layer.masksToBounds
        var ownClip = exactClip
        var inner = placement
        if masks {
            inner.clip = placement.sublayerClip(of: layer)
            if let exact = exactClip, layer.presentedCornerRadius <= 0,
                let box = PixelGeometry.exactDeviceRect(layer.presentedBounds, by: placement.transform)
            {
                ownClip = exact.intersection(box)
            } else {
                ownClip = nil
            }
        }
        assert({
            plannedLayers.append(layer)
            return true
        }())
        let enterIndex = steps.count
        let entryIndex = entries.count
        let firstItem = items.count
        entries.append(
            Entry(
                layer: layer, transform: layer.presentedTransformToSuperlayer, masks: masks, end: 0,
                items: 0..<0))
        steps.append(.enter(entryIndex))

        let footprint = placement.footprint(of: layer.paintedRect).intersection(regionBounds)
        if !footprint.isNull, !footprint.isEmpty, region.intersects(footprint) {
            items.append(makeItem(layer, placement: placement, footprint: footprint, clip: ownClip))
            steps.append(.paint(items.count - 1))
            if layer.tiledBackingStore != nil { hasTiledLayer = true }
        }
        if !layer.sublayers.isEmpty, !(masks && (inner.clip.isNull || inner.clip.isEmpty || !region.intersects(inner.clip))) {
            let sublayers = layer.sublayers
            if sublayers.count >= SublayerIndex.minimumSublayerCount {
                // A wide layer: look only at the sublayers whose grid cells the region meets.
                let index = layer.sublayerIndex ?? SublayerIndex(sublayers)
                layer.sublayerIndex = index
                for position in index.candidates(meeting: regionBounds) {
                    walkIfItMeetsRegion(sublayers[position], parent: inner, exactClip: ownClip)
                }
            } else {
                for sublayer in sublayers {
                    walkIfItMeetsRegion(sublayer, parent: inner, exactClip: ownClip)
                }
            }
        }
        steps.append(.exit)
        if items.count == firstItem {
            steps.removeSubrange(enterIndex...)  // paints nothing: leave it out
            entries.removeSubrange(entryIndex...)
        } else {
            entries[entryIndex].end = steps.count - 1
            entries[entryIndex].items = firstItem..<items.count
        }
    }

    /// Walks `sublayer` unless its presented subtree footprint misses the region (a test
    /// against the region's bounding box first, with plain comparisons).
    private func walkIfItMeetsRegion(_ sublayer: Layer, parent: LayerPlacement, exactClip: CGRect?) {
        statistics?.examinedSublayerCount += 1
        guard PixelGeometry.footprint(sublayer.renderRecord.subtreeFootprint, meets: region, box: regionBounds)
        else { return }
        walk(sublayer, parent: parent, exactClip: exactClip)
    }

    /// Records `layer`'s own painting and the pixels where it is certainly opaque.
    private func makeItem(_ layer: Layer, placement: LayerPlacement, footprint: CGRect, clip: CGRect?) -> Item {
        var background = CGRect.null, contentsRect = CGRect.null, origin = (x: 0, y: 0)
        let transform = placement.transform
        if let clip, placement.alpha == 1, transform.isPositiveAxisAligned {
            if PixelGeometry.isCertainlyOpaque(
                background: layer.presentedBackgroundColor, cornerRadius: layer.presentedCornerRadius)
            {
                background = PixelGeometry.innerPixels(of: layer.presentedBounds.applying(transform)).intersection(clip)
            }
            if let contents = layer.contents, let device = PixelGeometry.pixelForPixelRect(
                contents, in: layer.contentsFrame, by: transform), layer.contentsAreOpaque
            {
                contentsRect = device.intersection(clip)
                origin = (Int(device.minX), Int(device.minY))
            }
        }
        return Item(
            layer: layer, alpha: placement.alpha, footprint: footprint,
            opaqueBackground: background.isEmpty ? .null : background.intersection(footprint),
            opaqueContents: contentsRect.isEmpty ? .null : contentsRect.intersection(footprint),
            contentsOrigin: origin, visibleClip: placement.clip)
    }

    /// Resolves occlusion front to back: each item keeps what the opaque items in front
    /// of it leave of its footprint; what no opaque item covers is left to clear.
    private func resolve() {
        for _ in items.indices { visible.append(region) }  // overwritten below
        var covered = Region()
        for index in items.indices.reversed() {
            let item = items[index]
            var shown = region.intersection(item.footprint)
            if !covered.isEmpty { shown = shown.subtracting(covered) }
            visible[index] = shown
            guard !shown.isEmpty else {
                statistics?.occludedLayerCount += 1
                continue
            }
            if Self.occludes(item.opaqueBackground) { covered.formUnion(Region(item.opaqueBackground)) }
            if Self.occludes(item.opaqueContents) { covered.formUnion(Region(item.opaqueContents)) }
        }
        uncovered = covered.isEmpty ? region : region.subtracting(covered)
        visibleBefore.append(0)
        for index in items.indices {
            visibleBefore.append(visibleBefore[index] + (visible[index].isEmpty ? 0 : 1))
        }
    }

    /// Whether `opaque` (device pixels, `.null` for none) is large enough to join the
    /// occlusion region.
    private static func occludes(_ opaque: CGRect) -> Bool {
        !opaque.isNull && opaque.width * opaque.height >= minimumOccluderArea
    }

    /// Paints the plan into `context`, which draws into `target` with the identity
    /// transform (device pixels) and the region as its clip: clears what nothing opaque
    /// covers, then paints each visible layer inside what it shows, opaque parts with SRC.
    func paint(in context: GraphicsContext, target: Bitmap) {
        // User `draw` code may run (a tiled layer drawing a missing tile): hold the layers.
        // (Loops, not closures: CONTRIBUTING.md, closures on hot paths.)
        if hasTiledLayer { for entry in entries { keptAlive.append(entry.layer) } }
        assert(
            plannedRoot.map { root in plannedLayers.allSatisfy { $0.isDescendant(of: root) } } ?? true,
            "the tree changed between planning and painting: the plan's unowned(unsafe) layers may be gone")
        defer {
            assert({
                plannedLayers.removeAll(keepingCapacity: true)  // lifetimes stay as in release builds
                plannedRoot = nil
                return true
            }())
        }
        defer { keptAlive.removeAll(keepingCapacity: true) }
        if !uncovered.isEmpty {
            context.saveGState()
            context.clip(to: uncovered)
            context.clear(uncovered.boundingBox)
            context.restoreGState()
        }
        context.saveGState()
        defer { context.restoreGState() }
        context.scaleBy(x: scale, y: scale)
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case let .enter(entryIndex):
                let entry = entries[entryIndex]
                if visibleBefore[entry.items.upperBound] == visibleBefore[entry.items.lowerBound] {
                    index = entry.end + 1  // everything inside is hidden
                    continue
                }
                context.saveGState()
                context.concatenate(entry.transform)
                if entry.masks { Compositor.clip(context, toShapeOf: entry.layer) }
            case let .paint(item):
                paint(items[item], showing: visible[item], in: context, target: target)
            case .exit:
                context.restoreGState()
            }
            index += 1
        }
    }

    /// Paints one layer's own content inside `shown`: contents that are opaque replace the
    /// pixels (SRC), an opaque background is filled with SRC under its contents, and the
    /// rest (edges, translucent parts) blends as usual.
    private func paint(_ item: Item, showing shown: Region, in context: GraphicsContext, target: Bitmap) {
        guard !shown.isEmpty else { return }
        statistics?.paintedLayerCount += 1
        let layer = item.layer
        var rest = shown
        if !item.opaqueContents.isNull, let contents = layer.contents {
            let replaced = shown.intersection(item.opaqueContents)
            if !replaced.isEmpty {
                assert(
                    CGRect(
                        x: item.contentsOrigin.x, y: item.contentsOrigin.y, width: contents.width,
                        height: contents.height
                    ).contains(replaced.boundingBox), "a copy of contents reads inside the contents")
                // Pixel for pixel, opaque, no antialiased clip: a plain copy of the rows.
                statistics?.replacedLayerCount += 1
                target.copyPixels(from: contents, placedAt: item.contentsOrigin, in: replaced)
                rest = rest.subtracting(replaced)
            }
        }
        if !item.opaqueBackground.isNull, let color = layer.presentedBackgroundColor, !rest.isEmpty {
            let filled = rest.intersection(item.opaqueBackground)
            if !filled.isEmpty {
                statistics?.replacedLayerCount += 1
                context.saveGState()
                context.clip(to: filled)
                context.setBlendMode(.copy)
                context.setFillColor(color)
                context.fill(layer.presentedBounds)
                context.setBlendMode(.normal)
                Compositor.paintContents(of: layer, in: context, alpha: 1, visibleClip: item.visibleClip)
                context.restoreGState()
                rest = rest.subtracting(filled)
            }
        }
        guard !rest.isEmpty else { return }
        context.saveGState()
        context.clip(to: rest)
        Compositor.paintBackground(of: layer, in: context, alpha: item.alpha)
        Compositor.paintContents(of: layer, in: context, alpha: item.alpha, visibleClip: item.visibleClip)
        context.restoreGState()
    }
}
