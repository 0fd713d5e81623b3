import DamaskGraphics
import Dispatch
import Foundation

/// A ``Surface`` over plain memory that records every commit: for tests and headless runs.
///
/// It behaves like a compositor that copies only the damaged pixels of each presented
/// buffer onto its screen (``presentedBitmap``), so a damage region that is too small
/// shows up as a wrong screen. Buffers come from a ``BufferPool`` and are released
/// according to ``releasePolicy``; frame callbacks fire by hand (``fireFrame(timestamp:)``)
/// or from a simulated or real-time clock (``frameClock``). Main-actor isolated; the
/// surface owns its buffers and does not retain its delegate (``SurfaceDelegateReference``).
@MainActor public final class MemorySurface: Surface {
    /// When the surface gives a presented buffer back.
    public enum ReleasePolicy: Sendable, Equatable {
        /// Right after the commit (as mutter does).
        case immediate
        /// When the next buffer is presented (as Weston does).
        case afterNextPresent
        /// After this many further presents.
        case afterPresents(Int)
        /// Never (until ``MemorySurface/releaseAllBuffers()``): the window runs out of
        /// buffers and must neither spin nor block.
        case never
    }

    /// Where frame callbacks come from.
    public enum FrameClock: Sendable, Equatable {
        /// Only from ``MemorySurface/fireFrame(timestamp:)``.
        case manual
        /// On the next main-queue turn after the request, with timestamps advancing by
        /// the interval (headless runs at full speed).
        case simulated(intervalMilliseconds: UInt32)
        /// After the interval of real time.
        case realTime(intervalMilliseconds: UInt32)
    }

    /// One recorded commit.
    public struct Commit {
        /// 1 for the first commit, and so on.
        public var frameNumber: Int
        /// The damage sent with the commit, in buffer pixels.
        public var damage: Region
        /// A copy of the whole presented buffer (`nil` when snapshots are off).
        public var snapshot: Bitmap?
        /// The presented buffer's identifier.
        public var bufferIdentifier: Int
        /// The buffer's width in pixels.
        public var width: Int
        /// The buffer's height in pixels.
        public var height: Int
    }

    /// Receives resizes, frames, releases and close requests (not retained; see
    /// ``SurfaceDelegateReference``).
    public var delegate: (any SurfaceDelegate)? {
        get { delegateReference.delegate }
        set { delegateReference.delegate = newValue }
    }
    private var delegateReference = SurfaceDelegateReference()
    /// The logical size in points.
    public private(set) var size: CGSize
    /// Buffer pixels per point.
    public private(set) var scale: CGFloat
    /// The window title.
    public var title: String = ""
    /// When presented buffers are released.
    public var releasePolicy: ReleasePolicy
    /// Where frame callbacks come from.
    public var frameClock: FrameClock
    /// Whether commits keep a full copy of the presented buffer (only the latest
    /// ``snapshotLimit`` commits do: a full frame each).
    public var recordsSnapshots = true
    /// How many of the latest commits keep their snapshot (default 8); older commits drop
    /// it, so an animation presenting thousands of frames holds at most this many copies.
    public var snapshotLimit = 8 {
        didSet { trimHistory() }
    }
    /// How many commits ``commits`` keeps (the latest ones), or nil for all of them. A
    /// headless run sets a small limit: it inspects only the presented screen.
    public var commitHistoryLimit: Int? {
        didSet { trimHistory() }
    }
    /// The latest commits, oldest first (all of them unless ``commitHistoryLimit`` is set).
    public private(set) var commits: [Commit] = []
    /// How many times ``requestFrame()`` was called.
    public private(set) var frameRequestCount = 0
    /// How many times ``requestIdleFrame(notBefore:)`` was called (ticks that cost no commit).
    public private(set) var idleFrameRequestCount = 0
    /// The `notBefore` time of the last idle-frame request (`nil`: the next frame).
    public private(set) var lastIdleFrameTarget: UInt32?
    /// How many frame callbacks fired.
    public private(set) var framesFired = 0
    /// Whether a requested frame callback has not fired yet.
    public private(set) var hasPendingFrameRequest = false
    /// What a compositor would show: updated by each commit inside its damage only.
    public private(set) var presentedBitmap: Bitmap?
    /// How many buffers were presented.
    public private(set) var presentCount = 0
    /// The simulated clock, in milliseconds, used when no timestamp is given.
    public private(set) var clock: UInt32 = 0

