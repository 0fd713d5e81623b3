import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// `damask-inspect --report FILE.html` rendered the way people will look at it: in headless
/// Chromium (Debian's `chromium`, installed by scripts/setup), from a run of the known-answer
/// cases (Tests/InspectClients/surface-states.c) under Weston.
@Suite("damask-inspect HTML report in Chromium", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct InspectHTMLReportTests {
    static let chromium = "/usr/bin/chromium"

    /// Runs headless Chromium on `page` with `arguments`; returns its standard output.
    static func chromium(_ arguments: [String], page: String, profile: String) throws -> String {
        let result = try PrivateCompositor.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile)",
            "--no-first-run", "--disable-background-networking", "--window-size=1280,2400",
        ] + arguments + ["file://\(page)"], environment: ProcessInfo.processInfo.environment.merging(["HOME": profile]) { $1 }, timeout: 120)
        guard result.status == 0 else { throw CompositorError.didNotStart("chromium: \(result.output)") }
        return result.output
    }

    @Test("The page Chromium renders has the summary table, a timeline mark per commit, the offending commits with before/after/difference images and the damage drawn over them; its screenshot shows the verdict and the magenta of stale pixels")
    func reportRendersInChromium() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.chromium), "chromium is missing: run scripts/setup")
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("surface-states")
        defer { unlink(client) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = "\(directory)/report.html"
        let run = try InspectRun.run([client, "cases"], options: ["--report", page], environment: weston.clientEnvironment, timeout: 120)
        defer { run.removeDirectory() }
        #expect(run.status == 1, "\(run.output)")
        let records = run.records
        let offending = records.filter { ($0["under_damage_px"] as? Int ?? 0) > 0 || $0["held_write"] as? Bool == true }
        // Images for every offending commit (in surface pixels for those compared on the
        // surface after a geometry change), not for held writes found at a release.
        let withImages = offending.filter { $0["kind"] as? String == "buffer" }

        let dom = try Self.chromium(["--dump-dom"], page: page, profile: "\(directory)/profile")
        #expect(dom.contains("\(offending.count) offending commits"), "\(dom.prefix(3000))")
        let surfaces = Set(records.map { "\($0["surface"] ?? "")" })
        #expect(dom.components(separatedBy: "<tr").count - 1 == surfaces.count + 1)
        #expect(dom.components(separatedBy: "class=\"commit\"").count - 1 == records.count)
        #expect(dom.components(separatedBy: "class=\"offence\"").count - 1 == offending.count)
        #expect(dom.components(separatedBy: "src=\"data:image/png;base64,").count - 1 == 3 * withImages.count)
        #expect(dom.contains("<rect class=\"damage\""))
        #expect(!dom.contains("http:") && !dom.contains("https:") && !dom.contains("<script"))

        let screenshot = "\(directory)/report.png"
        _ = try Self.chromium(["--screenshot=\(screenshot)"], page: page, profile: "\(directory)/profile")
        let image = try Bitmap(contentsOfPNGFile: screenshot)
        #expect(image.width == 1280 && image.height == 2400)
        var magenta = 0, verdict = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                switch image.pixel(x: x, y: y) {
                case 0xffff_00ff: magenta += 1
                case 0xfffb_d0dc: verdict += 1
                default: break
                }
            }
        }
        // The first offence (invalid damage): its 10×10 stale square, drawn 5× larger.
        #expect(magenta >= 50 * 50, "magenta pixels: \(magenta)")
        #expect(verdict > 1000, "verdict background pixels: \(verdict)")
    }
}
