import DamaskProcess

// The tests' names for DamaskProcess's types: `TestProcess` and `PrivateCompositor` are what
// the integration tests have always called them (the types moved to Sources so that the
// bench and the tools run programs the same way).

/// A program the test runs (``DamaskProcess/ChildProcess``).
typealias TestProcess = ChildProcess
/// Why a ``TestProcess`` did not start or said nothing.
typealias TestProcessError = ChildProcessError
/// A private Weston or mutter for one test (``DamaskProcess/PrivateCompositor``).
typealias PrivateCompositor = DamaskProcess.PrivateCompositor
/// Why a ``PrivateCompositor`` failed.
typealias CompositorError = DamaskProcess.CompositorError
