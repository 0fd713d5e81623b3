/// One row of the demo's scene list: the scene's name and sidebar title, and how to make
/// it. Scenes are made when first shown (``DemoRootView/scene(at:)``), so start-up builds
/// only the first one: the text scene alone asks fontconfig for fallback fonts in six
/// scripts when it is made.
///
/// `name` and `sidebarTitle` equal the made scene's own: the tour shows every scene by
/// its entry's name and its screenshots are named by the scene's, so the tour test catches
/// a mismatch of names. Main-actor, like the scenes it makes.
@MainActor
struct DemoSceneEntry {
    /// The name used by `--scene`, the `scene` script command and screenshot files.
    let name: String
    /// The row title in the sidebar.
    let sidebarTitle: String
    /// Makes the scene.
    let make: @MainActor (DemoEnvironment) -> DemoScene
}