    /// The simulated clock (``clock``): frames are stamped with it.
    public var clockTimestamp: UInt32 { clock }

    /// The display's refresh interval in milliseconds, as a test sets it (1000/60 unless
    /// set; a simulated or real-time ``FrameClock`` does not change it).
    public var refreshInterval: Double = 1000.0 / 60

    /// Whether a change after a quiet spell may be committed without a frame request
    /// (``Surface/allowsUnpacedCommits``); false unless a test sets it, so that every commit
    /// leaves a frame callback for the test (or the script player) to fire.
    public var allowsUnpacedCommits = false

    /// The opaque region the window set last (surface points); nil before the first.
    public private(set) var opaqueRegion: Region?

    /// Records the opaque region (a memory surface has no compositor to tell).
    public func setOpaqueRegion(_ region: Region) {
        opaqueRegion = region
    }

    private let pool: BufferPool
    /// The frame numbers of the commits that still hold a snapshot, oldest first.
    private var snapshotFrames: [Int] = []
    private var busy: [(buffer: SurfaceBuffer, remaining: Int)] = []

    /// Creates a surface of `size` points at `scale`.
    public init(
        size: CGSize, scale: CGFloat = 1, bufferCapacity: Int = 3,
        releasePolicy: ReleasePolicy = .immediate, frameClock: FrameClock = .manual
    ) {
        self.size = size
        self.scale = scale
        self.releasePolicy = releasePolicy
        self.frameClock = frameClock
        var identifiers = 0
        self.pool = BufferPool(
            capacity: bufferCapacity,
            allocate: { width, height in
                guard let bitmap = try? Bitmap(width: width, height: height) else { return nil }
                identifiers += 1
                return SurfaceBuffer(bitmap: bitmap, identifier: identifiers)
            },
            destroy: { _ in })
    }

    /// `size.width × scale`, rounded half away from zero.
    public var pixelWidth: Int { Self.pixelLength(size.width, scale: scale) }
    /// `size.height × scale`, rounded half away from zero.
    public var pixelHeight: Int { Self.pixelLength(size.height, scale: scale) }
    /// The number of live buffers.
    public var liveBufferCount: Int { pool.liveBufferCount }
    /// The bytes held by live buffers.
    public var liveBytes: Int { pool.liveBytes }
    /// The buffers alive now.
    public var buffers: [SurfaceBuffer] { pool.buffers }

    /// Returns a free buffer, or `nil` when all are busy and the pool is full.
    public func dequeueBuffer() -> SurfaceBuffer? {
        pool.dequeue(width: pixelWidth, height: pixelHeight)
    }

    /// Records the commit, updates the screen inside `damage`, and applies the release
    /// policy; with `requestingFrame`, asks for a frame callback first (``requestFrame()``).
    public func present(_ buffer: SurfaceBuffer, damage: Region, requestingFrame: Bool) {
        precondition(pool.buffers.contains { $0 === buffer }, "presented buffer \(buffer.identifier), which this surface did not hand out")
        precondition(!buffer.isBusy, "presented a buffer the compositor still holds")
        if requestingFrame { requestFrame() }
        let bitmap = buffer.bitmap
        if let screen = presentedBitmap, screen.width == bitmap.width,
            screen.height == bitmap.height
        {
            screen.copyPixels(from: bitmap, in: damage)
        } else {
            presentedBitmap = try? bitmap.copy()
        }
        presentCount += 1
        commits.append(
            Commit(
                frameNumber: presentCount, damage: damage,
                snapshot: recordsSnapshots ? try? bitmap.copy() : nil,
                bufferIdentifier: buffer.identifier, width: bitmap.width, height: bitmap.height))
        trimHistory()
        pool.didPresent(buffer, damage: damage)

        var due: [SurfaceBuffer] = []
        busy = busy.compactMap { entry in
            if entry.remaining <= 1 {
                due.append(entry.buffer)
                return nil
            }
            return (entry.buffer, entry.remaining - 1)
        }
        switch releasePolicy {
        case .immediate: due.append(buffer)
        case .afterNextPresent: busy.append((buffer, 1))
        case .afterPresents(let count):
            if count <= 0 { due.append(buffer) } else { busy.append((buffer, count)) }
        case .never: break
        }
        for released in due { release(released) }
    }

