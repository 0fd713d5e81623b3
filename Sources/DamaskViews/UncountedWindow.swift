/// A window held without a reference count, in a list the window takes itself out of in its
/// `deinit` (``WindowRegistry``, an open ``Transaction``): a weak reference would give every
/// window a side table (docs/performance.md, "Back-pointers, not weak").
struct UncountedWindow {
    unowned(unsafe) let window: Window
}
