import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// What a window tells its surface is opaque (``OpaqueArea``): only what is certain.
extension ViewsTests {
    @Suite("Opaque area", .shared, .timeLimit(.minutes(5))) @MainActor struct OpaqueAreaRules {
        @Test("A window with its default opaque background is opaque everywhere")
        func defaultWindowIsOpaqueEverywhere() async {
            let h = Harness(width: 100, height: 80)
            await nextTurn()
            #expect(h.surface.opaqueRegion == Region(CGRect(x: 0, y: 0, width: 100, height: 80)))
        }

        @Test("With a clear window, an opaque view counts; translucent, rounded, rotated and hidden ones do not")
        func onlyCertainlyOpaqueLayersCount() async {
            let h = Harness(width: 100, height: 80)
            h.window.backgroundColor = .clear
            h.root.backgroundColor = nil
            let opaque = View(frame: CGRect(x: 10, y: 10, width: 30, height: 20))
            opaque.backgroundColor = .blue
            let translucent = View(frame: CGRect(x: 50, y: 10, width: 20, height: 20))
            translucent.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
            let rounded = View(frame: CGRect(x: 50, y: 40, width: 20, height: 20))
            rounded.backgroundColor = .blue
            rounded.layer.cornerRadius = 4
            let rotated = View(frame: CGRect(x: 10, y: 40, width: 20, height: 20))
            rotated.backgroundColor = .blue
            rotated.layer.transform = CGAffineTransform(rotationAngle: 0.3)
            let faded = View(frame: CGRect(x: 75, y: 40, width: 20, height: 20))
            faded.alpha = 0.5
            let child = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            child.backgroundColor = .blue
            faded.addSubview(child)
            let hidden = View(frame: CGRect(x: 75, y: 10, width: 20, height: 20))
            hidden.backgroundColor = .blue
            hidden.isHidden = true
            for view in [opaque, translucent, rounded, rotated, faded, hidden] { h.root.addSubview(view) }
            await nextTurn()
            #expect(h.surface.opaqueRegion == Region(CGRect(x: 10, y: 10, width: 30, height: 20)))
        }

        @Test("An ancestor that masks to its bounds clips the opaque area; fractional edges round inwards")
        func maskingClipsAndEdgesRoundInwards() async {
            let h = Harness(width: 100, height: 80)
            h.window.backgroundColor = .clear
            h.root.backgroundColor = nil
            let clip = View(frame: CGRect(x: 0, y: 0, width: 40.5, height: 30))
            clip.clipsToBounds = true
            let wide = View(frame: CGRect(x: 10.25, y: 5, width: 60, height: 10))
            wide.backgroundColor = .blue
            clip.addSubview(wide)
            h.root.addSubview(clip)
            await nextTurn()
            #expect(h.surface.opaqueRegion == Region(CGRect(x: 11, y: 5, width: 29, height: 10)))
        }
    }
}
