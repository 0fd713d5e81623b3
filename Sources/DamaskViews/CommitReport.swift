import DamaskGraphics
import Foundation

/// What one commit of a window contained: for `--damage-log`, benchmarks and tests.
public struct CommitReport: Sendable, Equatable {
    /// The window's commit number, 1 for the first.
    public var frameNumber: Int
    /// The buffer's width in pixels.
    public var bufferWidth: Int
    /// The buffer's height in pixels.
    public var bufferHeight: Int
    /// Buffer pixels per point.
    public var scale: CGFloat
    /// The damage sent to the surface, buffer pixels.
    public var damage: Region
    /// The pixels repainted in the buffer (damage plus what the buffer had missed).
    public var repainted: Region
    /// ``damage``'s rectangles (built when asked: a report is made for every commit, read
    /// for few).
    public var damageRects: [CGRect] {
        get { damage.rects }
        set { damage = Region(rects: newValue) }
    }
    /// ``repainted``'s rectangles.
    public var repaintedRects: [CGRect] {
        get { repainted.rects }
        set { repainted = Region(rects: newValue) }
    }
    /// How many layers were drawn (or displayed) for this commit.
    public var drawCount: Int
    /// The CPU time of the pass (layout, drawing, compositing), in milliseconds; 0 when the
    /// window had no `onCommit` handler during the pass or its `measuresCommitCPUTime` was
    /// off (the thread's CPU clock is a system call, read only when someone wants it).
    public var cpuMilliseconds: Double

    /// Creates a report.
    public init(
        frameNumber: Int, bufferWidth: Int, bufferHeight: Int, scale: CGFloat,
        damage: Region, repainted: Region, drawCount: Int, cpuMilliseconds: Double
    ) {
        self.frameNumber = frameNumber
        self.bufferWidth = bufferWidth
        self.bufferHeight = bufferHeight
        self.scale = scale
        self.damage = damage
        self.repainted = repainted
        self.drawCount = drawCount
        self.cpuMilliseconds = cpuMilliseconds
    }

    /// Creates a report from the rectangles of its damage and repainted pixels.
    public init(
        frameNumber: Int, bufferWidth: Int, bufferHeight: Int, scale: CGFloat,
        damageRects: [CGRect], repaintedRects: [CGRect], drawCount: Int, cpuMilliseconds: Double
    ) {
        self.init(
            frameNumber: frameNumber, bufferWidth: bufferWidth, bufferHeight: bufferHeight, scale: scale,
            damage: Region(rects: damageRects), repainted: Region(rects: repaintedRects), drawCount: drawCount,
            cpuMilliseconds: cpuMilliseconds)
    }

    /// The number of damaged pixels.
    public var damagedPixelCount: Int { damage.area }

    /// One line for logs: `frame 3 200x150@1.0 damage [x,y,w,h …] repainted N px draws D cpu T ms`.
    public var logLine: String {
        let rects = damageRects.map {
            "\(Int($0.minX)),\(Int($0.minY)),\(Int($0.width)),\(Int($0.height))"
        }
        return "frame \(frameNumber) \(bufferWidth)x\(bufferHeight)@\(scale) damage ["
            + rects.joined(separator: " ") + "] repainted \(repainted.area) px draws \(drawCount) cpu "
            + String(format: "%.3f", cpuMilliseconds) + " ms"
    }
}
