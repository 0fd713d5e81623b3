import DamaskGraphics
import Foundation

extension Layer {
    /// The display step of a layer whose store is tiled: makes the store when the layer's
    /// geometry is new (its tiles are then drawn as compositing needs them), otherwise
    /// redraws the part of the dirty area that falls in allocated tiles, tile by tile.
    func displayTiles(pixelWidth: Int, pixelHeight: Int, scale: CGFloat) {
        let requested = dirtyRect.intersection(bounds)
        dirtyRect = .null
        if let store = tiledBackingStore, store.bounds == bounds, store.scale == scale,
            store.pixelWidth == pixelWidth, store.pixelHeight == pixelHeight
        {
            guard !requested.isNull, !requested.isEmpty else { return }
            for index in store.indices(intersecting: requested) {
                guard let tile = store.tiles[index] else { continue }  // drawn when it shows
                let rect = alignedToPixels(requested.intersection(tile.rect), scale: scale)
                guard !rect.isNull, !rect.isEmpty else { continue }
                draw(tile, of: store, in: rect)
                window?.layerDidDraw(self, in: rect)
            }
            return
        }
        freeBackingStore()
        tiledBackingStore = TiledBackingStore(
            bounds: bounds, scale: scale, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        appearanceDidChange()  // the visible tiles are drawn while compositing
    }

    /// Draws `rect` (layer coordinates, inside the tile) of `tile`.
    private func draw(_ tile: TiledBackingStore.Tile, of store: TiledBackingStore, in rect: CGRect) {
        let context = store.context(for: tile, clippedTo: rect)
        if clearsContextBeforeDrawing { context.clear(rect) }
        runDraw(in: context, rect: rect)
    }

    /// Paints the tiled store into `context` (whose transform maps this layer's
    /// coordinates to device pixels): draws the tiles the clip of `context` needs that are
    /// not allocated yet, and frees those farther than
    /// ``TiledBackingStore/keptMargin`` tiles from `visibleClip` (device pixels: the
    /// ancestors' clip, before the repaint region narrows it).
    func paintTiles(in context: GraphicsContext, visibleClip: CGRect, alpha: CGFloat) {
        guard let store = tiledBackingStore else { return }
        let ctm = context.ctm
        guard ctm.a * ctm.d - ctm.b * ctm.c != 0 else { return }
        let toLayer = ctm.inverted()
        let deviceBounds = context.bitmap.bounds
        let kept = visibleClip.intersection(deviceBounds)
        let margin = CGFloat(TiledBackingStore.tileSize * TiledBackingStore.keptMargin) / store.scale
        let keptRect = kept.isNull ? CGRect.null : kept.applying(toLayer).insetBy(dx: -margin, dy: -margin)
        Layer.liveBackingStoreBytes -= store.freeTiles(outside: keptRect)

        let needed = context.clipRegion.boundingBox.intersection(kept)
        guard !needed.isNull, !needed.isEmpty else { return }
        for index in store.indices(intersecting: needed.applying(toLayer)) {
            var tile = store.tiles[index]
            if tile == nil {
                guard let made = store.allocate(index) else {
                    let rect = store.rect(of: index)
                    reportOversizedBackingStore(width: rect.width * store.scale, height: rect.height * store.scale)
                    setNeedsDisplay(rect)  // stays marked: tried again next pass
                    continue
                }
                Layer.liveBackingStoreBytes += made.bitmap.byteCount
                Layer.backingStoreAllocationCount += 1
                draw(made, of: store, in: made.rect)
                window?.layerDidDrawWhileCompositing(self)
                tile = made
            }
            guard let tile else { continue }
            let interpolation: InterpolationQuality =
                Compositor.mapsPixelForPixel(tile.bitmap, into: tile.rect, by: ctm) ? .none : .default
            context.draw(tile.bitmap, in: tile.rect, alpha: alpha, interpolation: interpolation)
        }
    }
}
