import Foundation

/// Everything a run found: per-surface summaries, hidden globals, protocol errors and the
/// inspector's own cost; formats the summary table and decides the exit status.
///
/// Not thread-safe: fed from the proxy's poll loop.
public final class InspectReport {
    public private(set) var surfaces: [SurfaceSummary] = []
    private var index: [String: Int] = [:]
    /// Rows of destroyed surfaces whose id no new surface has taken yet: a held write found
    /// at a release after the destroy still belongs to them.
    private var ended: [String: Int] = [:]
    /// Interfaces hidden from clients because the inspector cannot decode them, with the
    /// version the compositor offered.
    public private(set) var hiddenGlobals: [String: UInt32] = [:]
    /// Protocol errors the inspector raised or saw, one line each.
    public private(set) var protocolErrors: [String] = []
    /// Connection problems (compositor unreachable, …).
    public private(set) var connectionErrors: [String] = []
    public private(set) var offendingRecords = 0
    /// How the client command ended ("exit 0", "signal 15"), once it has.
    public var clientOutcome: String?
    /// How a SIGINT/SIGTERM/SIGHUP to the inspector ended the run, when one did.
    public var interruption: String?
    /// Set when the client never connected to the inspector's socket, with why that may be
    /// (a toolkit that chose X11, …): nothing was checked, which a bare "0 under-damage"
    /// would hide.
    public var neverConnected: String?

    /// Time the trackers spent reading and comparing pixels (commits and release checks), µs.
    public var pixelMicroseconds = 0
    /// Per forwarded commit: µs from the poll loop waking up with it to the compositor's
    /// socket taking it (wall clock), and the proxy's CPU time over the same span.
    public private(set) var commitLatencies: [Int] = []
    public private(set) var commitCPUTimes: [Int] = []

    public init() {}

    /// A commit reached the compositor's socket `microseconds` after the proxy woke up to it,
    /// `cpuMicroseconds` of which the proxy's thread ran.
    public func commitForwarded(afterMicroseconds microseconds: Int, cpuMicroseconds: Int) {
        commitLatencies.append(microseconds)
        commitCPUTimes.append(cpuMicroseconds)
    }

    public func add(_ record: CommitRecord) {
        let key = "\(record.client)/\(record.surface)"
        let position: Int
        if let existing = index[key] {
            position = existing
        } else if record.kind == .heldWrite, let row = ended[key] {
            position = row
        } else {
            position = surfaces.count
            index[key] = position
            ended[key] = nil
            surfaces.append(SurfaceSummary(client: record.client, surface: record.surface))
        }
        surfaces[position].add(record)
        if record.isOffending { offendingRecords += 1 }
    }

    /// Marks the summary entry of a surface as finished so a new surface reusing its id
    /// starts a new row.
    public func surfaceEnded(client: Int, surface: UInt32) {
        let key = "\(client)/\(surface)"
        ended[key] = index[key]
        index[key] = nil
    }

    public func hide(_ interface: String, version: UInt32) { hiddenGlobals[interface] = version }
    public func protocolError(_ text: String) { protocolErrors.append(text) }
    public func connectionError(_ text: String) { connectionErrors.append(text) }
    /// Output the run could not write (the `--log` file or evidence, on a full disk, …).
    public private(set) var outputErrors: [String] = []
    public func outputError(_ text: String) { outputErrors.append(text) }
    /// How connections ended, when not simply by the client closing them.
    public private(set) var connectionNotes: [String] = []
    public func connectionNote(client: Int, _ text: String) { connectionNotes.append("client \(client): \(text)") }

    public var underDamageCommits: Int { surfaces.reduce(0) { $0 + $1.underDamageCommits } }
    public var heldWrites: Int { surfaces.reduce(0) { $0 + $1.heldWrites } }

    /// Surfaces whose median over-damage (damage ÷ changed pixels) exceeds `ratio`.
    public func surfacesOver(_ ratio: Double) -> [SurfaceSummary] {
        surfaces.filter { (SurfaceSummary.median($0.overDamageOfChanged) ?? 0) > ratio }
    }

    /// 0 clean, 1 under-damage, held-buffer writes, protocol errors or over `failOver`,
    /// 2 connection errors or output that could not be written.
    public func exitStatus(failOver: Double?) -> Int32 {
        if !connectionErrors.isEmpty || !outputErrors.isEmpty { return 2 }
        if underDamageCommits > 0 || heldWrites > 0 || !protocolErrors.isEmpty { return 1 }
        if let failOver, !surfacesOver(failOver).isEmpty { return 1 }
        return 0
    }

