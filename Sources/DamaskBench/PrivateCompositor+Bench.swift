import DamaskProcess
import Foundation

/// What the bench asks of its compositor: DamaskProcess's ``PrivateCompositor``, a private
/// headless Weston started through `scripts/with-weston` of the checkout the bench measures
/// (``PackageCheckout``), with its failures as bench errors.
extension PrivateCompositor {
    /// Starts headless Weston with an output of `size` (e.g. `1920x1080`), with the pixman
    /// renderer or, when `glRenderer`, the GL one; with `seat`, Weston also has a seat with a
    /// pointer and a keyboard, which some clients (foot) need to start; `environment` is
    /// Weston's (default: this process's; the seat module reads its keys from it).
    ///
    /// - Throws: `BenchError.helper` when the script is missing or Weston does not start.
    static func benchWeston(
        size: String, glRenderer: Bool = false, seat: Bool = false, environment: [String: String]? = nil
    ) throws -> PrivateCompositor {
        guard let root = PackageCheckout.root(withScript: "with-weston") else {
            throw BenchError.helper("scripts/with-weston not found (run from the package root or set DAMASK_ROOT)")
        }
        do {
            return try PrivateCompositor(
                .weston(size: size, seat: seat, glRenderer: glRenderer), environment: environment, packageRoot: root)
        } catch {
            throw BenchError.helper("weston did not start (is it installed? scripts/setup): \(error)")
        }
    }

    /// How many lines of Weston's log contain `text` (e.g. `wl_surface@3.commit()`).
    func logLineCount(containing text: String) -> Int {
        logLines(containing: text).count
    }
}
