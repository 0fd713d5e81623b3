import Dispatch

/// How the bridge learns that a descriptor has input: given a descriptor and a handler, it
/// calls the handler on the main actor whenever the descriptor is readable, until the
/// returned closure cancels the watch. The descriptor stays owned by the caller.
///
/// ``mainQueue`` serves it with a main-queue `DispatchSource`, which works under any
/// main-queue driver; an app with its own main loop passes its loop's watch (damask-demo
/// passes `MainLoop.shared.watch`, which polls it on the main thread with the Wayland
/// socket, so one message wakes one thread).
public struct DescriptorWatcher: Sendable {
    /// Starts watching; returns what stops it.
    public let watch: @MainActor @Sendable (_ descriptor: Int32, _ handler: @escaping @MainActor () -> Void) -> @MainActor () -> Void

    /// A watcher from a watch function.
    public init(
        _ watch: @escaping @MainActor @Sendable (_ descriptor: Int32, _ handler: @escaping @MainActor () -> Void) -> @MainActor () -> Void
    ) {
        self.watch = watch
    }

    /// Watches with a read source on the main dispatch queue.
    public static let mainQueue = DescriptorWatcher { descriptor, handler in
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated { handler() }
        }
        source.resume()
        return { source.cancel() }
    }
}
