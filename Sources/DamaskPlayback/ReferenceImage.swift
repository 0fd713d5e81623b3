import DamaskGraphics
import Foundation

/// Reads a reference PNG for `expect image`, once, when the script is parsed.
enum ReferenceImage {
    /// Why a reference image cannot be used, worded for a script error.
    struct Problem: Error {
        var description: String
    }

    /// The decoded image at `path`, or why it cannot be used.
    static func decode(at path: String) -> Result<DecodedImage, Problem> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(Problem(
                description: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"))
        }
        defer { try? handle.close() }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard let head = try? handle.read(upToCount: 8), Array(head) == signature else {
            return .failure(Problem(description: "not a PNG file"))
        }
        do {
            return .success(DecodedImage(try Bitmap(contentsOfPNGFile: path)))
        } catch {
            return .failure(Problem(description: "\(error)"))
        }
    }
}
