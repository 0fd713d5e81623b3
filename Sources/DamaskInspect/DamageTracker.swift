import Dispatch
import Glibc

/// Follows one client connection's shared-memory buffers and surfaces from its decoded
/// messages and measures every commit: what changed, what was declared damaged, and whether a
/// buffer the compositor held was written.
///
/// Usable without sockets: feed it decoded requests and events (tests do). Never takes
/// ownership of a message's fds (it duplicates what it keeps). Not thread-safe.
///
/// By default a commit's pixels are compared before ``request(objectID:interface:message:values:)``
/// returns. With ``comparisonStepRows`` set (the proxy sets it) the comparison is left
/// pending and runs a step at a time in ``continueComparison()``, so the caller can forward
/// messages between steps: no event waits for a whole comparison. Messages that need the
/// comparison's result finish it first, in order: a `wl_buffer.release` (its held-write check
/// reads the store the comparison writes), the `done` of a `wl_display.sync` (a client's round
/// trip covers the commits it sent before it), and every request the tracker acts on other
/// than the `attach`, `damage`, `damage_buffer` and `frame` that prepare the next commit. Nothing
/// is lost by waiting: the client may not write a committed buffer until its release, which
/// reaches it only after the comparison; a client that writes anyway is caught as before, row
/// by row until the comparison has read that row.
public final class DamageTracker {
    /// Receives every record, with the pixels behind it when it is offending.
    public typealias Sink = (CommitRecord, CommitEvidence?) -> Void

    private let client: Int
    private let clock: () -> Double
    private let sink: Sink
    private var pools: [UInt32: ShmPool] = [:]
    private var buffers: [UInt32: TrackedBuffer] = [:]
    private var surfaces: [UInt32: TrackedSurface] = [:]
    /// Role objects (viewport, xdg_surface, xdg_toplevel, …) → their surface id.
    private var surfaceOf: [UInt32: UInt32] = [:]
    /// Buffers attached through an interface other than wl_shm (dmabuf, single-pixel, …).
    public private(set) var foreignBufferCommits = 0
    /// Time spent reading and comparing pixels at commits and releases, in µs (wall clock),
    /// including the release checks that found nothing (they make no record).
    public private(set) var pixelMicroseconds = 0
    /// Rows a commit's comparison reads per ``continueComparison()`` call; nil (the default):
    /// each commit is compared completely as soon as it is seen.
    public var comparisonStepRows: Int?
    /// Rows copied whole into the inspector's stores at commits (a row the tracker knows the
    /// store already holds except where the new row changed is written only there, and not
    /// counted).
    public private(set) var rowsCopiedWhole = 0
    /// Comparisons that ran in more than one step.
    public private(set) var steppedComparisons = 0
    /// The comparison under way (stepped mode), and the measurements waiting behind it (a
    /// parent's commit applies its synchronized sub-surfaces' states in order).
    private var activeCapture: CaptureJob?
    private var waitingMeasures: [() -> Void] = []
    /// `wl_callback`s made by `wl_display.sync` whose `done` has not come yet.
    private var syncCallbacks: Set<UInt32> = []

    /// Whether a commit's comparison is under way (only with ``comparisonStepRows``).
    public var hasPendingComparison: Bool { activeCapture != nil || !waitingMeasures.isEmpty }

    /// - Parameters:
    ///   - client: the connection's number, for records.
    ///   - clock: seconds since the inspector started.
    ///   - sink: receives each record.
    public init(client: Int, clock: @escaping () -> Double, sink: @escaping Sink) {
        self.client = client
        self.clock = clock
        self.sink = sink
    }

