import Foundation

/// The window's frame-tick clients: display links and timers ticked on its frames.
extension Window {
    /// Ticks `client` (a display link or a timer) on this window's frames.
    func add(_ client: any FrameTickClient) {
        scheduler.add(client)
    }

    /// Stops ticking `client`.
    func remove(_ client: any FrameTickClient) {
        scheduler.remove(client)
    }

    /// A display link or timer paused, resumed or changed its rate: the scheduler
    /// re-plans its frames.
    func displayLinkDidChangeState() {
        scheduler.clientDidChangeState()
    }
}
