import Foundation

/// Runs code whose allocations LeakSanitizer must not report: a leak inside a system
/// library that the test provokes on purpose and that no Damask code can free.
///
/// Under `swift test --sanitize=address` the ASan runtime is linked in and
/// `__lsan_disable`/`__lsan_enable` exist: allocations the current thread makes between
/// them are never reported. The plain build has no such symbols (looked up at run time, so
/// it links), and then `body` just runs. Only the calling thread's allocations are exempt,
/// and only while `body` runs — unlike a suppression by library name, which would also hide
/// Damask's own missing `unref`s of that library's objects.
public enum LeakCheckExemption {
    /// Runs `body` with LeakSanitizer ignoring what this thread allocates meanwhile.
    @discardableResult
    public static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        typealias Toggle = @convention(c) () -> Void
        let handle = dlopen(nil, RTLD_NOW)
        defer { if let handle { dlclose(handle) } }
        let disable = dlsym(handle, "__lsan_disable").map { unsafeBitCast($0, to: Toggle.self) }
        let enable = dlsym(handle, "__lsan_enable").map { unsafeBitCast($0, to: Toggle.self) }
        assert((disable == nil) == (enable == nil), "the LeakSanitizer interface comes whole or not at all")
        disable?()
        defer { enable?() }
        return try body()
    }
}