    /// `text` on one line (control characters, as a window title may hold, shown as `\u{…}`),
    /// cut to `width` characters, the cut marked with "…" (and a quoted title's closing quote
    /// kept).
    static func column(_ raw: String, width: Int) -> String {
        var text = ""
        for scalar in raw.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7f {
                text += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        guard text.count > width else { return text }
        let quoted = text.hasSuffix("\"")
        return String(text.prefix(width - (quoted ? 2 : 1))) + "…" + (quoted ? "\"" : "")
    }

    /// The summary table, one row per surface that committed a buffer, then hidden globals,
    /// errors and the inspector's cost.
    public func summary(cpuSeconds: Double, wallSeconds: Double) -> String {
        func f(_ value: Double?, _ digits: Int = 1) -> String {
            guard let value, value.isFinite else { return "-" }
            return String(format: "%.\(digits)f", value)
        }
        let header = ["client", "surface", "role", "commits", "/s", "buffer", "no-dmg", "frame-only", "reused",
                      "damage px med", "max", "over÷px med", "max", "over÷bbox med", "over÷boxes med", "no change", "under", "under px", "held writes"]
        var rows: [[String]] = []
        for s in surfaces where s.commits > 0 || s.heldWrites > 0 {
            rows.append([
                "\(s.client)", "@\(s.surface)", Self.column(s.role, width: 28), "\(s.commits)", f(s.commitRate),
                "\(s.bufferCommits)", "\(s.damagelessCommits)", "\(s.frameOnlyCommits)", "\(s.reusedBufferCommits)",
                SurfaceSummary.median(s.damagePixels).map(String.init) ?? "-", s.damagePixels.max().map(String.init) ?? "-",
                f(SurfaceSummary.median(s.overDamageOfChanged)), f(s.overDamageOfChanged.max()),
                f(SurfaceSummary.median(s.overDamageOfBounds)), f(SurfaceSummary.median(s.overDamageOfBoxes)),
                "\(s.damageWithoutChange)",
                "\(s.underDamageCommits)", "\(s.underDamagePixels)", "\(s.heldWrites)",
            ])
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column <= 2 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var text = "damask-inspect summary\n" + line(header) + "\n"
        for row in rows { text += line(row) + "\n" }
        if rows.isEmpty { text += "(no surface committed)\n" }
        let compare = Double(pixelMicroseconds) / 1e6
        text += "under-damage commits: \(underDamageCommits), held-buffer writes: \(heldWrites)\n"
        let shrunk = surfaces.reduce(0) { $0 + $1.poolShrunkCommits }
        if shrunk > 0 {
            text += "not checked: \(shrunk) commits whose wl_shm pool file the client had shrunk below the buffer (read as unreadable, no SIGBUS)\n"
        }
        let foreign = surfaces.reduce(0) { $0 + $1.foreignBufferCommits }
        if foreign > 0 {
            text += "not checked: \(foreign) commits of buffers that are not wl_shm (dmabuf is out of scope)\n"
        }
        let otherUnreadable = surfaces.reduce(0) { $0 + $1.unreadableCommits - $1.poolShrunkCommits - $1.foreignBufferCommits }
        if otherUnreadable > 0 {
            let formats = surfaces.reduce(into: Set<String>()) { $0.formUnion($1.unreadableFormats) }.sorted()
            text += "not checked: \(otherUnreadable) wl_shm commits whose pixels could not be read (format \(formats.joined(separator: ", ")): "
                + "a pixel format the inspector cannot compare, a buffer outside its pool, or one over 32768 px a side)\n"
        }
        let hidden = hiddenGlobals.keys.sorted()
        text += "hidden globals (\(hidden.count)): " + (hidden.isEmpty ? "none" : hidden.map { "\($0) v\(hiddenGlobals[$0] ?? 0)" }.joined(separator: ", ")) + "\n"
        if let dmabuf = hidden.first(where: { $0.contains("linux_dmabuf") }) {
            text += "out of scope: dmabuf (\(dmabuf)) was hidden, the inspector reads only wl_shm buffers: clients fell back to wl_shm or could not start\n"
        }
        for error in protocolErrors { text += "protocol error: \(error)\n" }
        if let clientOutcome { text += "client: \(clientOutcome)\n" }
        if let interruption { text += "note: \(interruption)\n" }
        if let neverConnected { text += "note: nothing was checked: the client never connected to the inspector's Wayland socket\(neverConnected)\n" }
        for note in connectionNotes { text += "note: \(note)\n" }
        for error in connectionErrors { text += "connection error: \(error)\n" }
        for error in outputErrors { text += "output error: \(error)\n" }
        if !commitLatencies.isEmpty {
            let frame = 16_667
            func figures(_ values: [Int]) -> String {
                let sorted = values.sorted()
                return "median \(sorted[sorted.count / 2]) µs, 99th percentile \(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) µs, "
                    + "max \(sorted[sorted.count - 1]) µs, over a 60 Hz frame (16.7 ms) \(sorted.filter { $0 > frame }.count)"
            }
            text += "commit latency (proxy woke up → sent to the compositor), \(commitLatencies.count) commits: wall \(figures(commitLatencies)); "
                + "the proxy's CPU \(figures(commitCPUTimes))\n"
        }
        text += "inspector cost: \(f(cpuSeconds, 3)) s CPU over \(f(wallSeconds, 2)) s (\(f(wallSeconds > 0 ? 100 * cpuSeconds / wallSeconds : nil))%), of which copy+compare \(f(compare, 3)) s\n"
        return text
    }
}
