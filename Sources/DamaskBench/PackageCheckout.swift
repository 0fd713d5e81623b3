import Foundation

/// Where the bench finds the package checkout it measures (its scripts, the released demo):
/// `DAMASK_ROOT`, the current directory, or the package this file was compiled from.
enum PackageCheckout {
    /// The candidate roots, in the order searched.
    static var roots: [String] {
        var roots: [String] = []
        if let root = ProcessInfo.processInfo.environment["DAMASK_ROOT"] { roots.append(root) }
        roots.append(FileManager.default.currentDirectoryPath)
        roots.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path)
        return roots
    }

    /// The first root that has an executable `scripts/NAME`.
    static func root(withScript name: String) -> URL? {
        roots.first { FileManager.default.isExecutableFile(atPath: $0 + "/scripts/" + name) }
            .map { URL(fileURLWithPath: $0) }
    }
}
