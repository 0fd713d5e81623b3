import CDamaskShims
import DamaskAccessibility
import DamaskControls
import DamaskWayland
import Foundation

// damask-demo: the Damask demo application. See `damask-demo --help`.

// A closed stdout or stderr pipe must end in an error return from write(2), not a signal.
signal(SIGPIPE, SIG_IGN)

// Window-sized temporaries (a view's trial backing store, decoded images) are returned to the
// system when freed: with glibc's default dynamic threshold, the first such free raises the
// mmap threshold and every later one is carved from the heap, which keeps its high-water mark
// (about 1.2 MiB of the demo's settled RSS; docs/performance.md, "Start-up and memory").
_ = damask_set_malloc_mmap_threshold(128 * 1024)

let options: DemoOptions
do {
    options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    DemoApplication.fail(with: "\(error)", status: (error as? DemoError)?.exitStatus ?? 2)
}
if options.showHelp {
    print(DemoOptions.help)
    print()
    print(TextScene.fontReport)
    exit(0)
}

// A fixed appearance is set before the first scene is made.
if let appearance = options.appearance { Appearance.current = appearance }
CaretBlinking.isEnabled = options.caretBlinks
let application = DemoApplication(options: options)
do {
    try application.start()
} catch let error as WaylandError {
    DemoApplication.fail(with: error.description, status: error.exitStatus)
} catch let error as DemoError {
    DemoApplication.fail(with: error.description, status: error.exitStatus)
} catch {
    DemoApplication.fail(with: "\(error)", status: 1)
}
// On the accessibility bus while an assistive technology listens (docs/accessibility.md);
// its sockets are polled with the Wayland socket, on the main thread.
let accessibility = AccessibilityBridge(
    applicationName: "damask-demo",
    watcher: DescriptorWatcher { descriptor, handler in
        let watch = MainLoop.shared.watch(descriptor, handler: handler)
        return { watch.cancel() }
    })
// After what start() queued (the first display pass): its connect to the session bus, a
// round trip of about a millisecond, does not delay the first frame.
Task { @MainActor in accessibility.start() }
// The desktop's light or dark setting, followed live (docs/controls.md): not headless (its
// playback is deterministic) nor with a fixed --appearance. No session bus or no portal:
// the demo stays light.
var colorSchemeMonitor: DesktopColorSchemeMonitor?
if options.appearance == nil, !options.headless {
    Task { @MainActor in
        colorSchemeMonitor = try? DesktopColorSchemeMonitor(
            watcher: DescriptorWatcher { descriptor, handler in
                let watch = MainLoop.shared.watch(descriptor, handler: handler)
                return { watch.cancel() }
            })
        colorSchemeMonitor?.onChange = { Appearance.current = $0.isDark ? .dark : .light }
        colorSchemeMonitor?.start()
    }
}
MainLoop.shared.run()
