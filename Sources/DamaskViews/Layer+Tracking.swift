import DamaskGraphics
import Foundation

/// The marks that let each walk of a pass (display, compositing) visit only the paths to
/// what changed, and the reports of those changes to the layer's host.
extension Layer {
    /// Records a change of a property that moves or reveals pixels of the subtree.
    func compositingDidChange() {
        placementChanged = true
        markCompositingPath()
        host?.layerCompositingDidChange(self)
    }

    /// Records a change of the layer's own pixels (not its sublayers').
    func appearanceDidChange() {
        appearanceChanged = true
        markCompositingPath()
        host?.layerCompositingDidChange(self)
    }

    /// Marks this layer and its ancestors for the compositing walk (stopping at the first
    /// one already marked, as GNUstep's NSView marks its ancestors for display).
    private func markCompositingPath() {
        var layer = self
        while !layer.needsCompositingWalk {
            layer.needsCompositingWalk = true
            guard let parent = layer.superlayer else { return }
            parent.sublayersNeedingCompositingWalk.append(layer)
            layer = parent
        }
    }

    /// Marks this layer and its ancestors for the display walk.
    func markDisplayPath() {
        var layer = self
        while !layer.needsDisplayWalk {
            layer.needsDisplayWalk = true
            guard let parent = layer.superlayer else { return }
            parent.sublayersNeedingDisplayWalk.append(layer)
            layer = parent
        }
    }

    /// The marked sublayers still in this layer, each once; clears this layer's marks.
    func takeSublayersNeedingCompositingWalk() -> [Layer] {
        needsCompositingWalk = false
        let marked = sublayersNeedingCompositingWalk
        sublayersNeedingCompositingWalk.removeAll(keepingCapacity: true)
        return marked.filter { $0.superlayer === self && $0.needsCompositingWalk }
    }

    /// Clears this layer's compositing marks (its whole subtree is being walked).
    func clearCompositingMarks() {
        needsCompositingWalk = false
        sublayersNeedingCompositingWalk.removeAll()
    }

    /// Draws every marked, shown layer of this tree, visiting only marked paths (hidden
    /// subtrees keep their marks until shown).
    func displayTreeIfNeeded() {
        displayTreeIfNeeded(counting: host?.statistics)
    }

    /// ``displayTreeIfNeeded()``, adding each visit to `statistics`.
    private func displayTreeIfNeeded(counting statistics: WindowStatistics?) {
        guard !isHidden, needsDisplayWalk else { return }
        statistics?.displayWalkVisitCount += 1
        needsDisplayWalk = false
        displayIfNeeded()
        // Take the list (marks made while walking go to a fresh one), and give its storage
        // back when nothing was marked meanwhile: no array is copied or allocated per level.
        var marked: [Layer] = []
        swap(&marked, &sublayersNeedingDisplayWalk)
        for sublayer in marked where sublayer.superlayer === self {
            if sublayer.isHidden {
                sublayer.needsDisplayWalk = true  // re-reported when shown
            } else {
                sublayer.displayTreeIfNeeded(counting: statistics)
            }
        }
        if sublayersNeedingDisplayWalk.isEmpty {
            marked.removeAll(keepingCapacity: true)
            sublayersNeedingDisplayWalk = marked
        }
    }

    /// The area the layer itself paints (background and contents) in the frame being
    /// composited (presented values), in its coordinates.
    var paintedRect: CGRect {
        var rect = CGRect.null
        let bounds = presentedBounds
        if let color = presentedBackgroundColor, color.alpha > 0 { rect = bounds }
        if tiledBackingStore != nil { rect = rect.union(bounds) }
        if storedContents != nil {
            var frame = contentsFrame
            if masksToBounds { frame = frame.intersection(bounds) }
            rect = rect.union(frame)
        }
        return rect
    }
}
