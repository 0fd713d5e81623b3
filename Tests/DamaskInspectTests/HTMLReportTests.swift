@testable import DamaskInspect
import DamaskGraphics
import Foundation
import Testing

/// The `--report` page without a browser: self-contained, escaped, and holding what it
/// promises (the rendered page is checked in Chromium by InspectHTMLReportTests).
@Suite("HTML report page", .timeLimit(.minutes(5)))
struct HTMLReportTests {
    @Test("One offending commit: a summary row, a timeline mark per commit, three inline PNGs with the damage drawn over each, and nothing fetched from anywhere")
    func pageIsSelfContained() throws {
        let html = HTMLReport()
        let summary = InspectReport()
        var first = CommitRecord(kind: .buffer, time: 0.5, client: 1, surface: 3, role: #"toplevel "<b>&x""#, commit: 1)
        first.content = .new
        var second = CommitRecord(kind: .buffer, time: 1.0, client: 1, surface: 3, role: #"toplevel "<b>&x""#, commit: 2)
        (second.content, second.width, second.height, second.format) = (.compared, 4, 2, "xrgb8888")
        (second.changedPixels, second.underDamagePixels) = (2, 1)
        second.damage = [PixelRect(x: 0, y: 0, width: 1, height: 1)]
        let before = ContentSnapshot(width: 4, height: 2, format: BufferFormat(code: 1), bytes: [UInt8](repeating: 0x80, count: 32))
        var bytes = before.bytes
        bytes[0] = 0; bytes[12] = 0  // pixels (0, 0) and (3, 0) change
        let after = ContentSnapshot(width: 4, height: 2, format: BufferFormat(code: 1), bytes: bytes)
        let evidence = CommitEvidence(previous: before, current: after, damage: DamageRegion(second.damage, clippedTo: after.bounds))
        for (record, pixels) in [(first, nil), (second, evidence)] as [(CommitRecord, CommitEvidence?)] {
            summary.add(record)
            html.add(record, pixels)
        }
        let page = html.html(report: summary, summary: "the summary <text>", command: ["client", "--flag"])
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("1 offending commit:"))
        #expect(page.components(separatedBy: "<tr").count - 1 == 2)  // header and one surface
        #expect(page.components(separatedBy: "class=\"commit\"").count - 1 == 2)
        #expect(page.components(separatedBy: "src=\"data:image/png;base64,").count - 1 == 3)
        #expect(page.components(separatedBy: "<rect class=\"damage\" x=\"0\" y=\"0\" width=\"1\" height=\"1\"").count - 1 == 3)
        // Escaped: the client's title cannot inject markup.
        #expect(page.contains("toplevel &quot;&lt;b&gt;&amp;x&quot;"))
        #expect(!page.contains("<b>&x"))
        #expect(page.contains("the summary &lt;text&gt;"))
        // Self-contained: no script, no URL but data: ones, a policy forbidding any fetch.
        #expect(!page.contains("<script"))
        #expect(!page.contains("http:") && !page.contains("https:"))
        #expect(!page.contains("url("))
        #expect(page.contains("default-src 'none'; img-src data:"))
    }

    @Test("The verdict says what the exit status says: a protocol or connection error is not a clean run, and a run that checked nothing says so")
    func verdictFollowsTheExitStatus() throws {
        func verdict(_ prepare: (InspectReport, HTMLReport) -> Void) -> String {
            let (summary, html) = (InspectReport(), HTMLReport())
            prepare(summary, html)
            let page = html.html(report: summary, summary: "", command: ["client"])
            return page.components(separatedBy: "id=\"verdict\">").dropFirst().first?.components(separatedBy: "</p>").first ?? ""
        }
        var clean = CommitRecord(kind: .buffer, time: 0.5, client: 1, surface: 3, role: "toplevel", commit: 1)
        clean.content = .new
        #expect(verdict { $0.add(clean); $1.add(clean, nil) } == "No under-damage and no held-buffer writes.")
        let protocolError = verdict { summary, html in
            summary.add(clean)
            html.add(clean, nil)
            summary.protocolError("wl_shm@4.create_pool: file descriptor expected")
        }
        #expect(protocolError == "1 protocol error (see the summary below).")
        #expect(verdict { summary, _ in summary.connectionError("no compositor") }.hasPrefix("1 connection error"))
        #expect(verdict { _, _ in } == "Nothing was checked: no surface committed.")
        #expect(verdict { summary, _ in summary.neverConnected = "" }.hasPrefix("Nothing was checked: the client never connected"))
    }

    @Test("The difference image marks changed pixels outside the damage magenta and inside it green")
    func differenceImageColours() throws {
        let before = ContentSnapshot(width: 2, height: 1, format: BufferFormat(code: 1), bytes: [0, 0, 0, 0, 0, 0, 0, 0])
        let after = ContentSnapshot(width: 2, height: 1, format: BufferFormat(code: 1), bytes: [255, 0, 0, 0, 255, 0, 0, 0])
        let images = HTMLReport.images(CommitEvidence(previous: before, current: after, damage: DamageRegion([PixelRect(x: 0, y: 0, width: 1, height: 1)], clippedTo: after.bounds)))
        let png = try #require(images.difference)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-html-\(getpid()).png").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(png)))
        defer { unlink(path) }
        let bitmap = try Bitmap(contentsOfPNGFile: path)
        #expect(bitmap.pixel(x: 0, y: 0) == 0xff20_d040)
        #expect(bitmap.pixel(x: 1, y: 0) == 0xffff_00ff)
    }

    @Test("--report FILE and --report=FILE set the report's path; an empty one is a usage error")
    func reportOption() throws {
        #expect(try InspectOptions(arguments: ["--report", "r.html", "client"]).reportPath == "r.html")
        #expect(try InspectOptions(arguments: ["--report=r.html", "--", "client"]).reportPath == "r.html")
        #expect(throws: InspectError.self) { try InspectOptions(arguments: ["--report=", "client"]) }
    }

    @Test("A long run's timeline keeps every offending commit and thins the clean ones to the limit, saying so")
    func longTimelineIsThinned() {
        let html = HTMLReport()
        let summary = InspectReport()
        for commit in 1...10_000 {
            var record = CommitRecord(kind: .buffer, time: Double(commit) / 60, client: 1, surface: 3, role: "toplevel", commit: commit)
            record.content = commit == 1 ? .new : .compared
            if commit == 5_001 { record.underDamagePixels = 3 }
            summary.add(record)
            html.add(record, nil)
        }
        let page = html.html(report: summary, summary: "", command: ["c"])
        let marks = page.components(separatedBy: "class=\"commit\"").count - 1
        #expect(marks <= HTMLReport.markLimit + 1)
        #expect(marks >= HTMLReport.markLimit / 2)
        #expect(page.contains("commit 5001 at"))
        #expect(page.contains("10000 commits, every 5th clean one shown"))
    }
}
