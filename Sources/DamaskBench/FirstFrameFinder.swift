import Foundation

/// Finds, in Weston's protocol log (`--logger-scopes=proto`), the first commit that shows a
/// buffer on a toplevel: the moment a newly started client's window first has content.
///
/// Feed it the log's lines from a point before the client started (``consume(_:)``); lines
/// of clients that make no `xdg_surface` after that point (desktop-shell's helper) never
/// match. A line looks like
/// `[2026-11-30 22:46:42.787][proto] client 0x559d13427060 rq wl_surface@3.commit()`.
///
/// The toplevel is the `wl_surface` given to `xdg_wm_base.get_xdg_surface`; its first
/// `commit` after an `attach` of a buffer (not `nil`) is the first frame. Value type; not
/// shared between threads.
struct FirstFrameFinder {
    /// The first frame: its log timestamp and the client that committed it.
    struct Frame: Equatable {
        /// Weston's timestamp of the commit, in milliseconds since the Unix epoch (the log
        /// has millisecond resolution, local time).
        var milliseconds: Double
        /// The client, as Weston logs it (`0x559d13427060`).
        var client: String
    }

    /// `client wl_surface@N` of every toplevel seen so far.
    private var toplevels: Set<String> = []
    /// `client wl_surface@N` of surfaces with a buffer attached since their last commit.
    private var attached: Set<String> = []
    /// The frame, once found.
    private(set) var frame: Frame?

    /// Reads one log line (without its newline); returns the first frame when this line is
    /// its commit (and keeps returning it for later lines).
    @discardableResult
    mutating func consume(_ line: Substring) -> Frame? {
        if let frame { return frame }
        guard let request = Self.request(in: line) else { return nil }
        let (client, object, call) = request
        if object.hasPrefix("xdg_wm_base@"), call.hasPrefix("get_xdg_surface("),
            let surface = call.split(separator: " ").last?.split(separator: ")").first
        {
            toplevels.insert("\(client) \(surface)")
        } else if object.hasPrefix("wl_surface@") {
            let key = "\(client) \(object)"
            if call.hasPrefix("attach(") {
                if call.hasPrefix("attach(nil") { attached.remove(key) } else { attached.insert(key) }
            } else if call == "commit()" {
                if toplevels.contains(key), attached.contains(key), let time = Self.milliseconds(in: line) {
                    frame = Frame(milliseconds: time, client: String(client))
                }
                attached.remove(key)
            }
        }
        return frame
    }

    /// The client, the object (`wl_surface@3`) and the call (`commit()`) of a request line,
    /// or nil for any other line.
    private static func request(in line: Substring) -> (Substring, Substring, Substring)? {
        guard let marker = line.range(of: "][proto] client ") else { return nil }
        let rest = line[marker.upperBound...]
        let fields = rest.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, fields[1] == "rq", let dot = fields[2].firstIndex(of: ".") else { return nil }
        let message = fields[2]
        return (fields[0], message[..<dot], message[message.index(after: dot)...])
    }

    /// The timestamp at the start of a line (`[2026-11-30 22:46:42.787]`) in milliseconds
    /// since the Unix epoch, read as local time as Weston writes it.
    static func milliseconds(in line: Substring) -> Double? {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return nil }
        let stamp = line[line.index(after: line.startIndex)..<close]
        let parts = stamp.split(whereSeparator: { "- :.".contains($0) }).map { Int($0) }
        guard parts.count == 7, parts.allSatisfy({ $0 != nil }) else { return nil }
        let values = parts.map { $0 ?? 0 }
        var calendar = tm()
        calendar.tm_year = Int32(values[0] - 1900)
        calendar.tm_mon = Int32(values[1] - 1)
        calendar.tm_mday = Int32(values[2])
        calendar.tm_hour = Int32(values[3])
        calendar.tm_min = Int32(values[4])
        calendar.tm_sec = Int32(values[5])
        calendar.tm_isdst = -1
        let seconds = mktime(&calendar)
        guard seconds != -1 else { return nil }
        return Double(seconds) * 1000 + Double(values[6])
    }
}
