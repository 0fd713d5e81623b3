import DamaskTestSupport
import Foundation
import Testing

/// The demo on a private headless mutter (GNOME), which releases buffers at once, offers no
/// server-side decorations and activates the window after its first frame.
@Suite("damask-demo under GNOME", .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoGnomeTests {
    @Test("the tour plays under headless mutter with every expectation holding")
    func tourPlaysUnderGnome() throws {
        let mutter = try PrivateCompositor(.gnome())
        defer { mutter.stop() }
        let run = try DemoRun.run(
            ["--play", DemoRun.tourPath, "--speed", "fast"], environment: mutter.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.commits.count > 20)
    }
}
