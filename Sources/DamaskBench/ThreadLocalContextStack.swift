import DamaskGraphics
import Foundation

/// A per-thread stack of graphics contexts kept behind a `pthread_key_t`: the change
/// docs/performance.md proposes for `GraphicsContext.current`, measured here against the
/// current implementation (`Thread.current.threadDictionary`).
///
/// Each thread's stack is retained by the key's value and released by the key's destructor
/// when the thread ends. Use a stack only from its own thread.
final class ThreadLocalContextStack {
    /// The contexts pushed on this thread, innermost last.
    var contexts: [GraphicsContext] = []

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { value in
            guard let value else { return }
            Unmanaged<ThreadLocalContextStack>.fromOpaque(value).release()
        }
        return key
    }()

    /// The calling thread's stack, created on first use.
    static var forCurrentThread: ThreadLocalContextStack {
        if let value = pthread_getspecific(key) {
            return Unmanaged<ThreadLocalContextStack>.fromOpaque(value).takeUnretainedValue()
        }
        let stack = ThreadLocalContextStack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }
}
