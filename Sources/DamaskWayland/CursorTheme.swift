import CWaylandClient
import CWaylandCursor
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

    /// `XCURSOR_SIZE`, or 24.
    public nonisolated static var environmentSize: Int {
        ProcessInfo.processInfo.environment["XCURSOR_SIZE"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 24
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
