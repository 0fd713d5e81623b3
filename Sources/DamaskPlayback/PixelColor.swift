/// An opaque 8-bit-per-channel colour as written in scripts, `#rrggbb`.
public struct PixelColor: Hashable, Sendable, CustomStringConvertible {
    /// The red channel, 0…255.
    public var red: UInt8
    /// The green channel, 0…255.
    public var green: UInt8
    /// The blue channel, 0…255.
    public var blue: UInt8

    /// Creates a colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (either case); nil otherwise.
    public init?(hex: String) {
        let scalars = Array(hex.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#" else { return nil }
        var channels: [UInt8] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let high = ScriptLexer.hexValue(scalars[i]),
                let low = ScriptLexer.hexValue(scalars[i + 1])
            else { return nil }
            channels.append(UInt8(high * 16 + low))
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// Creates the colour of a pixel given as premultiplied `0xAARRGGBB`, un-premultiplied;
    /// a fully transparent pixel is black.
    public init(argb32 pixel: UInt32) {
        let alpha = (pixel >> 24) & 0xFF
        func channel(_ shift: UInt32) -> UInt8 {
            let value = (pixel >> shift) & 0xFF
            switch alpha {
            case 0: return 0
            case 0xFF: return UInt8(value)
            default: return UInt8(min(255, (value * 255 + alpha / 2) / alpha))
            }
        }
        self.init(red: channel(16), green: channel(8), blue: channel(0))
    }

    /// The largest per-channel difference from `other`.
    public func distance(to other: PixelColor) -> Int {
        max(
            abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)),
            abs(Int(blue) - Int(other.blue)))
    }

    /// `#rrggbb` in lower case.
    public var description: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for channel in [red, green, blue] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0xF)])
        }
        return text
    }
}
