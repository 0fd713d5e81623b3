import DamaskGraphics
import Foundation

/// The `--report FILE.html` page: one self-contained HTML file (no network, no scripts, no
/// external fonts; images inline as `data:` URIs) with the summary table, a timeline of
/// every surface's commits, and for each offending commit the content before and after it
/// and their difference, with the declared damage drawn over each.
///
/// Collects records as the run goes (a few numbers each; images only for the first
/// ``imageLimit`` offending commits). Not thread-safe: fed from the proxy's poll loop.
public final class HTMLReport {
    /// One commit on the timeline.
    struct Mark {
        let time: Double
        let commit: Int
        let kind: CommitRecord.Kind
        let content: CommitRecord.Content
        let changed: Int
        let under: Int
        let held: Bool
        let damagePixels: Int
    }

    /// An offending commit, with its images (PNG bytes, when the pixels were at hand).
    struct Offence {
        let record: CommitRecord
        /// The images' size and the damage drawn over them: buffer pixels, or surface pixels
        /// for a commit compared on the surface.
        let width: Int
        let height: Int
        let damage: [PixelRect]
        let before: [UInt8]?
        let after: [UInt8]?
        let difference: [UInt8]?
    }

    /// Offending commits that get images; the rest are listed without.
    public var imageLimit = 60
    /// Clean commits drawn per surface on the timeline (offending ones are always drawn).
    static let markLimit = 2000
    private var marks: [String: [Mark]] = [:]
    private var surfaceOrder: [String] = []
    private var roles: [String: String] = [:]
    private var offences: [Offence] = []
    private var imagesWritten = 0

    public init() {}

    /// Adds `record` (and, for an offending one, the pixels behind it).
    public func add(_ record: CommitRecord, _ evidence: CommitEvidence?) {
        let key = "client \(record.client) @\(record.surface)"
        if marks[key] == nil {
            surfaceOrder.append(key)
            marks[key] = []
        }
        roles[key] = record.role
        marks[key]?.append(Mark(
            time: record.time, commit: record.commit, kind: record.kind, content: record.content, changed: record.changedPixels,
            under: record.underDamagePixels, held: record.heldWrite, damagePixels: record.damagePixels))
        guard record.isOffending else { return }
        var images: (before: [UInt8]?, after: [UInt8]?, difference: [UInt8]?) = (nil, nil, nil)
        if let evidence, imagesWritten < imageLimit, evidence.current.width * evidence.current.height <= 4096 * 4096 {
            images = Self.images(evidence)
            imagesWritten += 1
        }
        offences.append(Offence(
            record: record, width: evidence?.current.width ?? record.width, height: evidence?.current.height ?? record.height,
            damage: evidence.map { record.comparedOnSurface ? $0.damage.rects : record.damage } ?? record.damage,
            before: images.before, after: images.after, difference: images.difference))
    }

    /// Before, after and difference PNGs: the difference shows unchanged pixels dimmed,
    /// changed pixels inside `evidence.damage` (the pixels whose change the compositor
    /// repaints, or never shows) green and changed pixels outside it magenta.
    static func images(_ evidence: CommitEvidence) -> (before: [UInt8]?, after: [UInt8]?, difference: [UInt8]?) {
        let (previous, current) = (evidence.previous, evidence.current)
        guard previous.isComparable(with: current),
            let before = try? Bitmap(width: previous.width, height: previous.height),
            let after = try? Bitmap(width: current.width, height: current.height),
            let difference = try? Bitmap(width: current.width, height: current.height)
        else { return (nil, nil, nil) }
        for y in 0..<current.height {
            for x in 0..<current.width {
                let old = previous.argb(x: x, y: y) | 0xff00_0000, new = current.argb(x: x, y: y) | 0xff00_0000
                before.setPixel(x: x, y: y, to: old)
                after.setPixel(x: x, y: y, to: new)
                difference.setPixel(x: x, y: y, to: Self.dim(new))
            }
        }
        _ = ContentComparison(previous: previous, current: current, damage: DamageRegion([], clippedTo: current.bounds)) { x, y in
            difference.setPixel(x: x, y: y, to: 0xff20_d040)
        }
        _ = ContentComparison(previous: previous, current: current, damage: evidence.damage) { x, y in
            difference.setPixel(x: x, y: y, to: 0xffff_00ff)
        }
        return (try? before.pngData(), try? after.pngData(), try? difference.pngData())
    }

