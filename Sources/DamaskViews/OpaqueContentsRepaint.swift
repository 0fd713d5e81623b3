import DamaskGraphics
import Foundation

/// The repaint of a frame whose only change is one layer redrawing part of its opaque
/// contents, done without planning the tree.
///
/// When the layer's contents land pixel for pixel on the buffer, are opaque everywhere
/// (``Layer/contentsAreOpaque``), are shown at full effective opacity and cover the whole
/// repaint region, and nothing is painted in front of them inside the region (no sublayer
/// of the layer, no sibling in front of it or of any of its ancestors, no antialiased or
/// rounded mask edge), then every pixel of the region is a pixel of the contents: the
/// ``CompositingPlan`` of such a repaint has one visible item, painted by the same SRC
/// copy. This copies the rows directly and looks at only the layers on the path from the
/// layer to the root and at the footprints of what lies in front of that path, instead of
/// planning (and, with cold caches, fetching) every layer the region meets.
///
/// It reads the presented placements and subtree footprints the window's last damage walk
/// stored, so it runs right after the damage was collected, as the plan does. Main-actor
/// isolated; keeps no state (its work is counted in the window's ``WindowStatistics``).
@MainActor enum OpaqueContentsRepaint {
    /// Copies `region` (buffer pixels) of `layer`'s contents into `target` when the
    /// conditions above hold, and returns whether it did; `false` leaves `target` untouched
    /// (the caller then plans the repaint). `root` is the window's root layer; the work is
    /// added to `statistics`.
    static func paint(
        _ layer: Layer, root: Layer, region: Region, into target: Bitmap, statistics: WindowStatistics?
    ) -> Bool {
        guard !region.isEmpty, layer.tiledBackingStore == nil, let contents = layer.contents,
            let placement = layer.renderRecord.placement, placement.isVisible, placement.alpha == 1
        else { return false }
        let box = region.boundingBox
        guard var device = PixelGeometry.pixelForPixelRect(contents, in: layer.contentsFrame, by: placement.transform)
        else { return false }
        if layer.masksToBounds {
            guard let shape = exactShape(of: layer, placement: placement) else { return false }
            device = device.intersection(shape)
        }
        guard device.contains(box), isOnlyPainter(layer, in: region, box: box, root: root, statistics: statistics),
            layer.contentsAreOpaque
        else { return false }
        if let statistics {
            statistics.copiedRepaintCount += 1
            statistics.paintedLayerCount += 1
            statistics.replacedLayerCount += 1
        }
        assert(target.bounds.contains(box), "the repaint region lies inside the buffer")
        target.copyPixels(from: contents, placedAt: (Int(device.minX), Int(device.minY)), in: region)
        return true
    }

    /// Whether nothing in `root`'s tree paints over `layer` inside `region` (whose bounding
    /// box is `box`), and no masking ancestor's edge or rounded corner falls inside it.
    private static func isOnlyPainter(
        _ layer: Layer, in region: Region, box: CGRect, root: Layer, statistics: WindowStatistics?
    ) -> Bool {
        statistics?.visitedLayerCount += 1
        if !layer.sublayers.isEmpty,
            paintsInRegion(layer.sublayers, after: nil, in: layer, region: region, box: box, statistics: statistics)
        {
            return false
        }
        var child = layer
        while let parent = child.superlayer {
            statistics?.visitedLayerCount += 1
            if parent.masksToBounds {
                guard let placement = parent.renderRecord.placement,
                    let shape = exactShape(of: parent, placement: placement), shape.contains(box)
                else { return false }
            }
            if paintsInRegion(parent.sublayers, after: child, in: parent, region: region, box: box, statistics: statistics) {
                return false
            }
            child = parent
        }
        return child === root
    }

    /// Whether one of `sublayers` (of `parent`) in front of `child` (all of them when `nil`)
    /// has a presented subtree footprint meeting `region`; `true` as well when `child` is
    /// not found (a conservative answer only costs the plan).
    private static func paintsInRegion(
        _ sublayers: [Layer], after child: Layer?, in parent: Layer, region: Region, box: CGRect,
        statistics: WindowStatistics?
    ) -> Bool {
        if sublayers.count >= SublayerIndex.minimumSublayerCount {
            // A wide layer: only the sublayers whose grid cells the region meets.
            let index = parent.sublayerIndex ?? SublayerIndex(sublayers)
            parent.sublayerIndex = index
            let candidates = index.candidates(meeting: box).lazy.map { sublayers[$0] }
            return anyMeets(candidates, after: child, region: region, box: box, statistics: statistics)
        }
        return anyMeets(sublayers, after: child, region: region, box: box, statistics: statistics)
    }

    /// Whether one of `candidates` (in back-to-front order) after `child` (all of them when
    /// `nil`) meets `region`; `true` as well when `child` is not among them.
    private static func anyMeets<Candidates: Sequence<Layer>>(
        _ candidates: Candidates, after child: Layer?, region: Region, box: CGRect, statistics: WindowStatistics?
    ) -> Bool {
        var seen = child == nil
        for sublayer in candidates {
            if seen {
                statistics?.examinedSublayerCount += 1
                if PixelGeometry.footprint(sublayer.renderRecord.subtreeFootprint, meets: region, box: box) { return true }
            } else if sublayer === child {
                seen = true
            }
        }
        return !seen
    }

    /// The device pixels a masking layer's shape covers whole (square corners, edges on
    /// whole pixels), else `nil` (its clip is antialiased there).
    private static func exactShape(of layer: Layer, placement: LayerPlacement) -> CGRect? {
        guard layer.presentedCornerRadius <= 0 else { return nil }
        return PixelGeometry.exactDeviceRect(layer.presentedBounds, by: placement.transform)
    }
}
