import CPixman
import Foundation

/// An sRGB colour with straight (not premultiplied) components in 0…1.
public struct Color: Hashable, Sendable {
    /// The red component, 0…1.
    public var red: CGFloat
    /// The green component, 0…1.
    public var green: CGFloat
    /// The blue component, 0…1.
    public var blue: CGFloat
    /// The opacity, 0 (transparent) … 1 (opaque).
    public var alpha: CGFloat

    /// Creates a colour from straight components; values are clamped to 0…1 and NaN
    /// becomes 0.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        self.red = Color.clampUnit(red)
        self.green = Color.clampUnit(green)
        self.blue = Color.clampUnit(blue)
        self.alpha = Color.clampUnit(alpha)
    }

    /// Creates a grey with the given brightness.
    public init(white: CGFloat, alpha: CGFloat = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Parses `#rrggbb` or `#rrggbbaa` (the `#` is optional); returns nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8,
            digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        let rgba = digits.count == 6 ? (value << 8) | 0xFF : value
        self.init(
            red: CGFloat((rgba >> 24) & 0xFF) / 255,
            green: CGFloat((rgba >> 16) & 0xFF) / 255,
            blue: CGFloat((rgba >> 8) & 0xFF) / 255,
            alpha: CGFloat(rgba & 0xFF) / 255)
    }

    /// Creates a colour from a raw premultiplied `0xAARRGGBB` pixel (un-premultiplying it).
    public init(premultipliedARGB32 pixel: UInt32) {
        let a = CGFloat((pixel >> 24) & 0xFF)
        guard a > 0 else {
            self.init(red: 0, green: 0, blue: 0, alpha: 0)
            return
        }
        self.init(
            red: CGFloat((pixel >> 16) & 0xFF) / a,
            green: CGFloat((pixel >> 8) & 0xFF) / a,
            blue: CGFloat(pixel & 0xFF) / a,
            alpha: a / 255)
    }

    /// Returns this colour with its alpha replaced.
    public func withAlphaComponent(_ alpha: CGFloat) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour as a premultiplied `0xAARRGGBB` pixel, each channel rounded to nearest.
    public var premultipliedARGB32: UInt32 {
        let a = Color.byte(alpha)
        let r = Color.byte(red * alpha)
        let g = Color.byte(green * alpha)
        let b = Color.byte(blue * alpha)
        return a << 24 | r << 16 | g << 8 | b
    }

    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Fully transparent black.
    public static let clear = Color(white: 0, alpha: 0)
    /// Opaque pure red.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque pure green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque pure blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Opaque yellow.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Opaque orange (UIKit's `orange`: 1, 0.5, 0).
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// Opaque 50 % grey.
    public static let gray = Color(white: 0.5)
    /// Opaque 33 % grey.
    public static let darkGray = Color(white: 1.0 / 3.0)
    /// Opaque 67 % grey.
    public static let lightGray = Color(white: 2.0 / 3.0)
    /// UIKit's light-mode system blue (#007AFF).
    public static let systemBlue = Color(red: 0, green: 122.0 / 255, blue: 1)
    /// UIKit's light-mode system yellow (#FFCC00).
    public static let systemYellow = Color(red: 1, green: 204.0 / 255, blue: 0)
    /// UIKit's light-mode system green (#34C759).
    public static let systemGreen = Color(red: 52.0 / 255, green: 199.0 / 255, blue: 89.0 / 255)
    /// UIKit's light-mode system red (#FF3B30).
    public static let systemRed = Color(red: 1, green: 59.0 / 255, blue: 48.0 / 255)

    static func clampUnit(_ value: CGFloat) -> CGFloat {
        guard !value.isNaN else { return 0 }
        return Swift.min(Swift.max(value, 0), 1)
    }

    static func byte(_ unit: CGFloat) -> UInt32 {
        UInt32((clampUnit(unit) * 255).rounded())
    }

    /// The colour as a pixman colour (16 bits per channel, premultiplied when asked).
    /// The premultiplied colour as one `0xAARRGGBB` pixel, exactly as pixman makes it
    /// from ``pixmanColor(premultiplied:alphaScale:)`` for a solid fill (the top 8 bits of
    /// each 16-bit channel).
    func packedPremultiplied(alphaScale: CGFloat = 1) -> UInt32 {
        Self.packed(pixmanColor(premultiplied: true, alphaScale: alphaScale))
    }

    /// The `0xAARRGGBB` pixel pixman makes of `color` for a solid fill: each 16-bit
    /// channel's high byte.
    static func packed(_ color: pixman_color_t) -> UInt32 {
        UInt32(color.alpha >> 8) << 24 | UInt32(color.red >> 8) << 16 | UInt32(color.green >> 8) << 8 | UInt32(color.blue >> 8)
    }

    func pixmanColor(premultiplied: Bool, alphaScale: CGFloat = 1) -> pixman_color_t {
        let a = Color.clampUnit(alpha * alphaScale)
        let m = premultiplied ? a : 1
        func short(_ v: CGFloat) -> UInt16 { UInt16((Color.clampUnit(v) * 65535).rounded()) }
        return pixman_color_t(red: short(red * m), green: short(green * m), blue: short(blue * m), alpha: short(a))
    }
}
