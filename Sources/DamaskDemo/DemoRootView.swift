import DamaskGraphics
import DamaskViews
import Foundation

/// The window's content: the sidebar, the current scene and the statistics overlay, and
/// the keys that work everywhere (1–9 scenes, `D` damage flashing, `S` statistics,
/// Ctrl+Q quit).
///
/// It is the window's default first responder: whenever no text field holds the focus
/// (after Escape, Return, or a click outside the field), keys arrive here and scene keys
/// (arrows, `+`, `-`, …) go on to the current scene. Main-actor.
final class DemoRootView: View {
    /// Every scene, in sidebar order.
    let scenes: [DemoScene]
    /// The sidebar.
    let sidebar: SidebarView
    /// The statistics overlay.
    let statsOverlay: StatsOverlayView
    /// Called for Ctrl+Q.
    var onQuit: @MainActor () -> Void = {}
    /// The scene shown now.
    private(set) var currentScene: DemoScene

    /// Creates the root view showing `scenes[0]`.
    init(frame: CGRect, scenes: [DemoScene], environment: DemoEnvironment) {
        precondition(!scenes.isEmpty, "the demo needs a scene")
        self.scenes = scenes
        self.currentScene = scenes[0]
        sidebar = SidebarView(
            frame: CGRect(x: 0, y: 0, width: DemoStyle.sidebarWidth, height: frame.height),
            titles: scenes.map(\.sidebarTitle))
        statsOverlay = StatsOverlayView(frame: CGRect(x: 0, y: 8, width: 230, height: 64), environment: environment)
        super.init(frame: frame)
        backgroundColor = DemoStyle.windowBackground
        addSubview(sidebar)
        addSubview(currentScene)
        addSubview(statsOverlay)
        sidebar.onSelect = { [weak self] index in self?.showScene(at: index) }
    }

    override func layoutSubviews() {
        sidebar.frame = CGRect(x: 0, y: 0, width: DemoStyle.sidebarWidth, height: bounds.height)
        currentScene.frame = CGRect(
            x: DemoStyle.sidebarWidth, y: 0, width: max(1, bounds.width - DemoStyle.sidebarWidth),
            height: bounds.height)
        statsOverlay.frame = CGRect(x: bounds.width - 238, y: bounds.height - 72, width: 230, height: 64)
    }

    /// Returns the scene called `name`, if any.
    func scene(named name: String) -> DemoScene? {
        scenes.first { $0.name == name }
    }

    /// Shows the scene at `index` (no-op if it is shown already).
    func showScene(at index: Int) {
        guard scenes.indices.contains(index), scenes[index] !== currentScene else { return }
        currentScene.sceneWillDisappear()
        currentScene.removeFromSuperview()
        currentScene = scenes[index]
        insertSubview(currentScene, belowSubview: statsOverlay)
        sidebar.selectedIndex = index
        setNeedsLayout()
        layoutIfNeeded()
        becomeFirstResponder()
        currentScene.sceneDidAppear()
    }

    override var canBecomeFirstResponder: Bool { true }

    override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        if event.modifiers.contains(.control), event.keysym == 0x71 || event.keysym == 0x51 {
            onQuit()
            return
        }
        if event.modifiers.intersection(commandKeys).isEmpty {
            switch event.keysym {
            case 0x31...0x39:
                showScene(at: Int(event.keysym - 0x31))
                return
            case 0x64, 0x44:
                window?.flashesDamage.toggle()
                return
            case 0x73, 0x53:
                statsOverlay.isHidden.toggle()
                return
            default:
                break
            }
        }
        if currentScene.handleKey(event) { return }
        super.keyDown(event)
    }
}
