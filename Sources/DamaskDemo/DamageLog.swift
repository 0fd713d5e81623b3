import DamaskGraphics
import DamaskPlayback
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
    /// The log's descriptor; owned here, closed only by process exit (the log is written
    /// until the last commit).
    private let descriptor: Int32
    private let path: String
    /// Whether the lines carry each commit's CPU time (otherwise `0.000`).
    let recordsTime: Bool
    /// Called once when a line cannot be written (a full disk), with the message to print.
    var onWriteFailure: (String) -> Void = { _ in }
    private var failed = false

    /// Opens `path` for the log (see ``OutputFile``: never an input, never through a link,
    /// a FIFO or device written in place); `recordsTime: false` writes every `ms` as
    /// `0.000`.
    ///
    /// - Throws: `DemoError.usage` naming the path and the reason.
    init(path: String, inputs: [String], recordsTime: Bool = true) throws {
        self.recordsTime = recordsTime
        self.path = path
        do {
            descriptor = try OutputFile(path: path, purpose: "the damage log", inputs: inputs).openStream()
        } catch {
            throw DemoError.usage(error.description)
        }
    }

    /// Appends the line for `report`; a failed write is reported once through
    /// ``onWriteFailure``.
    func record(_ report: CommitReport) {
        guard !failed else { return }
        var report = report
        if !recordsTime { report.cpuMilliseconds = 0 }
        let failure = FileDescriptorWriter.write(Array((Self.line(for: report) + "\n").utf8), to: descriptor)
        guard failure != 0 else { return }
        failed = true
        onWriteFailure("cannot write the damage log to '\(path)': \(String(cString: strerror(failure)))")
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
