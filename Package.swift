// swift-tools-version:6.0
//
// Damask: a Swift toolkit and demo application for Wayland.
//
// Layers, each depending only on the ones below it:
//   app (damask-demo, damask-bench) → DamaskPlayback / DamaskWayland → DamaskViews
//   → DamaskGraphics → C shims and system libraries.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Damask",
    products: [
        .library(name: "DamaskGraphics", targets: ["DamaskGraphics"]),
        .library(name: "DamaskViews", targets: ["DamaskViews"]),
        .library(name: "DamaskWayland", targets: ["DamaskWayland"]),
        .library(name: "DamaskPlayback", targets: ["DamaskPlayback"]),
        .library(name: "DamaskAccessibility", targets: ["DamaskAccessibility"]),
        .library(name: "DamaskControls", targets: ["DamaskControls"]),
        .executable(name: "damask-demo", targets: ["DamaskDemo"]),
        .executable(name: "damask-bench", targets: ["DamaskBench"]),
        .executable(name: "damask-test-client", targets: ["DamaskTestClient"]),
        .executable(name: "damask-inspect", targets: ["DamaskInspectTool"]),
        .executable(name: "damask-fuzz", targets: ["DamaskFuzz"]),
        .executable(name: "damask-notes", targets: ["DamaskNotes"]),
    ],
    targets: [
        // MARK: System libraries (found through pkg-config).
        .systemLibrary(
            name: "CWaylandClient", pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(
            name: "CWaylandCursor", pkgConfig: "wayland-cursor",
            providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(
            name: "CXKBCommon", pkgConfig: "xkbcommon",
            providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(
            name: "CPixman", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        // PNG's deflate streams, written and read directly (libpng's own dependency).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The AT-SPI bridge's D-Bus (docs/accessibility.md says why libdbus, not GDBus).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // libdbus-1 opened on the first D-Bus call instead of linked (its dependencies cost
        // 1.3 MiB of resident memory at exec): the `dbus_*` functions DamaskAccessibility calls.
        .target(name: "CDBusLoader", dependencies: ["CDBus"]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        // Never a library dependency: damask-bench measures DamaskGraphics against cairo in
        // the same run, and the graphics tests use cairo's strokes as a pixel reference.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),

        // MARK: C shims.
        // Reads of a client's shared memory that survive the client shrinking it (SIGBUS guard).
        .target(name: "CDamaskShmGuard", cSettings: [.define("_GNU_SOURCE")]),
        // damask-inspect's inner loop: one pass per row that compares, counts and copies (AVX2).
        .target(name: "CDamaskInspectScan"),
        // Generated protocol glue (scripts/generate-protocols).
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"]),
        // What Swift cannot do safely by itself: memfd, interface addresses, libwayland's log.
        .target(
            name: "CDamaskShims",
            dependencies: ["CWaylandClient", "CWaylandCursor", "CWaylandProtocols"],
            cSettings: [.define("_GNU_SOURCE")]),

        // MARK: Swift layers.
        .target(
            name: "DamaskGraphics",
            dependencies: ["CPixman", "CFreeType", "CFontconfig", "CPNG", "CZlib", "CHarfBuzz", "CFriBidi"],
            swiftSettings: strictSettings),
        .target(
            name: "DamaskViews",
            dependencies: ["DamaskGraphics"],
            swiftSettings: strictSettings),
        // The xkbcommon wrapper DamaskWayland's keyboard and DamaskPlayback's keymaps share.
        .target(name: "DamaskXKB", dependencies: ["DamaskViews", "CXKBCommon"], swiftSettings: strictSettings),
        .target(
            name: "DamaskControls",
            dependencies: ["DamaskViews", "DamaskGraphics"],
            swiftSettings: strictSettings),
        .target(
            name: "DamaskWayland",
            dependencies: [
                "DamaskViews", "DamaskGraphics", "DamaskXKB", "CDamaskShims", "CWaylandClient",
                "CWaylandCursor", "CWaylandProtocols", "CXKBCommon",
            ],
            swiftSettings: strictSettings),
        .target(
            name: "DamaskPlayback",
            dependencies: ["DamaskViews", "DamaskGraphics", "DamaskXKB", "CXKBCommon"],
            swiftSettings: strictSettings),

        // The AT-SPI2 bridge: the view tree on the accessibility bus (docs/accessibility.md).
        .target(
            name: "DamaskAccessibility",
            dependencies: ["DamaskViews", "DamaskGraphics", "DamaskProcess", "CDBus", "CDBusLoader"],
            swiftSettings: strictSettings),

        // Wayland wire decoding, buffer tracking and damage checks for damask-inspect.
        .target(name: "DamaskInspect", dependencies: ["DamaskGraphics", "DamaskProcess", "CDamaskShmGuard", "CDamaskInspectScan"], swiftSettings: strictSettings),

        // Child processes and private compositors: spawned in their own process group, every
        // wait bounded (the tests' TestProcess and PrivateCompositor, damask-bench, damask-inspect).
        .target(name: "DamaskProcess", swiftSettings: strictSettings),

        // MARK: Applications.
        .executableTarget(name: "DamaskInspectTool", dependencies: ["DamaskInspect"], swiftSettings: strictSettings),
        .executableTarget(
            name: "DamaskDemo",
            dependencies: [
                "DamaskWayland", "DamaskPlayback", "DamaskControls", "DamaskViews", "DamaskGraphics", "DamaskAccessibility",
                "CDamaskShims",
            ],
            resources: [.copy("Resources")],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "DamaskBench",
            dependencies: [
                "DamaskWayland", "DamaskViews", "DamaskControls", "DamaskGraphics", "DamaskInspect", "DamaskProcess",
                "CDamaskInspectScan", "CPixman", "CCairo",
            ],
            swiftSettings: strictSettings),

        // MARK: Examples (written against the public API only, as a program outside the package would).
        // A notes app: a list, a text view, New and Delete, a count (docs/controls.md, "Examples").
        .executableTarget(
            name: "DamaskNotes",
            dependencies: ["DamaskControls", "DamaskViews", "DamaskGraphics", "DamaskWayland", "DamaskPlayback"],
            path: "Examples/Notes",
            exclude: ["notes.damask"],
            swiftSettings: strictSettings),

        // A scriptable client for the integration tests: a window with known content whose
        // changes are driven line by line on stdin (see its main.swift).
        .executableTarget(
            name: "DamaskTestClient",
            dependencies: ["DamaskWayland", "DamaskControls", "DamaskViews", "DamaskGraphics"],
            swiftSettings: strictSettings),

        // libFuzzer targets (scripts/fuzz builds them with -sanitize=fuzzer,address and
        // -DDAMASK_LIBFUZZER); in a plain build, a replay of their corpora (FuzzCorpusTests).
        .executableTarget(
            name: "DamaskFuzz",
            dependencies: ["DamaskWayland", "DamaskXKB", "DamaskPlayback", "DamaskInspect", "DamaskGraphics"],
            path: "Tests/Fuzz",
            exclude: ["Corpus", "Standalone"],
            swiftSettings: strictSettings),

        // MARK: Tests.
        // What the test targets share: the `.exclusive` trait that keeps tests with
        // process-wide state or private compositors from overlapping under `swift test`.
        .target(
            name: "DamaskTestSupport",
            path: "Tests/DamaskTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "DamaskGraphicsTests",
            // CCairo: cairo's strokes as the reference for joins, caps and dashes. CFreeType:
            // faces mapped by FT_New_Face as the reference for faces read through a stream.
            dependencies: ["DamaskGraphics", "CPixman", "CCairo", "CFreeType", "DamaskTestSupport"],
            exclude: ["pango-render.py"],
            resources: [.copy("References")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DamaskViewsTests",
            dependencies: ["DamaskViews", "DamaskGraphics", "DamaskTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DamaskControlsTests",
            dependencies: ["DamaskControls", "DamaskViews", "DamaskGraphics", "DamaskTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DamaskPlaybackTests",
            dependencies: ["DamaskPlayback", "DamaskViews", "DamaskControls", "DamaskGraphics", "DamaskTestSupport"],
            swiftSettings: strictSettings),
        // UIKit conformance, written against DamaskViews' public API only (no @testable).
        .testTarget(
            name: "DamaskConformanceTests",
            dependencies: ["DamaskViews", "DamaskTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DamaskAccessibilityTests",
            // DamaskControls: the desktop colour-scheme test switches the controls' appearance.
            dependencies: ["DamaskAccessibility", "DamaskControls", "DamaskViews", "DamaskGraphics", "DamaskTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "DamaskInspectTests", dependencies: ["DamaskInspect", "DamaskGraphics", "CDamaskInspectScan", "DamaskTestSupport"], swiftSettings: strictSettings),
        // README's and docs/architecture.md's module tables against this manifest.
        .testTarget(name: "DamaskDocumentationTests", swiftSettings: strictSettings),
        .testTarget(
            name: "DamaskWaylandTests",
            dependencies: [
                "DamaskWayland", "DamaskViews", "DamaskControls", "DamaskGraphics", "DamaskTestClient", "DamaskDemo", "DamaskNotes",
                "DamaskInspectTool", "DamaskFuzz", "DamaskTestSupport", "DamaskProcess", "DamaskXKB",
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
