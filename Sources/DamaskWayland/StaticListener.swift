/// A C listener struct at a fixed address for the life of the process.
///
/// libwayland keeps the pointer passed to `*_add_listener` and calls through it for as long
/// as the proxy lives, so listener tables must never move. Each kind of listener is built
/// once, stored in a `static let`, never mutated and never freed; that is what makes sharing
/// it between threads safe.
final class StaticListener<Table>: @unchecked Sendable {
    /// The table's address, valid forever.
    let pointer: UnsafePointer<Table>

    init(_ table: Table) {
        let storage = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        storage.initialize(to: table)
        pointer = UnsafePointer(storage)
    }
}

/// Recovers the Swift owner registered as a proxy's listener data.
///
/// Proxies get ``listenerData(for:)`` (`Unmanaged.passUnretained(owner)`) as their data:
/// the owner keeps the proxy and destroys it before it goes away itself, so the reference is
/// valid whenever libwayland calls back. Asserted in debug builds (``ListenerOwners``).
/// Call it on the main thread, as libwayland calls every listener here.
func owner<Owner: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: Owner.Type) -> Owner {
    guard let data else { preconditionFailure("a \(Owner.self) listener called without its data") }
    #if DEBUG
    let address = Int(bitPattern: data)
    MainActor.assumeIsolated {
        assert(
            ListenerOwners.isLive(address, as: Owner.self),
            "a \(Owner.self) listener called after its owner went away (or with another object's data)")
    }
    #endif
    return Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
}

/// Calls `body` with `owner` and `arguments`, isolated to the main actor, from a listener
/// that libwayland called.
///
/// Every listener here runs on the main thread: libwayland calls them only from
/// `wl_display_dispatch_pending`, which the connection calls from the main loop (or, before
/// it runs, from a main-queue source). Debug builds check it (`preconditionIsolated`, the
/// check `MainActor.assumeIsolated` makes); release builds take it as given. The runtime's
/// check runs about 25 functions of the Swift runtime spread over some 15 pages, fetched
/// cold at every wake-up, and a typed key has two (docs/performance.md, "The wake-ups of a
/// key"). For the listeners of every key (keyboard keys, buffer releases, frame callbacks);
/// the others keep `MainActor.assumeIsolated`.
///
/// `body` gets what it works on as parameters and must capture nothing: a closure that
/// captures nothing is a bare function pointer, and the cast below costs nothing. A closure
/// that captured would have its context allocated on the heap at every call (as the
/// `withoutActuallyEscaping` version of this function did: two allocations and an escape
/// check per key event).
@inline(__always)
func onMainActor<Owner: AnyObject, Arguments>(
    _ owner: Owner, _ arguments: Arguments, _ body: @escaping @MainActor (Owner, Arguments) -> Void
) {
    #if DEBUG
    MainActor.shared.preconditionIsolated("a Wayland listener called off the main thread")
    #endif
    // A synchronous function isolated to a global actor has the calling convention of a
    // nonisolated one; only the compiler's view of where it may run differs.
    unsafeBitCast(body, to: ((Owner, Arguments) -> Void).self)(owner, arguments)
}
