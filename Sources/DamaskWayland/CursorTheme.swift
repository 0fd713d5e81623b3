import CWaylandClient
import CWaylandCursor
import DamaskGraphics
import Foundation

/// A cursor theme loaded for one buffer scale, with a built-in arrow for when the theme
/// (or the shape) does not exist.
///
/// The theme is `XCURSOR_THEME` (default: the system's "default" theme) at `XCURSOR_SIZE`
/// points (default 24) × the scale, so cursors stay sharp on scaled outputs. Owns the
/// `wl_cursor_theme` (and through it the cursor buffers) and the built-in arrow's shm
/// buffer; both are destroyed in ``destroy()`` or `deinit`. Main-actor.
@MainActor
public final class CursorTheme {
    /// One cursor image: a `wl_buffer` (owned by the theme) and its size and hotspot in
    /// buffer pixels.
    public struct Image {
        /// The buffer to attach; valid while the theme lives.
        public var buffer: OpaquePointer
        /// Size in buffer pixels.
        public var width: Int32
        /// Size in buffer pixels.
        public var height: Int32
        /// The hotspot in buffer pixels.
        public var hotspotX: Int32
        /// The hotspot in buffer pixels.
        public var hotspotY: Int32
        /// Whether this is Damask's own arrow rather than a theme image.
        public var isBuiltIn: Bool
    }

    /// The theme name asked for (`nil`: the default theme).
    public let name: String?
    /// The cursor size in points.
    public let size: Int
    /// The buffer scale the images are made for.
    public let scale: Int
    /// Whether a theme with any cursor was found (otherwise every shape is the built-in arrow).
    public var hasTheme: Bool { theme != nil }

    private var theme: OpaquePointer?
    private var builtInArrow: ShmBuffer?
    private let shm: OpaquePointer

    /// Loads the theme for `scale` (`name`/`size` default to the XCURSOR variables).
    public init(shm: OpaquePointer, scale: Int, name: String? = CursorTheme.environmentName, size: Int = CursorTheme.environmentSize) {
        self.shm = shm
        self.name = name
        self.size = size
        self.scale = max(1, scale)
        let loaded = wl_cursor_theme_load(name, Int32(size * self.scale), shm)
        // A theme without even an arrow is no theme (libwayland-cursor returns an empty
        // theme for unknown names when its own fallback is missing).
        if let loaded, Self.cursor(in: loaded, names: CursorShape.arrow.themeNames) != nil {
            theme = loaded
        } else if let loaded {
            wl_cursor_theme_destroy(loaded)
        }
        if let name, !Self.isInstalled(themeNamed: name) {
            StandardError.write("damask: cursor theme '\(name)' is not installed; using fallback cursors\n")
        }
    }

    /// Whether a theme directory called `name` exists where libXcursor looks for themes
    /// (`XCURSOR_PATH`, or its default path).
    nonisolated static func isInstalled(themeNamed name: String) -> Bool {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? "\(home)/.local/share"
        let defaultPath = "\(dataHome)/icons:\(home)/.icons:/usr/share/icons:/usr/share/pixmaps:/usr/X11R6/lib/X11/icons"
        let searchPath = ProcessInfo.processInfo.environment["XCURSOR_PATH"] ?? defaultPath
        return searchPath.split(separator: ":").contains { directory in
            FileManager.default.fileExists(atPath: "\(directory)/\(name)")
        }
    }

    isolated deinit {
        destroy()
    }

    /// Destroys the theme and the built-in buffer. Idempotent.
    public func destroy() {
        if let theme { wl_cursor_theme_destroy(theme) }
        theme = nil
        builtInArrow?.destroy()
        builtInArrow = nil
    }