    private static func dim(_ pixel: UInt32) -> UInt32 {
        let r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff
        let gray = (r * 30 + g * 59 + b * 11) / 100 / 3 + 40
        return 0xff00_0000 | gray << 16 | gray << 8 | gray
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The page, for `report`'s surfaces and `summary` (the text summary, shown too).
    public func html(report: InspectReport, summary: String, command: [String]) -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <title>damask-inspect report</title>
            <style>
            body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; background: #fafafa; }
            h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
            table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
            td.role, th.role { text-align: left; } tr.bad td { background: #fde4ec; }
            .verdict { font-size: 1.1em; padding: .4em .8em; display: inline-block; border-radius: 4px; }
            .clean { background: #d8f5dc; } .offending { background: #fbd0dc; }
            .offence { border: 1px solid #ddd; background: #fff; padding: .6em; margin: .8em 0; }
            .images { display: flex; gap: 1em; flex-wrap: wrap; }
            figure { margin: 0; } figcaption { font-size: .85em; color: #555; }
            .frame { position: relative; display: inline-block; line-height: 0; border: 1px solid #999; }
            .frame img { image-rendering: pixelated; display: block; }
            .frame svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
            .legend span { display: inline-block; width: .9em; height: .9em; vertical-align: middle; margin: 0 .3em 0 .8em; }
            pre { background: #fff; border: 1px solid #ddd; padding: .5em; overflow-x: auto; font-size: 12px; }
            </style></head><body>

            """
        let bad = report.offendingRecords
        page += "<h1>damask-inspect report</h1>\n<p>Client: <code>\(Self.escape(command.joined(separator: " ")))</code></p>\n"
        page += Self.verdict(report, offending: bad, checked: !marks.isEmpty)
        page += summaryTable(report)
        page += timeline()
        page += offenceSection()
        page += "<h2>Summary as printed</h2>\n<pre>\(Self.escape(summary))</pre>\n</body></html>\n"
        return page
    }

    /// The page's verdict: what the exit status says, in words. Offending commits, protocol
    /// errors and connection or output errors (exit 1 or 2) are red; a run that checked no
    /// commit (the client never connected, or committed nothing) says so instead of a clean
    /// verdict it did not earn.
    static func verdict(_ report: InspectReport, offending: Int, checked: Bool) -> String {
        var problems: [String] = []
        if offending > 0 { problems.append("\(offending) offending commit\(offending == 1 ? "" : "s"): under-damage or held-buffer writes.") }
        for (count, what) in [(report.protocolErrors.count, "protocol error"), (report.connectionErrors.count, "connection error"),
                              (report.outputErrors.count, "output error")] where count > 0 {
            problems.append("\(count) \(what)\(count == 1 ? "" : "s") (see the summary below).")
        }
        if !problems.isEmpty {
            return "<p class=\"verdict offending\" id=\"verdict\">\(problems.map(escape).joined(separator: "<br>"))</p>\n"
        }
        if report.neverConnected != nil {
            return "<p class=\"verdict\" id=\"verdict\">Nothing was checked: the client never connected to the inspector's Wayland socket.</p>\n"
        }
        if !checked {
            return "<p class=\"verdict\" id=\"verdict\">Nothing was checked: no surface committed.</p>\n"
        }
        return "<p class=\"verdict clean\" id=\"verdict\">No under-damage and no held-buffer writes.</p>\n"
    }

    private func summaryTable(_ report: InspectReport) -> String {
        var html = "<h2>Surfaces</h2>\n<table id=\"summary\"><tr><th>client</th><th>surface</th><th class=\"role\">role</th><th>commits</th><th>buffer</th><th>new</th><th>no-dmg</th><th>damage px med</th><th>under</th><th>under px</th><th>held writes</th></tr>\n"
        for s in report.surfaces where s.commits > 0 || s.heldWrites > 0 {
            let key = "client \(s.client) @\(s.surface)"
            let new = (marks[key] ?? []).filter { $0.kind == .buffer && $0.content == .new }.count
            let row = s.underDamageCommits > 0 || s.heldWrites > 0 ? " class=\"bad\"" : ""
            html += "<tr\(row)><td>\(s.client)</td><td>@\(s.surface)</td><td class=\"role\">\(Self.escape(s.role))</td><td>\(s.commits)</td><td>\(s.bufferCommits)</td><td>\(new)</td><td>\(s.damagelessCommits)</td><td>\(SurfaceSummary.median(s.damagePixels).map(String.init) ?? "-")</td><td>\(s.underDamageCommits)</td><td>\(s.underDamagePixels)</td><td>\(s.heldWrites)</td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// One SVG row per surface, a tick per commit at its time, coloured by what it found.
    private func timeline() -> String {
        let all = marks.values.flatMap { $0 }
        guard let first = all.map(\.time).min(), let last = all.map(\.time).max() else { return "" }
        let span = max(last - first, 0.001)
        let (width, rowHeight, label) = (900.0, 22.0, 260.0)
        let height = rowHeight * Double(surfaceOrder.count) + 24
        var svg = "<h2>Timeline</h2>\n<p class=\"legend\">Each mark is a commit:<span style=\"background:#3a9d4a\"></span>compared, clean<span style=\"background:#3b6fd1\"></span>new content<span style=\"background:#e0227a\"></span>under-damage<span style=\"background:#f08a00\"></span>held-buffer write<span style=\"background:#aaa\"></span>no buffer</p>\n"
        // Scales down to the page's width (text with it), never up.
        svg += "<svg id=\"timeline\" viewBox=\"0 0 \(Int(width + label + 20)) \(Int(height))\" style=\"width: 100%; max-width: \(Int(width + label + 20))px\" font-size=\"12\">\n"
        for (row, key) in surfaceOrder.enumerated() {
            let y = Double(row) * rowHeight + 4
            svg += "<text x=\"0\" y=\"\(y + 14)\">\(Self.escape("\(key) \(roles[key] ?? "")".prefix(40).description))</text>\n"
            svg += "<line x1=\"\(label)\" x2=\"\(label + width)\" y1=\"\(y + 10)\" y2=\"\(y + 10)\" stroke=\"#ddd\"/>\n"
            // A long run's row keeps every offending mark and at most `markLimit` of the rest,
            // evenly spaced, so the page stays small enough to open.
            let all = marks[key] ?? []
            let plain = all.filter { $0.under == 0 && !$0.held }
            let stride = max(1, (plain.count + Self.markLimit - 1) / Self.markLimit)
            var kept = 0
            let shown = all.filter { mark in
                guard mark.under == 0, !mark.held else { return true }
                defer { kept += 1 }
                return kept % stride == 0
            }
            if shown.count < all.count {
                svg += "<text class=\"thinned\" x=\"\(label + width)\" y=\"\(y + 24)\" text-anchor=\"end\" font-size=\"9\">\(all.count) commits, every \(stride)th clean one shown</text>\n"
            }
            for mark in shown {
                let x = label + (mark.time - first) / span * width
                let color: String
                if mark.held { color = "#f08a00" } else if mark.under > 0 { color = "#e0227a" } else if mark.kind != .buffer { color = "#aaa" } else if mark.content == .new { color = "#3b6fd1" } else { color = "#3a9d4a" }
                let tall = mark.under > 0 || mark.held
                svg += "<rect class=\"commit\" x=\"\(String(format: "%.1f", x - 1.5))\" y=\"\(tall ? y : y + 4)\" width=\"3\" height=\"\(tall ? 20 : 12)\" fill=\"\(color)\"><title>commit \(mark.commit) at \(String(format: "%.3f", mark.time)) s: \(mark.kind.rawValue), \(mark.content.rawValue), \(mark.changed) px changed, \(mark.damagePixels) px damaged, \(mark.under) px under-damaged\(mark.held ? ", held-buffer write" : "")</title></rect>\n"
            }
        }
        svg += "<text x=\"\(label)\" y=\"\(height - 4)\">\(String(format: "%.2f", first)) s</text><text x=\"\(label + width)\" y=\"\(height - 4)\" text-anchor=\"end\">\(String(format: "%.2f", last)) s</text>\n"
        return svg + "</svg>\n"
    }

    private func offenceSection() -> String {
        guard !offences.isEmpty else { return "<h2>Offending commits</h2>\n<p id=\"offences\">None.</p>\n" }
        var html = "<h2>Offending commits</h2>\n<p class=\"legend\">Difference:<span style=\"background:#e0e0e0\"></span>unchanged (dimmed)<span style=\"background:#20d040\"></span>changed and repainted (inside the damage, or never shown)<span style=\"background:#ff00ff\"></span>changed outside the damage (stale on screen)<span style=\"border:2px solid #00b4ff\"></span>declared damage</p>\n<div id=\"offences\">\n"
        for offence in offences {
            let r = offence.record
            var what: [String] = []
            if r.underDamagePixels > 0 {
                what.append("\(r.underDamagePixels) px changed outside the damage (bbox \(r.underDamageBounds.description)\(r.comparedOnSurface ? ", surface pixels" : ""))")
            }
            if r.heldWrite { what.append("the buffer was written while the compositor held it") }
            html += "<div class=\"offence\"><h3>client \(r.client) @\(r.surface) \(Self.escape(r.role)), commit \(r.commit) (\(String(format: "%.3f", r.time)) s)</h3>\n"
            if r.comparedOnSurface { what.append("compared on the surface after a geometry change: images and damage in surface pixels") }
            html += "<p>\(Self.escape(what.joined(separator: "; "))). Buffer \(r.width)×\(r.height) \(Self.escape(r.format)), \(r.changedPixels) px changed, damage in buffer pixels \(r.damage.map(\.description).joined(separator: " ")) (\(r.damagePixels) px).</p>\n"
            if let before = offence.before, let after = offence.after, let difference = offence.difference {
                let (width, height) = (offence.width, offence.height)
                let scale = max(1, min(8, 360 / max(1, width)))
                html += "<div class=\"images\">"
                for (caption, png) in [("before", before), ("after", after), ("difference", difference)] {
                    html += "<figure><div class=\"frame\"><img alt=\"\(caption)\" width=\"\(width * scale)\" height=\"\(height * scale)\" src=\"data:image/png;base64,\(Data(png).base64EncodedString())\">"
                    html += "<svg viewBox=\"0 0 \(width) \(height)\" preserveAspectRatio=\"none\">"
                    for rect in offence.damage {
                        html += "<rect class=\"damage\" x=\"\(rect.x)\" y=\"\(rect.y)\" width=\"\(rect.width)\" height=\"\(rect.height)\" fill=\"none\" stroke=\"#00b4ff\" stroke-width=\"2\" vector-effect=\"non-scaling-stroke\"/>"
                    }
                    html += "</svg></div><figcaption>\(caption)</figcaption></figure>"
                }
                html += "</div>\n"
            } else {
                html += "<p><em>No images: \(r.kind == .heldWrite ? "found at the buffer's release" : "past the image limit, or not at hand").</em></p>\n"
            }
            html += "</div>\n"
        }
        return html + "</div>\n"
    }
}
