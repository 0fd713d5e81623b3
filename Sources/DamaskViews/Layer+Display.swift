import DamaskGraphics
import Foundation

extension Layer {
    /// The tiled backing store of a layer too large for one bitmap (see
    /// ``TiledBackingStore``); `nil` otherwise.
    var tiledBackingStore: TiledBackingStore? { backing?.tiled }

    /// The bytes held by this layer's backing store, all of its allocated tiles for a tiled
    /// one (0 without one).
    public var backingStoreByteCount: Int { backing?.byteCount ?? 0 }

    /// Whether the layer draws into a tiled backing store: its store would be wider or
    /// taller than ``Bitmap/maximumDimension`` pixels or hold more than
    /// ``tilingPixelCount`` pixels, so only the tiles near the visible area exist.
    public var isBackingStoreTiled: Bool { tiledBackingStore != nil }

    /// How many tiles of the tiled backing store are allocated (0 when not tiled).
    public var backingStoreTileCount: Int { tiledBackingStore?.tiles.count ?? 0 }

    /// The size in points the contents occupy before gravity scales them.
    var contentsPointSize: CGSize {
        guard let contents = storedContents else { return .zero }
        if let backing, contents === backing.bitmap { return backing.pointSize }
        let scale = contentsScale > 0 ? contentsScale : 1
        return CGSize(width: CGFloat(contents.width) / scale, height: CGFloat(contents.height) / scale)
    }

    /// Where the contents are shown, in the layer's coordinates (`.null` without
    /// contents): placed in the presented bounds (see ``presentedBounds``).
    var contentsFrame: CGRect {
        guard storedContents != nil else { return .null }
        return contentsGravity.rect(forContentsOfSize: contentsPointSize, in: presentedBounds)
    }

    /// Marks the whole layer for redrawing at the next display pass. Only records.
    public func setNeedsDisplay() {
        dirtyRect = .infinite
        markDisplayPath()
        host?.layerNeedsDisplay(self)
    }

    /// Adds `rect` (layer coordinates, clipped to the bounds) to the area to redraw at the
    /// next display pass. Only records. (Core Animation's `setNeedsDisplay(_:)`,
    /// `setNeedsDisplayInRect:` in Objective-C.)
    public func setNeedsDisplay(_ rect: CGRect) {
        let clipped = rect.standardized.intersection(bounds)
        guard !clipped.isNull, !clipped.isEmpty else { return }
        let wasClean = dirtyRect.isNull
        if !wasClean, dirtyRect.contains(clipped), dirtyPieces.isEmpty || isInDirtyPiece(clipped) {
            // Already covered.
        } else {
            let single = !wasClean && dirtyPieces.isEmpty && dirtyRect != .infinite ? dirtyRect : nil
            // The pieces are taken out while the union below forgets them (dirtyRect's
            // didSet), and put back: the array keeps its buffer, so a layer marked a few
            // times per frame (a caret and a glyph) allocates nothing for them.
            var pieces: [CGRect] = []
            swap(&pieces, &dirtyPieces)
            dirtyRect = dirtyRect.union(clipped)
            if let single {
                pieces.removeAll(keepingCapacity: true)
                if !clipped.contains(single) {  // else the new rect is the whole dirty area
                    pieces.append(single)
                    pieces.append(clipped)
                }
            } else if !pieces.isEmpty, pieces.count < Layer.dirtyPieceLimit {
                // Pieces the new rect covers go (a typed key marks its carets, then the strip
                // around them): one piece left is the whole dirty area, kept as no pieces.
                var kept = 0
                for index in pieces.indices where !clipped.contains(pieces[index]) {
                    pieces[kept] = pieces[index]
                    kept += 1
                }
                pieces.removeLast(pieces.count - kept)
                if kept > 0 { pieces.append(clipped) }
            } else {
                pieces.removeAll(keepingCapacity: true)
            }
            assert(pieces.count != 1, "a single piece is the dirty rect itself")
            dirtyPieces = pieces
        }
        assert(dirtyPieces.isEmpty || (dirtyPieces.count >= 2 && dirtyPieces.count <= Layer.dirtyPieceLimit))
        markDisplayPath()
        host?.layerNeedsDisplay(self)
    }

    /// Whether one of ``dirtyPieces`` contains `rect`. A loop: marked several times per key
    /// (see CONTRIBUTING.md, closures on hot paths).
    private func isInDirtyPiece(_ rect: CGRect) -> Bool {
        for piece in dirtyPieces where piece.contains(rect) { return true }
        return false
    }

    /// The former spelling of ``setNeedsDisplay(_:)``.
    @available(*, deprecated, renamed: "setNeedsDisplay(_:)")
    public func setNeedsDisplay(in rect: CGRect) {
        setNeedsDisplay(rect)
    }

    /// Redraws the whole layer now (the delegate's `display(_:)` or the drawing path).
    public func display() {
        dirtyRect = .infinite
        displayIfNeeded()
    }

