import DamaskControls
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
    /// Every scene's entry, in sidebar order.
    let sceneEntries: [DemoSceneEntry]
    /// What the scenes are made with.
    private let environment: DemoEnvironment
    /// The scenes made so far, by index in ``sceneEntries`` (nil: not shown yet).
    private var madeScenes: [DemoScene?]
    /// The sidebar.
    let sidebar: SidebarView
    /// The statistics overlay.
    let statsOverlay: StatsOverlayView
    /// Whether the damage log writes each commit's CPU time (set by the application).
    var damageLogRecordsCPUTime = false
    /// Whether the window should measure each pass's CPU time: only while the overlay
    /// shows it or the damage log records it (the clock costs two system calls a pass).
    var measuresCommitCPUTime: Bool { !statsOverlay.isHidden || damageLogRecordsCPUTime }
    /// Called for Ctrl+Q.
    var onQuit: @MainActor () -> Void = {}
    /// The scene shown now.
    private(set) var currentScene: DemoScene
    /// The background follows the appearance while this is held.
    private var appearanceObservation: AppearanceObservation?
    /// The index of ``currentScene`` in ``sceneEntries``.
    private(set) var currentIndex: Int

    /// Creates the root view showing the scene at `initialIndex` (clamped to the entries),
    /// the only scene made until another is shown.
    init(frame: CGRect, scenes: [DemoSceneEntry], showing initialIndex: Int = 0, environment: DemoEnvironment) {
        precondition(!scenes.isEmpty, "the demo needs a scene")
        let index = min(max(0, initialIndex), scenes.count - 1)
        sceneEntries = scenes
        self.environment = environment
        let first = scenes[index].make(environment)
        madeScenes = scenes.indices.map { $0 == index ? first : nil }
        currentScene = first
        currentIndex = index
        sidebar = SidebarView(
            frame: CGRect(x: 0, y: 0, width: DemoStyle.sidebarWidth, height: frame.height),
            titles: scenes.map(\.sidebarTitle))
        statsOverlay = StatsOverlayView(frame: CGRect(x: 0, y: 8, width: 230, height: 64), environment: environment)
        super.init(frame: frame)
        backgroundColor = DemoStyle.windowBackground
        appearanceObservation = Appearance.observe { [weak self] _ in
            self?.backgroundColor = DemoStyle.windowBackground
            self?.window?.backgroundColor = DemoStyle.windowBackground
        }
        addSubview(sidebar)
        addSubview(currentScene)
        addSubview(statsOverlay)
        sidebar.selectedIndex = index
        sidebar.onSelect = { [weak self] index in self?.showScene(at: index) }
    }

    override func layoutSubviews() {
        sidebar.frame = CGRect(x: 0, y: 0, width: DemoStyle.sidebarWidth, height: bounds.height)
        currentScene.frame = CGRect(
            x: DemoStyle.sidebarWidth, y: 0, width: max(1, bounds.width - DemoStyle.sidebarWidth),
            height: bounds.height)
        statsOverlay.frame = CGRect(x: bounds.width - 238, y: bounds.height - 72, width: 230, height: 64)
    }

    /// Returns the scene called `name` (made now if it was not yet), if there is one.
    func scene(named name: String) -> DemoScene? {
        sceneEntries.firstIndex { $0.name == name }.map(scene(at:))
    }

    /// The scene at `index` in ``sceneEntries``, made on first use.
    func scene(at index: Int) -> DemoScene {
        if let scene = madeScenes[index] { return scene }
        var environment = environment
        if let window { environment.displayScale = window.scale }
        let scene = sceneEntries[index].make(environment)
        madeScenes[index] = scene
        return scene
    }

    /// How many scenes have been made so far.
    var madeSceneCount: Int { madeScenes.lazy.compactMap { $0 }.count }

    /// Shows the scene at `index` (no-op if it is shown already or out of range).
    func showScene(at index: Int) {
        guard sceneEntries.indices.contains(index), index != currentIndex else { return }
        currentScene.sceneWillDisappear()
        currentScene.removeFromSuperview()
        currentScene = scene(at: index)
        currentIndex = index
        insertSubview(currentScene, belowSubview: statsOverlay)
        sidebar.selectedIndex = index
        setNeedsLayout()
        layoutIfNeeded()
        // Keys come here again, unless the sidebar has keyboard focus (its arrow keys
        // changed the scene: focus stays for the next arrow).
        if window?.focusedView !== sidebar { becomeFirstResponder() }
        currentScene.sceneDidAppear()
    }

    override var canBecomeFirstResponder: Bool { true }

    override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        // Shortcuts match the key's Latin keysym, so they work on ru, el, ara… as on us.
        let key = event.shortcutKeysym
        if event.modifiers.contains(.control), key == 0x71 || key == 0x51 {
            onQuit()
            return
        }
        if event.modifiers.intersection(commandKeys).isEmpty {
            switch key {
            case 0x31...0x39:
                showScene(at: Int(key - 0x31))
                return
            case 0x64, 0x44:
                window?.flashesDamage.toggle()
                return
            case 0x73, 0x53:
                statsOverlay.isHidden.toggle()
                window?.measuresCommitCPUTime = measuresCommitCPUTime
                return
            default:
                break
            }
        }
        if currentScene.handleKey(event) { return }
        super.keyDown(event)
    }
}
