import Foundation

/// One `stats` line of the test client: frames animated, live shm buffers and their bytes,
/// resident memory, open descriptors and the buffer size in pixels.
struct ReliabilitySample: CustomStringConvertible {
    var frames = 0
    var buffers = 0
    var shm = 0
    var rss = 0
    var descriptors = 0
    var width = 0
    var height = 0
    var unpaced = 0

    /// Parses "stats frames=F buffers=B shm=S rss=R fds=D width=W height=H unpaced=U".
    init?(line: String) {
        guard line.hasPrefix("stats ") else { return nil }
        var values: [String: Int] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=")
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            values[String(parts[0])] = value
        }
        guard let frames = values["frames"], let buffers = values["buffers"], let shm = values["shm"],
            let rss = values["rss"], let descriptors = values["fds"], let width = values["width"],
            let height = values["height"], let unpaced = values["unpaced"]
        else { return nil }
        (self.frames, self.buffers, self.shm, self.rss) = (frames, buffers, shm, rss)
        (self.descriptors, self.width, self.height, self.unpaced) = (descriptors, width, height, unpaced)
    }

    /// Asks `client` for its figures and waits for the answer.
    init(of client: ClientProcess, timeout: TimeInterval = 10) throws {
        let seen = client.outputLines.count
        client.send("stats")
        guard let line = client.waitForLine(timeout: timeout, skipping: seen, where: { $0.hasPrefix("stats ") }),
            let statistics = ReliabilitySample(line: line)
        else { throw StatisticsError.noAnswer(client.standardError) }
        self = statistics
    }

    var description: String {
        "frames=\(frames) buffers=\(buffers) shm=\(shm) rss=\(rss) fds=\(descriptors) \(width)×\(height) unpaced=\(unpaced)"
    }

    enum StatisticsError: Error {
        case noAnswer(String)
    }
}