    /// A request the client sent, decoded; called before it is forwarded (a commit: after).
    public func request(objectID: UInt32, interface: String, message: String, values: [WireValue]) {
        if hasPendingComparison, Self.needsComparisonsFinished(interface, message) { finishComparisons() }
        func int(_ i: Int) -> Int { i < values.count ? values[i].integer : 0 }
        func id(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: int(i)) }
        func surface(_ object: UInt32) -> TrackedSurface? { surfaceOf[object].flatMap { surfaces[$0] } }
        switch (interface, message) {
        case ("wl_display", "sync"):
            syncCallbacks.insert(id(0))
        case ("wl_shm", "create_pool"):
            if case .fd(let fd) = values[1] { pools[id(0)] = ShmPool(duplicating: fd, size: int(2)) }
        case ("wl_shm_pool", "create_buffer"):
            buffers[id(0)] = TrackedBuffer(
                id: id(0), pool: pools[objectID], offset: int(1), width: int(2), height: int(3), stride: int(4),
                format: BufferFormat(code: id(5)))
        case ("wl_shm_pool", "resize"):
            pools[objectID]?.resize(to: int(0))
        case ("wl_shm_pool", "destroy"):
            pools[objectID] = nil
        case ("wl_buffer", "destroy"):
            buffers[objectID] = nil
            // Attached but not committed yet: compositors commit no buffer then (a null
            // attach, which unmaps the surface), not a buffer of unknown origin.
            for tracked in surfaces.values {
                if case .some(.some(objectID)) = tracked.pending.attached { tracked.pending.attached = .some(nil) }
                if case .some(.some(objectID)) = tracked.cached?.attached { tracked.cached?.attached = .some(nil) }
            }
        case ("wl_compositor", "create_surface"):
            surfaces[id(0)] = TrackedSurface(id: id(0), client: client)
        case ("wl_surface", "attach"):
            surfaces[objectID]?.pending.attached = .some(id(0) == 0 ? nil : id(0))
        case ("wl_surface", "damage"), ("wl_surface", "damage_buffer"):
            // A rectangle without area (a width or height of zero or less) is ignored, as Weston
            // (`width <= 0 || height <= 0`: return) and mutter (an empty cairo/pixman rect)
            // ignore it: it damages nothing, and must not hide a change it seems to cover.
            let rect = PixelRect(x: int(0), y: int(1), width: int(2), height: int(3))
            guard !rect.isEmpty, let tracked = surfaces[objectID] else { break }
            if message == "damage" { tracked.pending.surfaceDamage.append(rect) } else { tracked.pending.bufferDamage.append(rect) }
        case ("wl_surface", "frame"):
            surfaces[objectID]?.pending.frameRequested = true
        case ("wl_surface", "set_buffer_scale"):
            surfaces[objectID]?.pending.geometry.scale = int(0)
        case ("wl_surface", "set_buffer_transform"):
            surfaces[objectID]?.pending.geometry.transform = int(0)
        case ("wl_surface", "commit"):
            if let tracked = surfaces[objectID] { commit(tracked) }
        case ("wl_surface", "destroy"):
            surfaces[objectID] = nil
            // Its sub-surfaces are unmapped and orphaned: libwayland gives the id to the
            // client's next new object, which must not become their parent.
            for child in surfaces.values where child.parent == objectID && !child.isOrphaned {
                child.isOrphaned = true
                child.content = nil
                child.currentBuffer = nil
            }
        case ("wp_viewporter", "get_viewport"), ("xdg_wm_base", "get_xdg_surface"):
            surfaceOf[id(0)] = id(1)
        case ("wp_viewport", "set_source"):
            let raw = values.map { value -> Double in
                if case .fixed(let v) = value { return Double(v) / 256 }
                return 0
            }
            surface(objectID)?.pending.geometry.source = raw.allSatisfy({ $0 == -1 }) || raw.count < 4 ? nil : (raw[0], raw[1], raw[2], raw[3])
        case ("wp_viewport", "set_destination"):
            surface(objectID)?.pending.geometry.destination = int(0) == -1 ? nil : (int(0), int(1))
        case ("wp_viewport", "destroy"):
            surface(objectID)?.pending.geometry.source = nil
            surface(objectID)?.pending.geometry.destination = nil
            surfaceOf[objectID] = nil
        case ("xdg_surface", "get_toplevel"), ("xdg_surface", "get_popup"):
            surfaceOf[id(0)] = surfaceOf[objectID]
            surface(objectID)?.role = message == "get_toplevel" ? "toplevel" : "popup"
        case ("xdg_toplevel", "destroy"), ("xdg_popup", "destroy"), ("xdg_surface", "destroy"):
            // Destroying the role object unmaps the surface (xdg-shell): its next buffer is a
            // new mapping, which every compositor shows whole, as after a null attach.
            if let tracked = surface(objectID) {
                tracked.content = nil
                tracked.currentBuffer = nil
            }
            surfaceOf[objectID] = nil
        case ("xdg_toplevel", "set_title"):
            if case .string(let title) = values.first { surface(objectID)?.title = title }
        case ("wl_subcompositor", "get_subsurface"):
            surfaces[id(1)]?.role = "subsurface"
            surfaces[id(1)]?.parent = id(2)
            surfaces[id(1)]?.isSynchronized = true
            surfaces[id(1)]?.isOrphaned = false
            surfaceOf[id(0)] = id(1)
        case ("wl_subsurface", "set_sync"):
            surface(objectID)?.isSynchronized = true
        case ("wl_subsurface", "set_desync"):
            // A sub-surface no longer synchronized, nor under a synchronized ancestor, applies
            // what it cached at once (Weston and mutter both do, at set_desync), and so do its
            // descendants' caches.
            guard let tracked = surface(objectID) else { break }
            let wasSynchronized = isEffectivelySynchronized(tracked)
            tracked.isSynchronized = false
            if wasSynchronized, !isEffectivelySynchronized(tracked) { applyCached(tracked) }
        case ("wl_subsurface", "destroy"):
            // The surface loses its role, is unmapped at once (so its next buffer is a new
            // mapping, shown whole) and is applied on its own commits again.
            if let tracked = surface(objectID) {
                tracked.isSynchronized = false
                tracked.isOrphaned = false
                tracked.parent = nil
                tracked.cached = nil
                tracked.content = nil
                tracked.currentBuffer = nil
            }
            surfaceOf[objectID] = nil
        case ("wl_pointer", "set_cursor"):
            surfaces[id(1)]?.role = "cursor"
        default:
            break
        }
    }

    /// An event the compositor sent, decoded; called before it is forwarded.
    ///
    /// At a `wl_buffer.release` the buffer's pixels are compared with its content at the
    /// commit the compositor held it for: any change is a write into a held buffer.
    public func event(objectID: UInt32, interface: String, message: String, values: [WireValue]) {
        if interface == "wl_callback", message == "done", syncCallbacks.remove(objectID) != nil {
            // A round trip: the client learns that everything it sent before was handled.
            return finishComparisons()
        }
        guard interface == "wl_buffer", message == "release" else { return }
        // The check compares with the store a pending comparison may still be writing.
        finishComparisons()
        guard let buffer = buffers[objectID] else { return }
        checkHeldWrite(buffer)
        buffer.heldBy = nil
    }

    /// Compares held `buffer`'s pixels with its content at the commit the compositor holds it
    /// for, and reports any change as a held-buffer write.
    private func checkHeldWrite(_ buffer: TrackedBuffer) {
        guard let by = buffer.heldBy, let held = buffer.store else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        var comparison = ContentComparison()
        let complete = (try? buffer.readRows { y, row in
            comparison.addRow(y, old: held.row(y), new: row, width: held.width, format: held.format, damage: [])
        }) != nil
        let cost = Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
        pixelMicroseconds += cost
        guard complete, comparison.changedPixels > 0 else { return }
        var record = CommitRecord(kind: .heldWrite, time: clock(), client: client, surface: by.surfaceID, role: by.label, commit: by.commit)
        record.buffer = buffer.id
        (record.width, record.height, record.format) = (buffer.width, buffer.height, buffer.format.name)
        record.content = .compared
        record.changedPixels = comparison.changedPixels
        record.changedBounds = comparison.changedBounds
        record.heldWrite = true
        record.costMicroseconds = cost
        sink(record, nil)
    }

    /// A synchronized sub-surface committed `buffer` into its cache: the buffer is held from
    /// this commit (a write into it before its release is a held write, even before the
    /// parent's commit applies it), so its pixels are copied now, to be compared with when the
    /// cache is applied or the buffer released. A buffer still held for an earlier commit is
    /// checked first.
    private func holdCached(_ buffer: TrackedBuffer, on surface: TrackedSurface) {
        checkHeldWrite(buffer)
        buffer.heldBy = nil
        guard buffer.isReadable else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { pixelMicroseconds += Int((DispatchTime.now().uptimeNanoseconds - start) / 1000) }
        // A new store: the buffer's former one may be what a surface shows.
        let store = PixelStore(width: buffer.width, height: buffer.height, format: buffer.format)
        store.beginRewrite(basis: nil)
        do {
            try buffer.readRows { y, row in memcpy(store.row(y), row, store.rowBytes) }
        } catch {
            buffer.store = nil
            return
        }
        buffer.store = store
        buffer.heldBy = (surface.id, surface.label, surface.commitCount)
    }

    /// Whether `surface`'s commits are cached until a parent applies them: it is a
    /// synchronized sub-surface, or a sub-surface of one (effectively synchronized).
    private func isEffectivelySynchronized(_ surface: TrackedSurface) -> Bool {
        var current: TrackedSurface? = surface
        var depth = 0
        while let tracked = current, let parent = tracked.parent, depth < 64 {
            if tracked.isSynchronized { return true }
            if tracked.isOrphaned { return false }
            current = surfaces[parent]
            depth += 1
        }
        return false
    }

    /// A `wl_surface.commit`: a synchronized sub-surface caches its state (measured when the
    /// parent's commit applies it, which is when the compositor shows it); any other surface
    /// applies it, with whatever it had cached, now.
    private func commit(_ surface: TrackedSurface) {
        let pending = surface.pending
        surface.pending = TrackedSurface.Pending(geometry: pending.geometry)
        surface.commitCount += 1
        let state = TrackedSurface.merge(surface.cached, pending)
        if isEffectivelySynchronized(surface) {
            surface.cached = state
            // The compositor may read a committed buffer at any time after the commit, cached
            // or not: it is held from now on, with the pixels it has now.
            if case .some(.some(let id)) = pending.attached, let buffer = buffers[id] { holdCached(buffer, on: surface) }
        } else {
            surface.cached = nil
            apply(state, to: surface)
        }
    }

    /// Applies committed `state` to `surface`, measures it, then applies the state its
    /// sub-surfaces cached: a synchronized child's (its parent's commit is when it takes
    /// effect) and, below it, every descendant's, whatever its own mode (a desynchronized
    /// sub-surface under a synchronized one is effectively synchronized).
    ///
    /// `underSynchronized`: `surface` itself was applied from a cache (its descendants are
    /// then all applied, as Weston's `weston_subsurface_synchronized_commit` does, even those
    /// whose parent had nothing cached).
    ///
    /// `depth` bounds the walk (64 levels, as ``isEffectivelySynchronized(_:)``): a client
    /// making a surface its own ancestor gets a protocol error from the compositor, and must
    /// not send the inspector round the loop before it arrives.
    private func apply(_ pending: TrackedSurface.Pending?, to surface: TrackedSurface, underSynchronized: Bool = false, depth: Int = 0) {
        if let pending {
            // Unowned: the closure is kept only in this tracker's `waitingMeasures`.
            schedule { [unowned self] in measure(pending, on: surface) }
        }
        guard depth < 64 else { return }
        for child in surfaces.values where child.parent == surface.id && child.id != surface.id && !child.isOrphaned {
            if underSynchronized || child.isSynchronized { applyCached(child, depth: depth + 1) }
        }
    }

    /// Applies what `surface` cached (if anything) and, below it, its descendants' caches.
    private func applyCached(_ surface: TrackedSurface, depth: Int = 0) {
        let cached = surface.cached
        surface.cached = nil
        apply(cached, to: surface, underSynchronized: true, depth: depth)
    }

    private func measure(_ pending: TrackedSurface.Pending, on surface: TrackedSurface) {
        let start = DispatchTime.now().uptimeNanoseconds
        surface.geometry = pending.geometry
        var record = CommitRecord(kind: .noBuffer, time: clock(), client: client, surface: surface.id, role: surface.label, commit: surface.commitCount)
        record.frameRequest = pending.frameRequested
        func emit(_ evidence: CommitEvidence? = nil) {
            record.costMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
            sink(record, evidence)
        }
        // The buffer the damage refers to: the new one, or the one already attached.
        let attachedID: UInt32? = pending.attached.map { $0 } ?? surface.currentBuffer?.id
        if case .some(.none) = pending.attached {
            record.kind = .unmap
            surface.content = nil
            surface.currentBuffer = nil
            emit()
            return
        }
        let buffer = attachedID.flatMap { buffers[$0] }
        if let buffer {
            let bounds = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
            let rects = pending.surfaceDamage.map {
                surface.geometry.bufferRect(fromSurface: $0, bufferWidth: buffer.width, bufferHeight: buffer.height)
            } + pending.bufferDamage.map { $0.intersection(bounds) }
            let region = DamageRegion(rects, clippedTo: bounds)
            record.damage = region.rects
            record.damagePixels = region.area
            (record.width, record.height, record.format) = (buffer.width, buffer.height, buffer.format.name)
            record.buffer = buffer.id
        } else if pending.attached != nil {
            // A buffer that is not wl_shm (dmabuf, single-pixel buffer, …): out of scope.
            foreignBufferCommits += 1
            record.kind = .buffer
            record.buffer = attachedID
            record.content = .unreadable
            record.damage = pending.surfaceDamage + pending.bufferDamage
            emit()
            return
        }
        guard pending.attached != nil, let buffer else {
            emit()
            return
        }
        record.kind = .buffer
        record.reused = buffer.commitCount > 0
        buffer.commitCount += 1
        surface.currentBuffer = buffer
        // Content under unchanged geometry, size and format is compared pixel by pixel in the
        // buffer. A change of any of them at the same surface size (buffer transform, buffer
        // scale with a matching buffer, viewport source, buffer size behind a fixed viewport
        // destination, format) is compared on the surface: Weston repaints only the damage
        // then too. Only a new surface size (or the first content) is new content, which
        // every compositor repaints whole.
        let mapping = SurfaceMapping(geometry: surface.geometry, bufferWidth: buffer.width, bufferHeight: buffer.height)
        let previous = surface.content.flatMap {
            $0.fits(width: buffer.width, height: buffer.height, format: buffer.format) && surface.contentGeometry == surface.geometry ? $0 : nil
        }
        let shownBefore: (store: PixelStore, mapping: SurfaceMapping)? = previous != nil ? nil : surface.content.flatMap { content in
            surface.contentGeometry.flatMap { geometry in
                let before = SurfaceMapping(geometry: geometry, bufferWidth: content.width, bufferHeight: content.height)
                guard before.surfaceWidth == mapping.surfaceWidth, before.surfaceHeight == mapping.surfaceHeight,
                    mapping.surfaceWidth * mapping.surfaceHeight <= Self.surfaceComparisonLimit
                else { return nil }
                return (content, before)
            }
        }
        let declared = DamageRegion(record.damage, clippedTo: PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height))
        let surfaceDamage = mapping.surfaceDamage(surface: pending.surfaceDamage, buffer: pending.bufferDamage)
        // Without a viewport a buffer pixel shows as whole surface pixels or a part of one, so
        // the declared damage (rounded out to buffer pixels) is what both Weston and mutter
        // repaint; with one, coverage is judged on the surface too (see SurfaceMapping).
        // Buffer pixels beyond a multiple of the scale are never shown (see SurfaceMapping).
        let unshown = mapping.unshownBufferRects
        let region = surface.geometry.source == nil && surface.geometry.destination == nil
            ? unshown.isEmpty ? declared : DamageRegion(declared.rects + unshown, clippedTo: PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height))
            : mapping.coverage(surfaceDamage: surfaceDamage, bufferDamage: declared)
        let measured = record
        // Unowned: the completion is kept only by the job this tracker runs (`activeCapture`);
        // a strong capture would be a cycle, leaking a dropped tracker's pending comparison.
        startCapture(buffer, on: surface, previous: previous, damage: region) { [unowned self] result in
            var record = measured
            func emit(_ evidence: CommitEvidence? = nil) {
                record.costMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
                sink(record, evidence)
            }
            let captured: Captured
            switch result {
            case .success(let result):
                captured = result
            case .failure(let failure):
                record.content = .unreadable
                record.poolShrunk = failure == .fileShrunk
                surface.content = nil
                emit()
                return
            }
            finishMeasure(&record, captured: captured, buffer: buffer, on: surface, previous: previous)
            if let shownBefore {
                let before = Self.surfaceImage(shownBefore.store.snapshot(), shownBy: shownBefore.mapping)
                let after = Self.surfaceImage(captured.store.snapshot(), shownBy: mapping)
                let comparison = ContentComparison(previous: before, current: after, damage: surfaceDamage)
                record.content = .compared
                record.comparedOnSurface = true
                record.changedPixels = comparison.changedPixels
                record.changedBounds = comparison.changedBounds
                record.changedBoxes = comparison.changedBoxes
                record.underDamagePixels = comparison.underDamagePixels
                record.underDamageBounds = comparison.underDamageBounds
                return emit(record.isOffending ? CommitEvidence(previous: before, current: after, damage: surfaceDamage) : nil)
            }
            let offending = record.isOffending
            emit(previous.flatMap { offending ? CommitEvidence(previous: $0.snapshot(), current: captured.store.snapshot(), damage: region) : nil })
        }
    }

    /// The largest surface (in surface pixels: 8192×8192) whose geometry change is compared on
    /// the surface. A viewport destination can make a small buffer's surface any size up to
    /// 2³¹−1 on a side; its images would not fit in memory, so a larger one is logged as new
    /// content (not held to its damage) instead of ending the inspector.
    static let surfaceComparisonLimit = 1 << 26

    /// What `snapshot` shows on its surface through `mapping`: one ARGB8888 pixel per
    /// surface pixel, sampled at its centre, colours converted (an X channel opaque), so that
    /// two contents of any geometry, size and format compare pixel by pixel.
    static func surfaceImage(_ snapshot: ContentSnapshot, shownBy mapping: SurfaceMapping) -> ContentSnapshot {
        let pixels = visibleColours(snapshot)
        // The buffer pixel each surface column and row samples (the map is separable).
        let columns = (0..<mapping.surfaceWidth).map { mapping.bufferPixel(sx: $0, sy: 0) }
        let rows = (0..<mapping.surfaceHeight).map { mapping.bufferPixel(sx: 0, sy: $0) }
        var bytes = [UInt8](repeating: 0, count: mapping.surfaceWidth * mapping.surfaceHeight * 4)
        bytes.withUnsafeMutableBytes { out in
            var offset = 0
            for row in rows {
                for column in columns {
                    let index = mapping.swapsAxes ? column.y * snapshot.width + row.x : row.y * snapshot.width + column.x
                    out.storeBytes(of: pixels[index], toByteOffset: offset, as: UInt32.self)
                    offset += 4
                }
            }
        }
        return ContentSnapshot(width: mapping.surfaceWidth, height: mapping.surfaceHeight, format: BufferFormat(code: 0), bytes: bytes)
    }

    /// Every pixel of `snapshot` as visible 32-bit ARGB (an X channel opaque), row by row:
    /// read directly for the 8888 formats, converted for the others.
    static func visibleColours(_ snapshot: ContentSnapshot) -> [UInt32] {
        let code = snapshot.format.code
        let argb: Set<UInt32> = [0, BufferFormat.fourcc("AR24")], xrgb: Set<UInt32> = [1, BufferFormat.fourcc("XR24")]
        guard argb.contains(code) || xrgb.contains(code) else {
            return (0..<snapshot.height).flatMap { y in (0..<snapshot.width).map { snapshot.argb(x: $0, y: y) } }
        }
        let opaque: UInt32 = xrgb.contains(code) ? 0xff00_0000 : 0
        return snapshot.bytes.withUnsafeBytes { raw in
            (0..<snapshot.width * snapshot.height).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) | opaque }
        }
    }

    /// Completes `record` from the pixels a commit's comparison `captured`, and makes them the
    /// surface's content and the buffer's held content.
    private func finishMeasure(
        _ record: inout CommitRecord, captured: Captured, buffer: TrackedBuffer, on surface: TrackedSurface, previous: PixelStore?
    ) {
        record.heldWrite = captured.heldWrite
        if previous != nil {
            let comparison = captured.comparison
            record.content = .compared
            record.changedPixels = comparison.changedPixels
            record.changedBounds = comparison.changedBounds
            record.changedBoxes = comparison.changedBoxes
            record.underDamagePixels = comparison.underDamagePixels
            record.underDamageBounds = comparison.underDamageBounds
        } else {
            record.content = .new
            record.changedPixels = buffer.width * buffer.height
            record.changedBounds = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        }
        buffer.heldBy = (surface.id, surface.label, record.commit)
        surface.content = captured.store
        surface.contentGeometry = surface.geometry
    }

    /// Reads `buffer`'s pixels at its commit on `surface`, comparing each row as it arrives
    /// with `previous` (the surface's content, when comparable) against `damage`, and with the
    /// buffer's own stored content if the compositor still holds it (a write since that
    /// commit), and leaves the pixels in a store that becomes the buffer's content; then calls
    /// `completion` — at once, or (with ``comparisonStepRows``) from the
    /// ``continueComparison()`` call that reads the last row.
    ///
    /// One pass per row does all of it (``ContentComparison/addRow(_:old:new:width:format:damage:store:storeMode:)``):
    /// compare with `previous`, count, and update the store — a row the tracker knows the
    /// store already equals in `previous` is written only where it changed, a held store is
    /// compared before it is written (a difference is a held write), any other row is copied
    /// with non-temporal stores. The store is the buffer's own, rewritten in place, unless it
    /// is `previous` itself or another surface shows it; then the surface's spare store or a
    /// new one. Fails when the pixels cannot all be read; the buffer then has
    /// no stored content (a release check is skipped).
    private func startCapture(
        _ buffer: TrackedBuffer, on surface: TrackedSurface, previous: PixelStore?, damage: DamageRegion,
        completion: @escaping (Result<Captured, ShmReadFailure>) -> Void
    ) {
        guard buffer.isReadable else { return completion(.failure(.outsidePool)) }
        let (width, height, format) = (buffer.width, buffer.height, buffer.format)
        let own = buffer.store.flatMap { $0.fits(width: width, height: height, format: format) ? $0 : nil }
        let held = buffer.heldBy == nil ? nil : own
        let store: PixelStore
        if let own, own !== surface.content, own.shownBy == 0 {
            store = own
        } else if let spare = surface.spare, spare.fits(width: width, height: height, format: format), spare !== previous {
            store = spare
            surface.spare = nil
        } else {
            store = PixelStore(width: width, height: height, format: format)
        }
        // The store's rows that equal the previous content's (known from when the previous
        // content was written against this store — the buffer's own store, or the spare a
        // client re-committing one buffer alternates with): there the store needs a write
        // only where the new row differs from the previous content, which the comparison
        // finds anyway.
        let knownRows = previous.flatMap { $0.wasCompared(with: store) ? $0 : nil }
        store.beginRewrite(basis: previous)
        let job = CaptureJob(
            buffer: buffer, surface: surface, previous: previous, damage: damage, store: store, held: held, knownRows: knownRows,
            completion: completion)
        guard let step = comparisonStepRows, step < height else {
            runCapture(job, rows: 0..<height)
            return
        }
        activeCapture = job
        runCapture(job, rows: 0..<step)
    }

    /// Reads and compares `rows` of `job`'s buffer; after the last row (or a failed read)
    /// finishes it: the store becomes the buffer's content and the job's completion runs.
    private func runCapture(_ job: CaptureJob, rows: Range<Int>) {
        let start = DispatchTime.now().uptimeNanoseconds
        let (buffer, store, previous, held, knownRows) = (job.buffer, job.store, job.previous, job.held, job.knownRows)
        let (width, format, rowBytes) = (buffer.width, buffer.format, store.rowBytes)
        var comparison = job.comparison
        var heldWrite = job.heldWrite
        var copied = 0
        let read = Result { () throws(ShmReadFailure) in
            try buffer.readRows(rows) { y, row in
                // One pass per row: compare with the previous content, count, and bring the
                // store up to date (checking it first only when the compositor holds it).
                let mode: ContentComparison.StoreMode =
                    held === store ? .update : knownRows?.rowWasEqualToBasis(y) == true ? .copyChanged : .copy
                if mode == .copy { copied += 1 }
                let scanned = comparison.addRow(
                    y, old: previous?.row(y), new: row, width: width, format: format, damage: job.damage.spans(inRow: y),
                    store: store.row(y), storeMode: mode)
                if scanned.storeDiffered { heldWrite = true }
                store.setRow(y, equalToBasis: previous != nil && !scanned.differs)
                if let held, held !== store, !heldWrite, memcmp(held.row(y), row, rowBytes) != 0 { heldWrite = true }
            }
        }
        (job.comparison, job.heldWrite) = (comparison, heldWrite)
        job.nextRow = rows.upperBound
        job.steps += 1
        rowsCopiedWhole += copied
        pixelMicroseconds += Int((DispatchTime.now().uptimeNanoseconds - start) / 1000)
        if case .failure(let failure) = read {
            return finishCapture(job, .failure(failure))
        }
        if job.nextRow >= buffer.height { finishCapture(job, .success(())) }
    }

    private func finishCapture(_ job: CaptureJob, _ read: Result<Void, ShmReadFailure>) {
        if activeCapture === job { activeCapture = nil }
        if job.steps > 1 { steppedComparisons += 1 }
        let (buffer, surface, store) = (job.buffer, job.surface, job.store)
        let replaced = buffer.store
        if case .failure(let failure) = read {
            buffer.store = nil
            return job.completion(.failure(failure))
        }
        buffer.store = store
        // The buffer's former content, if nothing shows it once this surface shows the new
        // one, is kept for reuse (a client drawing into one buffer alternates two stores).
        if let replaced, replaced !== store, surface.spare == nil, replaced.shownBy == (replaced === surface.content ? 1 : 0) {
            surface.spare = replaced
        }
        job.completion(.success(Captured(store: store, comparison: job.comparison, heldWrite: job.heldWrite)))
    }

    /// Runs `measure` now, or after the comparison under way and those already waiting.
    private func schedule(_ measure: @escaping () -> Void) {
        guard hasPendingComparison else { return measure() }
        waitingMeasures.append(measure)
    }

    /// Reads the next ``comparisonStepRows`` rows of the comparison under way (finishing it
    /// after its last row), or starts the next waiting one. Does nothing when none is pending.
    public func continueComparison() {
        if let job = activeCapture {
            let step = max(1, comparisonStepRows ?? job.buffer.height)
            runCapture(job, rows: job.nextRow..<min(job.buffer.height, job.nextRow + step))
            return
        }
        // Measurements that waited behind a comparison: each runs in order until one leaves
        // a comparison of its own under way.
        while activeCapture == nil, !waitingMeasures.isEmpty {
            waitingMeasures.removeFirst()()
        }
    }

    /// Finishes every pending comparison (and the measurements waiting behind them), in order.
    public func finishComparisons() {
        while hasPendingComparison {
            if let job = activeCapture {
                runCapture(job, rows: job.nextRow..<job.buffer.height)
            } else {
                continueComparison()
            }
        }
    }

    /// Whether handling this request must wait for the pending comparisons: every request
    /// the tracker acts on, except those that only prepare the next commit of a surface.
    private static func needsComparisonsFinished(_ interface: String, _ message: String) -> Bool {
        switch (interface, message) {
        case ("wl_surface", "attach"), ("wl_surface", "damage"), ("wl_surface", "damage_buffer"), ("wl_surface", "frame"):
            false
        case ("wl_shm", _), ("wl_shm_pool", _), ("wl_buffer", _), ("wl_compositor", _), ("wl_surface", _), ("wp_viewporter", _),
            ("wp_viewport", _), ("xdg_wm_base", _), ("xdg_surface", _), ("xdg_toplevel", _), ("xdg_popup", _), ("wl_subcompositor", _),
            ("wl_subsurface", _), ("wl_pointer", _):
            true
        default:
            false
        }
    }

    /// A commit's comparison, in steps: what it reads and writes, and how far it got.
    private final class CaptureJob {
        let buffer: TrackedBuffer
        let surface: TrackedSurface
        let previous: PixelStore?
        let damage: DamageRegion
        let store: PixelStore
        let held: PixelStore?
        let knownRows: PixelStore?
        let completion: (Result<Captured, ShmReadFailure>) -> Void
        var comparison = ContentComparison()
        var heldWrite = false
        var nextRow = 0
        var steps = 0

        init(
            buffer: TrackedBuffer, surface: TrackedSurface, previous: PixelStore?, damage: DamageRegion, store: PixelStore,
            held: PixelStore?, knownRows: PixelStore?, completion: @escaping (Result<Captured, ShmReadFailure>) -> Void
        ) {
            (self.buffer, self.surface, self.previous, self.damage, self.store) = (buffer, surface, previous, damage, store)
            (self.held, self.knownRows, self.completion) = (held, knownRows, completion)
        }
    }

    /// What ``startCapture(_:on:previous:damage:completion:)`` read: the store now holding the buffer's
    /// content, its comparison with the surface's previous content, and whether the compositor
    /// held the buffer while it was written.
    private struct Captured {
        let store: PixelStore
        let comparison: ContentComparison
        let heldWrite: Bool
    }
}
