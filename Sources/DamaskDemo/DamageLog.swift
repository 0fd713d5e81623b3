import DamaskViews
import Foundation

/// Writes one JSON object per commit, one per line, for `--damage-log FILE`:
/// `{"frame": N, "width": W, "height": H, "scale": S, "damage": [[x,y,w,h], …],
/// "repainted": [[x,y,w,h], …], "draws": D, "ms": T}` (buffer pixels).
///
/// Owns the file handle; lines are written as commits happen, so a crash loses at most
/// the line being written. In a deterministic run (`--headless --play`) `ms` is written as
/// `0.000`, so the same script gives the same log byte for byte. Main-actor.
@MainActor
final class DamageLog {
    private let handle: FileHandle
    private let recordsTime: Bool

    /// Creates (or truncates) the file at `path`; `recordsTime: false` writes every `ms`
    /// as `0.000`.
    ///
    /// - Throws: `DemoError.usage` naming the path when it cannot be written.
    init(path: String, recordsTime: Bool = true) throws {
        self.recordsTime = recordsTime
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw DemoError.usage("cannot write the damage log to '\(path)'")
        }
        self.handle = handle
    }

    /// Appends the line for `report`.
    func record(_ report: CommitReport) {
        var report = report
        if !recordsTime { report.cpuMilliseconds = 0 }
        handle.write(Data((Self.line(for: report) + "\n").utf8))
    }

    /// The JSON line for `report`, with keys in a fixed order so logs compare byte for byte.
    static func line(for report: CommitReport) -> String {
        func rects(_ list: [CGRect]) -> String {
            "[" + list.map { "[\(Int($0.minX)),\(Int($0.minY)),\(Int($0.width)),\(Int($0.height))]" }
                .joined(separator: ",") + "]"
        }
        let scale = report.scale == report.scale.rounded() ? String(Int(report.scale)) : String(Double(report.scale))
        return #"{"frame": \#(report.frameNumber), "width": \#(report.bufferWidth), "height": \#(report.bufferHeight), "scale": \#(scale), "damage": \#(rects(report.damageRects)), "repainted": \#(rects(report.repaintedRects)), "draws": \#(report.drawCount), "ms": \#(String(format: "%.3f", report.cpuMilliseconds))}"#
    }
}
