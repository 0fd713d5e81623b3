import CPixman
import Foundation

/// What the numbers were measured on: CPU model, cores, load, library versions.
struct MachineFacts: Codable, Sendable {
    /// The CPU model from `/proc/cpuinfo`.
    var cpuModel: String
    /// Online logical CPUs.
    var cores: Int
    /// The 1-minute load average when the run started (others share this machine).
    var loadAverage: Double
    /// The pixman version the bench is linked against.
    var pixmanVersion: String
    /// The kernel release.
    var kernel: String
    /// Physical memory in bytes.
    var memoryBytes: UInt64
    /// When the run started (ISO 8601, UTC).
    var date: String

    /// Reads the facts of this machine now.
    static func current() -> MachineFacts {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.flatMap { Double($0) } ?? 0
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let formatter = ISO8601DateFormatter()
        return MachineFacts(
            cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            loadAverage: load, pixmanVersion: String(cString: pixman_version_string()),
            kernel: kernel, memoryBytes: ProcessInfo.processInfo.physicalMemory,
            date: formatter.string(from: Date()))
    }
}