    /// Redraws the dirty area now if the layer is marked; does nothing otherwise.
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        let result = displayMarkedArea()
        guard result != .nothing else { return }
        host?.layer(self, didDisplay: result)
    }

    /// Displays the marked area: the delegate's `display(_:)` when it implements it, else
    /// drawing into the backing store. Returns what changed (the caller reports it).
    func displayMarkedArea() -> LayerDisplayResult {
        guard let delegate else { return drawIntoBackingStore() }
        assert(delegateDisplayCall == nil, "a layer's delegate display(_:) re-entered its own display")
        delegateDisplayCall = DelegateDisplayCall(markedRect: dirtyRect, markedPieces: dirtyPieces)
        dirtyRect = .null
        delegate.display(self)
        let fallback = delegateDisplayCall?.fallbackResult
        delegateDisplayCall = nil
        if let fallback { return fallback }
        displayCount += 1
        return .replacedContents
    }

    /// Displays by drawing because the delegate does not implement `display(_:)`: what the
    /// default `LayerDelegate.display(_:)` (and `View.display(_:)`) funnel into. Restores
    /// the marked area, draws it into the backing store and returns the result, which
    /// also ends the delegate call in progress as declined. Outside such a call (a direct
    /// call of the default) it does nothing and returns `nil`.
    @discardableResult func displayDeclinedByDelegate() -> LayerDisplayResult? {
        guard let call = delegateDisplayCall, call.fallbackResult == nil else { return nil }
        if dirtyRect.isNull {
            dirtyRect = call.markedRect
            dirtyPieces = call.markedPieces
        } else {
            dirtyRect = dirtyRect.union(call.markedRect)  // marked again meanwhile: the bounding box
        }
        let result = drawIntoBackingStore()
        delegateDisplayCall?.fallbackResult = result
        return result
    }

    /// Draws the dirty area into the backing store, unless the layer is of a kind its host
    /// learned does not draw and the probe confirms it (then no store is made).
    private func drawIntoBackingStore() -> LayerDisplayResult {
        let backing = makeBackingIfNeeded()
        if backing.bitmap == nil, let classifier = host?.drawingClassifier, classifier.isKnownNotToDraw(self) {
            // Learned not to draw: ask again without a backing store, so that a class whose
            // first instance drew nothing is never kept from drawing.
            guard !backing.drawsIntoProbe(self) else {
                classifier.learnDraws(self)
                return drawIntoBackingStore()
            }
            dirtyRect = .null
            if contents == nil { freeBackingStore() }
            return .nothing
        }
        return backing.display(self)
    }

    /// Runs ``draw(in:)`` for `rect` (layer coordinates) with `context` as the current
    /// context, which carries `rect` to the drawing code (``GraphicsContext/drawingRect``)
    /// and brings back whether a default `draw` was reached; returns whether the drawing did
    /// something (see ``DrawingClassifier``).
    /// Counts the display unless `counting` is `false` (the probe). Shared by the single
    /// backing store and the tiles.
    func runDraw(in context: GraphicsContext, rect: CGRect, counting: Bool = true) -> Bool {
        context.beginDrawingCall(in: rect)
        let requestedCurrentContext = GraphicsContext.requestsCurrent(whileCurrent: context) { draw(in: context) }
        let reachedDefault = context.endDrawingCall()
        if counting { displayCount += 1 }
        return DrawingClassifier.didDraw(reachedDefault: reachedDefault, requestedCurrentContext: requestedCurrentContext)
    }

    /// Rounds `rect` outwards to whole backing-store pixels, within the bounds.
    func alignedToPixels(_ rect: CGRect, scale: CGFloat) -> CGRect {
        let local = rect.offsetBy(dx: -bounds.minX, dy: -bounds.minY)
        let minX = (local.minX * scale).rounded(.down) / scale
        let minY = (local.minY * scale).rounded(.down) / scale
        let maxX = (local.maxX * scale).rounded(.up) / scale
        let maxY = (local.maxY * scale).rounded(.up) / scale
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
            .offsetBy(dx: bounds.minX, dy: bounds.minY)
            .intersection(bounds)
    }

    /// Paints the tiled store into `context` (see ``LayerBackingStore/paintTiles(of:in:visibleClip:alpha:)``).
    func paintTiles(in context: GraphicsContext, visibleClip: CGRect, alpha: CGFloat) {
        backing?.paintTiles(of: self, in: context, visibleClip: visibleClip, alpha: alpha)
    }

    /// Frees the backing store (single or tiled) and the contents it showed.
    func freeBackingStore() {
        backing?.free(of: self)
    }

    /// Frees the backing stores of this subtree; layers that had one are marked to redraw.
    func releaseBackingStores() {
        if backing?.isAllocated == true {
            freeBackingStore()
            dirtyRect = .infinite
            markDisplayPath()
        }
        for sublayer in sublayers { sublayer.releaseBackingStores() }
    }
}
