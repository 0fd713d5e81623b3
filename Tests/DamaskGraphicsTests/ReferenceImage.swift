import DamaskGraphics
import Foundation
import Testing

/// Compares rendered scenes with the committed PNGs in `References/`.
///
/// With `DAMASK_RECORD_REFERENCES=1` the actual image is written into the source
/// tree's `References/` directory instead (and the test passes). On a mismatch the
/// actual and difference images go to `test-output/` in the package root (or
/// `$DAMASK_TEST_OUTPUT`), and the failure message names both files.
enum ReferenceImage {
    /// The committed references in the source tree (for recording).
    static let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("References")

    static var outputDirectory: URL {
        if let custom = ProcessInfo.processInfo.environment["DAMASK_TEST_OUTPUT"] {
            return URL(fileURLWithPath: custom)
        }
        return sourceDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("test-output")
    }

    static var isRecording: Bool {
        ProcessInfo.processInfo.environment["DAMASK_RECORD_REFERENCES"] == "1"
    }

    /// Checks `bitmap` against `References/<name>.png`: at most `allowedPixels` pixels
    /// may differ by more than `tolerance` in some channel.
    static func check(
        _ bitmap: Bitmap, named name: String, tolerance: Int = 2, allowedPixels: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if isRecording {
            // Recording checks nothing, so it never passes: the run that records fails, and
            // the next run (without the variable) compares against what was recorded.
            let path = sourceDirectory.appendingPathComponent("\(name).png").path
            try bitmap.writePNG(to: path)
            Issue.record(
                "\(name): recorded \(path) (DAMASK_RECORD_REFERENCES=1); run again without it to check",
                sourceLocation: sourceLocation)
            return
        }
        let url = try #require(
            Bundle.module.url(forResource: "\(name)", withExtension: "png", subdirectory: "References"),
            "missing reference \(name).png; record it with DAMASK_RECORD_REFERENCES=1",
            sourceLocation: sourceLocation)
        let expected = try Bitmap(contentsOfPNGFile: url.path)
        let difference = Bitmap.difference(bitmap, expected, tolerance: tolerance)
        if difference.differingPixelCount > allowedPixels {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
            let actualPath = outputDirectory.appendingPathComponent("\(name)-actual.png").path
            let diffPath = outputDirectory.appendingPathComponent("\(name)-diff.png").path
            try bitmap.writePNG(to: actualPath)
            try difference.image.writePNG(to: diffPath)
            Issue.record(
                """
                \(name): \(difference.differingPixelCount) pixels differ by more than \(tolerance) \
                (max delta \(difference.maximumChannelDelta), allowed \(allowedPixels)); \
                actual: \(actualPath), difference: \(diffPath)
                """, sourceLocation: sourceLocation)
        }
    }
}
