import DamaskGraphics
import Foundation

/// Turns a frame's damage into pixels on the surface: repaints a buffer inside the damage,
/// copies forward what that buffer missed since it was last presented, tints the damage
/// when flashing, and presents the buffer (with a frame-callback request unless the scheduler
/// made the commit unpaced).
///
/// Main-actor isolated; owned by its window. Holds the surface strongly (the window owns
/// both) and the front buffer weakly (the surface's pool owns buffers).
@MainActor final class Presenter {
    private let surface: any Surface
    /// The buffer presented last, which holds the frame on screen; a buffer that missed
    /// frames copies those areas forward from it. Stale (or gone) after a resize.
    private weak var frontBuffer: SurfaceBuffer?
    /// Whether each frame's damage is tinted for one frame.
    var flashesDamage: Bool
    /// Damage with more rects than this is sent coalesced to at most this many
    /// (``Region/coalesced(toAtMost:)``).
    var maximumDamageRectCount = 16
    /// How many commits were made.
    private(set) var frameCount = 0
    /// The compositing plan, planned again for every repaint (it keeps its capacity).
    private let plan: CompositingPlan
    /// The window's counters, which the repaints add to.
    private let statistics: WindowStatistics

    /// Creates a presenter for `surface`, counting its repaints in `statistics`.
    init(surface: any Surface, flashesDamage: Bool, statistics: WindowStatistics) {
        self.surface = surface
        self.flashesDamage = flashesDamage
        self.statistics = statistics
        self.plan = CompositingPlan(statistics: statistics)
    }

    /// Forgets the front buffer (its size is stale after a resize).
    func surfaceDidResize() {
        frontBuffer = nil
    }

    /// Repaints `buffer` inside `damage` from `root`'s tree and presents it.
    ///
    /// - Parameters:
    ///   - damage: what differs from the last presented frame (buffer pixels).
    ///   - changes: the part of `damage` caused by the tree (not by removing a flash).
    ///   - drawnLayer: the one layer that drew in this pass, if only one did: when its
    ///     opaque contents alone show in the repaint region, they are copied without
    ///     planning the tree (``OpaqueContentsRepaint``).
    ///   - requestingFrame: whether the commit asks for a frame callback (``FrameScheduler``).
    ///   - startCPUTime: the thread's CPU time when the pass began (``threadCPUTime()``), or
    ///     nil when nobody reads the report's CPU time: the clock is a system call, not vDSO.
    /// - Returns: the area tinted by the flash (empty when not flashing) and the report.
    func present(
        _ damage: Region, changes: Region, into buffer: SurfaceBuffer, root: Layer, scale: CGFloat,
        drawnLayer: Layer? = nil, drawCount: Int, requestingFrame: Bool, startCPUTime: Double?
    ) -> (flashed: Region, report: CommitReport) {
        precondition(!buffer.isBusy, "painted into a buffer the compositor still holds")
        let bufferRect = CGRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        var repaint = damage.intersection(bufferRect)
        let missed = buffer.missedDamage.subtracting(repaint).intersection(bufferRect)
        if !missed.isEmpty {
            if let front = frontBuffer, front !== buffer, !front.isStale,
                front.width == buffer.width, front.height == buffer.height
            {
                // The front buffer holds the last presented frame, so what this buffer missed
                // is copied forward rather than composited again: `damask-bench damage`
                // measures the copy 18× cheaper for a 64×64 region and 3.8× for 512×512.
                buffer.bitmap.copyPixels(from: front.bitmap, in: missed)
            } else {
                repaint.formUnion(missed)
            }
        }

        if let drawnLayer, OpaqueContentsRepaint.paint(
            drawnLayer, root: root, region: repaint, into: buffer.bitmap, statistics: statistics) {
            // Done: the region shows only the drawn layer's opaque contents.
        } else {
            let context = buffer.graphicsContext
            context.resetState()
            Compositor.repaint(root, in: context, scale: scale, region: repaint, plan: plan)
        }

        var flashed = Region()
        if flashesDamage && !changes.isEmpty {
            tint(changes, in: buffer.bitmap)
            flashed = changes
        }

        let sent = damage.coalesced(toAtMost: maximumDamageRectCount)
        surface.present(buffer, damage: sent, requestingFrame: requestingFrame)
        frontBuffer = buffer
        frameCount += 1

        // No closure (`startCPUTime.map { … }`): a cold frame would pay its executor check in
        // misses on the concurrency runtime's code (CONTRIBUTING.md, closures on hot paths).
        var cpuMilliseconds = 0.0
        if let startCPUTime { cpuMilliseconds = (Self.threadCPUTime() - startCPUTime) * 1000 }
        let report = CommitReport(
            frameNumber: frameCount, bufferWidth: buffer.width, bufferHeight: buffer.height,
            scale: scale, damage: sent, repainted: repaint,
            drawCount: drawCount, cpuMilliseconds: cpuMilliseconds)
        return (flashed, report)
    }

    private func tint(_ region: Region, in bitmap: Bitmap) {
        let context = GraphicsContext(bitmap: bitmap)
        context.clip(to: region)
        context.setFillColor(Color(red: 1, green: 0, blue: 0.6, alpha: 0.3))
        context.fill(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
    }

    /// The calling thread's CPU time in seconds.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
