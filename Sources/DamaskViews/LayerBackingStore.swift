import DamaskGraphics
import Foundation

/// The pixels a ``Layer`` draws into, and the drawing itself: one bitmap of
/// `bounds.size × contentsScale` pixels, or a ``TiledBackingStore`` when that would be too
/// large; the context kept from one redraw to the next; the probe that tells whether a
/// layer of a kind learned not to draw draws after all; the one-time report of a store too
/// large to allocate.
///
/// Owned by its layer (one per layer, made when it first displays). Its bytes are charged
/// to the ``WindowStatistics`` of the window the layer was in when they were allocated, and
/// credited back there when freed (held strongly, so that a store freed after its window
/// closed credits a live object). Main-actor isolated.
@MainActor final class LayerBackingStore {
    /// The single-bitmap store, if the layer has one.
    private(set) var bitmap: Bitmap? {
        didSet { if bitmap !== oldValue { context = nil } }
    }
    /// The context drawing into ``bitmap``, kept from one redraw to the next (its state is
    /// reset each time) so that a small redraw does not create a context and a pixman
    /// image; dropped with the bitmap.
    private var context: GraphicsContext?
    /// The bounds size (points) ``bitmap`` was drawn for.
    private(set) var pointSize: CGSize = .zero
    /// The tiled store of a layer too large for one bitmap; `nil` otherwise.
    private(set) var tiled: TiledBackingStore?
    /// The counters the held bytes are charged to (`nil`: allocated in no window).
    private var chargedStatistics: WindowStatistics?
    /// Whether the layer already reported that its store cannot be allocated.
    private var reportedOversized = false

    /// Creates an empty store.
    init() {}

    /// The bytes held: the bitmap, or every allocated tile.
    var byteCount: Int { (bitmap?.byteCount ?? 0) + (tiled?.byteCount ?? 0) }

    /// Whether some storage is held (or a tiled store is laid out).
    var isAllocated: Bool { bitmap != nil || tiled != nil }

    // MARK: Accounting

    /// Charges `bytes` just allocated for `layer` to its window's statistics (moving the
    /// bytes already held to them when the layer changed windows).
    private func charge(_ bytes: Int, for layer: Layer) {
        let statistics = layer.host?.statistics
        if statistics !== chargedStatistics {
            let held = byteCount - bytes
            chargedStatistics?.backingStoreDidFree(bytes: held)
            statistics?.liveBackingStoreBytes += held
            chargedStatistics = statistics
        }
        statistics?.backingStoreDidAllocate(bytes: bytes)
    }

    /// Credits `bytes` just freed to the statistics they were charged to.
    private func credit(_ bytes: Int) {
        chargedStatistics?.backingStoreDidFree(bytes: bytes)
    }

    /// Frees the bitmap and every tile; tells `layer` when what it showed went away.
    func free(of layer: Layer) {
        if let store = tiled {
            credit(store.freeAll())
            tiled = nil
            layer.appearanceDidChange()
        }
        guard let store = bitmap else { return }
        credit(store.byteCount)
        layer.backingStoreDidFree(store)
        bitmap = nil
        assert(byteCount == 0, "a freed backing store holds no bytes")
    }

    // MARK: Drawing

