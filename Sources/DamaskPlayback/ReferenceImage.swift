import DamaskGraphics
import Foundation

/// Checks that a reference PNG for `expect image` can be used.
enum ReferenceImage {
    /// Why the PNG at `path` cannot be used, or nil if it can.
    static func problem(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
        }
        defer { try? handle.close() }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard let head = try? handle.read(upToCount: 8), Array(head) == signature else {
            return "not a PNG file"
        }
        do {
            _ = try Bitmap(contentsOfPNGFile: path)
        } catch {
            return "\(error)"
        }
        return nil
    }
}