    /// Asks for one frame callback; repeated requests before it fires are merged.
    public func requestFrame() {
        frameRequestCount += 1
        scheduleFrame()
    }

    /// Asks for one tick without a commit; it fires from the same clock as frame
    /// callbacks and merges with them (`timestamp` is not waited for: each frame the clock
    /// brings ticks, and the window checks what is due).
    public func requestIdleFrame(notBefore timestamp: UInt32?) {
        idleFrameRequestCount += 1
        lastIdleFrameTarget = timestamp
        scheduleFrame()
    }

    private func scheduleFrame() {
        guard !hasPendingFrameRequest else { return }
        hasPendingFrameRequest = true
        switch frameClock {
        case .manual:
            break
        case .simulated(let interval):
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.fireFrame(timestamp: self.clock &+ interval)
            }
        case .realTime(let interval):
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(Int(interval))) {
                [weak self] in
                guard let self else { return }
                self.fireFrame(timestamp: self.clock &+ interval)
            }
        }
    }

    /// Fires the pending frame callback, if any; returns whether one fired.
    ///
    /// - Parameter timestamp: the callback's time in milliseconds; by default the
    ///   simulated clock advanced by 16 ms.
    @discardableResult
    public func fireFrame(timestamp: UInt32? = nil) -> Bool {
        guard hasPendingFrameRequest else { return false }
        hasPendingFrameRequest = false
        clock = timestamp ?? clock &+ 16
        framesFired += 1
        delegate?.surfaceFrameDidFire(self, timestamp: clock)
        return true
    }

    /// Moves the simulated clock on by `milliseconds` without a frame: time that passes
    /// while nothing happens on the surface.
    public func advanceClock(by milliseconds: UInt32) {
        clock &+= milliseconds
    }

    /// Changes the size and scale, drops the buffers, and tells the delegate.
    public func resize(to size: CGSize, scale: CGFloat? = nil) {
        self.size = size
        if let scale { self.scale = scale }
        pool.reset()
        delegate?.surface(self, didResizeTo: size, scale: self.scale)
    }

    /// Releases every busy buffer now.
    public func releaseAllBuffers() {
        let held = busy.map(\.buffer) + pool.buffers.filter(\.isBusy)
        busy.removeAll()
        var seen = Set<ObjectIdentifier>()
        for buffer in held where seen.insert(ObjectIdentifier(buffer)).inserted {
            release(buffer)
        }
    }

    /// Simulates the user closing the window.
    public func requestClose() {
        delegate?.surfaceDidRequestClose(self)
    }

    /// Forgets the recorded commits (the screen is kept).
    public func removeAllCommits() {
        commits.removeAll()
        snapshotFrames.removeAll()
    }

    /// Drops the commits beyond ``commitHistoryLimit`` and the snapshots beyond
    /// ``snapshotLimit``, oldest first. Commits are numbered consecutively, so a frame
    /// number finds its commit without a search.
    private func trimHistory() {
        if let limit = commitHistoryLimit, commits.count > max(0, limit) {
            commits.removeFirst(commits.count - max(0, limit))
        }
        if let last = commits.last, last.snapshot != nil, snapshotFrames.last != last.frameNumber {
            snapshotFrames.append(last.frameNumber)
        }
        while snapshotFrames.count > max(0, snapshotLimit) {
            let frame = snapshotFrames.removeFirst()
            guard let first = commits.first?.frameNumber else { continue }
            let index = frame - first
            if commits.indices.contains(index) { commits[index].snapshot = nil }
        }
    }

    private func release(_ buffer: SurfaceBuffer) {
        guard buffer.isBusy else { return }
        pool.release(buffer)
        delegate?.surfaceBufferDidBecomeAvailable(self)
    }
}