    /// Draws the dirty area of `layer` (taking it) into the store, allocating it when the
    /// layer's pixel size changed, and returns what changed. A layer too large even for
    /// tiles, or of zero size, stays marked and draws nothing.
    func display(_ layer: Layer) -> LayerDisplayResult {
        let bounds = layer.bounds
        let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
        let pixelWidthValue = (bounds.width * scale).rounded(.up)
        let pixelHeightValue = (bounds.height * scale).rounded(.up)
        guard pixelWidthValue > 0, pixelHeightValue > 0 else {
            return .nothing  // stays marked: drawn once it has a size
        }
        let tileableLimit = CGFloat(Int32.max)
        guard pixelWidthValue <= tileableLimit, pixelHeightValue <= tileableLimit else {
            reportOversized(layer, width: pixelWidthValue, height: pixelHeightValue)
            return .nothing  // stays marked: drawn once it fits
        }
        let pixelWidth = Int(pixelWidthValue)
        let pixelHeight = Int(pixelHeightValue)
        let limit = Bitmap.maximumDimension
        if pixelWidth > limit || pixelHeight > limit || pixelWidth * pixelHeight > Layer.tilingPixelCount {
            return displayTiles(of: layer, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
        if tiled != nil { free(of: layer) }  // fits in one bitmap again
        let requested = layer.dirtyRect.intersection(bounds)
        let rect: CGRect
        let isNewStore: Bool
        var pieces: [CGRect] = []
        if let store = bitmap, store.width == pixelWidth, store.height == pixelHeight,
            pointSize == bounds.size, layer.showsBackingStore(store)
        {
            let dirtyPieces = layer.dirtyPieces
            if !dirtyPieces.isEmpty { pieces.reserveCapacity(dirtyPieces.count) }
            for each in dirtyPieces {  // a loop, not a closure: no per-draw isolation check
                let piece = each.intersection(bounds)
                if !piece.isNull, !piece.isEmpty { pieces.append(layer.alignedToPixels(piece, scale: scale)) }
            }
            layer.dirtyRect = .null
            guard !requested.isNull, !requested.isEmpty else { return .nothing }
            if pieces.count > 1 { DirtyPieces.coalesce(&pieces) }
            // One piece left is all that is dirty in the bounds (maybe less than the
            // marked bounding box, whose other pieces fell outside).
            rect = pieces.count == 1 ? pieces[0] : layer.alignedToPixels(requested, scale: scale)
            isNewStore = false
        } else {
            guard let store = try? Bitmap(width: pixelWidth, height: pixelHeight) else {
                reportOversized(layer, width: pixelWidthValue, height: pixelHeightValue)
                return .nothing  // stays marked
            }
            layer.dirtyRect = .null
            free(of: layer)
            bitmap = store
            pointSize = bounds.size
            charge(store.byteCount, for: layer)
            rect = bounds
            isNewStore = true
        }
        guard let store = bitmap else { return .nothing }
        let context: GraphicsContext
        if let reused = self.context, reused.bitmap === store {
            reused.resetState()
            context = reused
        } else {
            context = GraphicsContext(bitmap: store)
            self.context = context
        }
        context.scaleBy(x: scale, y: scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        // One rect (the usual case) needs no array: `pieces` is left empty for it.
        if pieces.count > 1 {
            context.clip(to: pieces)
        } else {
            pieces.removeAll()
            context.clip(to: rect)
        }
        // The clip is the redrawn pixels. Whole pixels (the usual case): the context clears
        // them only if the drawing does not begin by covering them opaquely, and tells
        // whether it did. Otherwise each rect is cleared now, with antialiased edges.
        let clears = layer.clearsContextBeforeDrawing && !isNewStore
        if !context.beginRedraw(clearing: clears), clears {
            if pieces.isEmpty { context.clearWholePixels(rect) }
            for piece in pieces { context.clearWholePixels(piece) }
        }
        let drew = layer.runDraw(in: context, rect: rect)
        let isKnownOpaque = context.endRedraw()
        if isNewStore {
            // Only a first drawing that reached a default `draw`, never asked for the current
            // context and left every pixel clear teaches that the kind does not draw (an
            // override may call `super.draw`); a redraw never throws pixels away.
            if !drew, store.isClear {
                layer.host?.drawingClassifier.learnDoesNotDraw(layer)
                free(of: layer)
                return .replacedContents
            }
            layer.showBackingStore(store, isKnownOpaque: isKnownOpaque)  // the clip was all of it
            return .replacedContents
        }
        let toPixels = CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY)
            .concatenating(CGAffineTransform(scaleX: scale, y: scale))
        if pieces.isEmpty {
            layer.backingStoreDidRedraw(store, pixels: rect.applying(toPixels), isKnownOpaque: isKnownOpaque)
            return .redrew(rect)
        }
        for piece in pieces {
            layer.backingStoreDidRedraw(store, pixels: piece.applying(toPixels), isKnownOpaque: isKnownOpaque)
        }
        return .redrewPieces(pieces)
    }

    /// Calls `layer`'s `draw(in:)` on a 1×1-pixel stand-in context; returns whether the
    /// drawing did anything but reach a default (it asked for the current context or was
    /// overridden). Allocates no store.
    func drawsIntoProbe(_ layer: Layer) -> Bool {
        guard let probe = try? Bitmap(width: 1, height: 1) else { return true }
        let context = GraphicsContext(bitmap: probe)
        context.translateBy(x: -layer.bounds.minX, y: -layer.bounds.minY)
        let drew = layer.runDraw(in: context, rect: layer.bounds, counting: false)
        return drew || !probe.isClear
    }

    // MARK: Tiles

    /// The display step of a layer whose store is tiled: makes the store when the layer's
    /// geometry is new (its tiles are then drawn as compositing needs them), otherwise
    /// redraws the part of the dirty area that falls in allocated tiles, tile by tile.
    private func displayTiles(of layer: Layer, pixelWidth: Int, pixelHeight: Int, scale: CGFloat) -> LayerDisplayResult {
        let bounds = layer.bounds
        let requested = layer.dirtyRect.intersection(bounds)
        layer.dirtyRect = .null
        if let store = tiled, store.bounds == bounds, store.scale == scale,
            store.pixelWidth == pixelWidth, store.pixelHeight == pixelHeight
        {
            guard !requested.isNull, !requested.isEmpty else { return .nothing }
            var redrawn: [CGRect] = []
            for index in store.indices(intersecting: requested) {
                guard let tile = store.tiles[index] else { continue }  // drawn when it shows
                let rect = layer.alignedToPixels(requested.intersection(tile.rect), scale: scale)
                guard !rect.isNull, !rect.isEmpty else { continue }
                draw(layer, tile: tile, of: store, in: rect)
                redrawn.append(rect)
            }
            return .redrewTiles(redrawn)
        }
        free(of: layer)
        tiled = TiledBackingStore(bounds: bounds, scale: scale, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        layer.appearanceDidChange()  // the visible tiles are drawn while compositing
        return .nothing
    }

    /// Draws `rect` (layer coordinates, inside the tile) of `tile`.
    private func draw(_ layer: Layer, tile: TiledBackingStore.Tile, of store: TiledBackingStore, in rect: CGRect) {
        let context = store.context(for: tile, clippedTo: rect)
        if layer.clearsContextBeforeDrawing { context.clear(rect) }
        _ = layer.runDraw(in: context, rect: rect)
    }

    /// Paints the tiled store of `layer` into `context` (whose transform maps the layer's
    /// coordinates to device pixels): draws the tiles the clip of `context` needs that are
    /// not allocated yet, and frees those farther than ``TiledBackingStore/keptMargin``
    /// tiles from `visibleClip` (device pixels: the ancestors' clip, before the repaint
    /// region narrows it).
    func paintTiles(of layer: Layer, in context: GraphicsContext, visibleClip: CGRect, alpha: CGFloat) {
        guard let store = tiled else { return }
        let ctm = context.ctm
        guard ctm.a * ctm.d - ctm.b * ctm.c != 0 else { return }
        let toLayer = ctm.inverted()
        let deviceBounds = context.bitmap.bounds
        let kept = visibleClip.intersection(deviceBounds)
        let margin = CGFloat(TiledBackingStore.tileSize * TiledBackingStore.keptMargin) / store.scale
        let keptRect = kept.isNull ? CGRect.null : kept.applying(toLayer).insetBy(dx: -margin, dy: -margin)
        credit(store.freeTiles(outside: keptRect))

        let needed = context.clipRegion.boundingBox.intersection(kept)
        guard !needed.isNull, !needed.isEmpty else { return }
        for index in store.indices(intersecting: needed.applying(toLayer)) {
            var tile = store.tiles[index]
            if tile == nil {
                guard let made = store.allocate(index) else {
                    let rect = store.rect(of: index)
                    reportOversized(layer, width: rect.width * store.scale, height: rect.height * store.scale)
                    layer.setNeedsDisplay(rect)  // stays marked: tried again next pass
                    continue
                }
                charge(made.bitmap.byteCount, for: layer)
                draw(layer, tile: made, of: store, in: made.rect)
                layer.host?.layerDidDrawWhileCompositing(layer)
                tile = made
            }
            guard let tile else { continue }
            let interpolation: InterpolationQuality =
                PixelGeometry.mapsPixelForPixel(tile.bitmap, into: tile.rect, by: ctm) ? .none : .default
            context.draw(tile.bitmap, in: tile.rect, alpha: alpha, interpolation: interpolation)
        }
    }

    // MARK: The report

    /// Writes a one-time diagnostic (per layer) to standard error: the store of
    /// `width × height` pixels exceeds what a bitmap can hold, so the layer stays marked and
    /// undrawn until its bounds or scale shrink. Every attempt is counted.
    private func reportOversized(_ layer: Layer, width: CGFloat, height: CGFloat) {
        layer.host?.statistics.oversizedBackingStoreReportCount += 1
        guard !reportedOversized else { return }
        reportedOversized = true
        let name = layer.delegate.map { String(describing: type(of: $0)) } ?? String(describing: type(of: layer))
        let bounds = layer.bounds
        StandardError.write(
            "damask: \(name) layer of \(bounds.width)×\(bounds.height) points at scale "
                + "\(layer.contentsScale) needs a \(width)×\(height)-pixel backing store that cannot be "
                + "allocated, even tiled (tiled stores are limited to \(Int32.max) pixels a side), so it "
                + "is not drawn (it stays marked for display; split it into smaller views or layers)")
    }
}

extension Bitmap {
    /// Whether every byte of the pixels is zero (fully transparent).
    fileprivate var isClear: Bool {
        let words = byteCount / 8
        let raw = UnsafeRawPointer(bytes)
        for index in 0..<words where raw.load(fromByteOffset: index * 8, as: UInt64.self) != 0 {
            return false
        }
        for offset in (words * 8)..<byteCount where raw.load(fromByteOffset: offset, as: UInt8.self) != 0 {
            return false
        }
        return true
    }
}
