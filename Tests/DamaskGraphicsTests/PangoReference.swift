import DamaskGraphics
import Foundation
import Testing
import DamaskTestSupport

/// Renders reference lines with Pango + cairo (through `pango-render.py` next to this
/// file, run by the system's /usr/bin/python3 with python3-gi, python3-gi-cairo and
/// gir1.2-pango-1.0, all installed by scripts/setup) and compares Damask's ink with them.
enum PangoReference {
    /// The renderer script in the source tree.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("pango-render.py").path

    /// The result of rendering one line with Pango.
    struct Rendering {
        /// The image (black text on transparent).
        var bitmap: Bitmap
        /// The font family of every Pango run, in visual order.
        var families: [String]
    }

    /// Renders `text` in `family` at `size` pixels per em into a `width`×`height` image
    /// with the baseline starting at `origin`. Throws when python or Pango is missing
    /// (the test then fails with the reason; it is never skipped).
    static func render(
        _ text: String, family: String, size: CGFloat, width: Int, height: Int, origin: CGPoint
    ) throws -> Rendering {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-pango-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            script, output.path, family, "\(size)", "\(width)", "\(height)", "\(origin.x)", "\(origin.y)", text,
        ]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.killIfRunning(after: 120)
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        guard process.waitUntilExit(timeout: 10) else { throw ReferenceError("pango-render.py did not end") }
        guard process.terminationStatus == 0 else {
            throw ReferenceError(
                "pango-render.py exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))")
        }
        let families = String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init)
        return Rendering(bitmap: try Bitmap(contentsOfPNGFile: output.path), families: families)
    }

    /// Why a reference could not be made.
    struct ReferenceError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// How two renderings of one line differ.
    struct InkComparison: CustomStringConvertible {
        /// Total coverage (sum of alpha / 255) of each image.
        var inkA: Double, inkB: Double
        /// Mean |alpha difference| / 255 over the pixels either image inks.
        var meanDifference: Double
        /// Mean |difference| of the column ink profiles (each column's summed coverage),
        /// relative to the mean column ink: where along the line the ink sits.
        var profileDifference: Double
        /// The first and last inked columns of each image.
        var extentA: ClosedRange<Int>?, extentB: ClosedRange<Int>?

        var inkRatio: Double { inkB > 0 ? inkA / inkB : .infinity }

        var description: String {
            String(
                format: "ink %.1f vs %.1f (ratio %.3f), mean difference %.3f, profile difference %.3f, extents %@ vs %@",
                inkA, inkB, inkRatio, meanDifference, profileDifference,
                extentA.map { "\($0)" } ?? "none", extentB.map { "\($0)" } ?? "none")
        }
    }

    /// Compares the alpha (ink) of two same-sized images.
    static func compareInk(_ a: Bitmap, _ b: Bitmap) -> InkComparison {
        var inkA = 0.0, inkB = 0.0, difference = 0.0, inked = 0
        var columnsA = [Double](repeating: 0, count: a.width), columnsB = [Double](repeating: 0, count: a.width)
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let alphaA = Double(a.pixel(x: x, y: y) >> 24) / 255, alphaB = Double(b.pixel(x: x, y: y) >> 24) / 255
                inkA += alphaA
                inkB += alphaB
                columnsA[x] += alphaA
                columnsB[x] += alphaB
                if alphaA > 0 || alphaB > 0 {
                    inked += 1
                    difference += abs(alphaA - alphaB)
                }
            }
        }
        func extent(_ columns: [Double]) -> ClosedRange<Int>? {
            guard let first = columns.firstIndex(where: { $0 > 0.2 }), let last = columns.lastIndex(where: { $0 > 0.2 })
            else { return nil }
            return first...last
        }
        // Profiles smoothed over 3 columns, so a sub-pixel shift does not count as a miss.
        func smooth(_ columns: [Double]) -> [Double] {
            columns.indices.map { x in (max(x - 1, 0)...min(x + 1, columns.count - 1)).reduce(0) { $0 + columns[$1] } / 3 }
        }
        let smoothA = smooth(columnsA), smoothB = smooth(columnsB)
        let meanColumn = max((inkA + inkB) / 2 / Double(max(a.width, 1)), 1e-9)
        let profile = zip(smoothA, smoothB).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(max(a.width, 1)) / meanColumn
        return InkComparison(
            inkA: inkA, inkB: inkB, meanDifference: inked > 0 ? difference / Double(inked) : 0,
            profileDifference: profile, extentA: extent(columnsA), extentB: extent(columnsB))
    }

    /// Writes `images` to the test output directory (for looking at a failure) and
    /// returns their paths.
    static func save(_ images: [(String, Bitmap)]) -> [String] {
        let directory = ReferenceImage.outputDirectory
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return images.compactMap { name, bitmap in
            let path = directory.appendingPathComponent("\(name).png").path
            return (try? bitmap.writePNG(to: path)) == nil ? nil : path
        }
    }
}
