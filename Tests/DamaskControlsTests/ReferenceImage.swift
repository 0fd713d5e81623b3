import DamaskGraphics
import Foundation
import Testing

/// Compares rendered controls with the committed PNGs in `Tests/ControlReferences/`
/// (outside the test target, so that it needs no resources).
///
/// With `DAMASK_RECORD_REFERENCES=1` the actual image is written there instead, and the
/// test fails on purpose (recording checks nothing); the next run compares. On a mismatch
/// the actual and difference images go to `test-output/` in the package root (or
/// `$DAMASK_TEST_OUTPUT`) and the failure names both.
enum ReferenceImage {
    static let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ControlReferences")

    static var outputDirectory: URL {
        if let custom = ProcessInfo.processInfo.environment["DAMASK_TEST_OUTPUT"] {
            return URL(fileURLWithPath: custom)
        }
        return sourceDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-output")
    }

    static var isRecording: Bool {
        ProcessInfo.processInfo.environment["DAMASK_RECORD_REFERENCES"] == "1"
    }

    /// Checks `bitmap` against `References/<name>.png`: at most `allowedPixels` pixels may
    /// differ by more than `tolerance` in some channel.
    static func check(
        _ bitmap: Bitmap, named name: String, tolerance: Int = 2, allowedPixels: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = sourceDirectory.appendingPathComponent("\(name).png").path
        if isRecording {
            try FileManager.default.createDirectory(at: sourceDirectory, withIntermediateDirectories: true)
            try bitmap.writePNG(to: path)
            Issue.record(
                "\(name): recorded \(path) (DAMASK_RECORD_REFERENCES=1); run again without it to check",
                sourceLocation: sourceLocation)
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing reference \(path); record it with DAMASK_RECORD_REFERENCES=1", sourceLocation: sourceLocation)
            return
        }
        let expected = try Bitmap(contentsOfPNGFile: path)
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