    /// `XCURSOR_THEME`, if set.
    public nonisolated static var environmentName: String? {
        ProcessInfo.processInfo.environment["XCURSOR_THEME"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `XCURSOR_SIZE`, or 24 when it is unset; a value that is not a size (1…512) is
    /// reported once on stderr and replaced by 24.
    public nonisolated static var environmentSize: Int { checkedEnvironmentSize }

    private nonisolated static let checkedEnvironmentSize: Int = {
        let (size, warning) = CursorTheme.size(fromEnvironment: ProcessInfo.processInfo.environment["XCURSOR_SIZE"])
        if let warning { StandardError.write("damask: \(warning)\n") }
        return size
    }()

    /// The cursor size an `XCURSOR_SIZE` of `value` gives, with a warning when the value is
    /// not usable.
    nonisolated static func size(fromEnvironment value: String?) -> (size: Int, warning: String?) {
        guard let value, !value.isEmpty else { return (24, nil) }
        guard let size = Int(value), (1...512).contains(size) else {
            return (24, "XCURSOR_SIZE=\(value) is not a cursor size (1…512); using 24")
        }
        return (size, nil)
    }

    /// The image for `shape`: the theme's first matching name, else the built-in arrow;
    /// `nil` only for ``CursorShape/hidden``.
    public func image(for shape: CursorShape) -> Image? {
        if shape == .hidden { return nil }
        if let theme, let cursor = Self.cursor(in: theme, names: shape.themeNames)
            ?? Self.cursor(in: theme, names: CursorShape.arrow.themeNames),
            cursor.pointee.image_count > 0, let first = cursor.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(first)
        {
            let image = first.pointee
            return Image(
                buffer: buffer, width: Int32(image.width), height: Int32(image.height),
                hotspotX: Int32(image.hotspot_x), hotspotY: Int32(image.hotspot_y), isBuiltIn: false)
        }
        return builtInImage()
    }

    private static func cursor(in theme: OpaquePointer, names: [String]) -> UnsafeMutablePointer<wl_cursor>? {
        for name in names {
            if let cursor = wl_cursor_theme_get_cursor(theme, name) { return cursor }
        }
        return nil
    }

    // MARK: The built-in arrow

    /// The arrow at 1×: `#` is black, `.` is white, space is transparent. Hotspot top-left.
    private static let arrowRows = [
        "#",
        "##",
        "#.#",
        "#..#",
        "#...#",
        "#....#",
        "#.....#",
        "#......#",
        "#.......#",
        "#........#",
        "#.....#####",
        "#..#..#",
        "#.# #..#",
        "##  #..#",
        "#    #..#",
        "     #..#",
        "      ##",
    ]

    /// Damask's own arrow at this theme's scale (used when the theme has no image).
    func builtInImage() -> Image? {
        if builtInArrow == nil {
            builtInArrow = makeBuiltInArrow()
        }
        guard let arrow = builtInArrow, let proxy = arrow.proxy else { return nil }
        return Image(
            buffer: proxy, width: Int32(arrow.width), height: Int32(arrow.height),
            hotspotX: 0, hotspotY: 0, isBuiltIn: true)
    }

    private func makeBuiltInArrow() -> ShmBuffer? {
        let rows = Self.arrowRows
        let width = (rows.map(\.count).max() ?? 1) * scale
        let height = rows.count * scale
        guard let buffer = try? ShmBuffer(
            shm: shm, width: width, height: height, format: WL_SHM_FORMAT_ARGB8888.rawValue),
            let memory = buffer.memory
        else { return nil }
        precondition(buffer.byteCount >= width * height * 4, "an arrow of \(width)×\(height) over \(buffer.byteCount) bytes")
        let pixels = memory.bindMemory(to: UInt32.self, capacity: width * height)
        for (row, text) in rows.enumerated() {
            for (column, character) in text.enumerated() {
                let value: UInt32
                switch character {
                case "#": value = 0xFF00_0000
                case ".": value = 0xFFFF_FFFF
                default: value = 0
                }
                for dy in 0..<scale {
                    for dx in 0..<scale {
                        pixels[(row * scale + dy) * width + column * scale + dx] = value
                    }
                }
            }
        }
        return buffer
    }
}
