import DamaskGraphics
import DamaskViews
import DamaskWayland
import Foundation

/// Test-client commands that change compositing properties of a box over the content and
/// write the window's pixels out, for the damage-pipeline tests:
///
///   box X Y W H        shows the box (a view without `draw`) with that frame
///   box-hidden 0|1     hides or shows it
///   box-alpha A        sets its alpha
///   box-color RRGGBB   sets its background colour
///   snapshot PATH      writes the presented buffer (what the compositor was given) as PNG
///   render PATH        writes a fresh offscreen render of the whole window as PNG
///
/// Main-actor; owned by the test client.
@MainActor
final class SceneCommands {
    private let box = View(frame: .zero)

    init(content: View) {
        box.backgroundColor = Color(hex: "#FFD700")!
        box.isHidden = true
        content.addSubview(box)
    }

    /// Runs `words` if they are one of these commands; false when they are not.
    func run(_ words: [String], window: Window, surface: WaylandSurface) -> Bool {
        let numbers = words.dropFirst().compactMap { Double($0) }
        switch (words.first, words.count) {
        case ("box", 5) where numbers.count == 4:
            box.frame = CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            box.isHidden = false
        case ("box-hidden", 2):
            box.isHidden = words[1] == "1"
        case ("box-alpha", 2) where numbers.count == 1:
            box.alpha = numbers[0]
        case ("box-color", 2):
            guard let color = Color(hex: "#" + words[1]) else { return false }
            box.backgroundColor = color
        case ("snapshot", 2):
            write(words[1]) { try surface.presentedBuffer?.bitmap.writePNG(to: $0) }
        case ("render", 2):
            write(words[1]) { try window.renderImage().writePNG(to: $0) }
        default:
            return false
        }
        return true
    }

    private func write(_ path: String, _ body: (String) throws -> Void) {
        do {
            try body(path)
            emit("wrote \(path)")
        } catch {
            emit("error cannot write \(path): \(error)")
        }
    }
}
