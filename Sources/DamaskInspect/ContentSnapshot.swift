/// A copy of a buffer's pixels at one moment, rows packed without the stride padding.
public struct ContentSnapshot: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let format: BufferFormat
    /// `height` rows of `width * bytesPerPixel` bytes.
    public let bytes: [UInt8]

    public init(width: Int, height: Int, format: BufferFormat, bytes: [UInt8]) {
        (self.width, self.height, self.format, self.bytes) = (width, height, format, bytes)
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    public var bytesPerPixel: Int { format.bytesPerPixel ?? 4 }
    public var rowBytes: Int { width * bytesPerPixel }

    /// Whether both snapshots have the same size and format (so they can be compared).
    public func isComparable(with other: ContentSnapshot) -> Bool {
        width == other.width && height == other.height && format == other.format
    }

    /// The pixel at (x, y) as 32-bit ARGB (8 bits a channel, an X channel read as opaque), for
    /// evidence images: every format the inspector compares is converted, so the image shows
    /// the client's colours.
    public func argb(x: Int, y: Int) -> UInt32 {
        let offset = y * rowBytes + x * bytesPerPixel
        var raw: UInt64 = 0
        for i in 0..<min(8, bytesPerPixel) { raw |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        let v = UInt32(truncatingIfNeeded: raw)
        func pack(_ a: UInt32, _ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 {
            (a & 0xff) << 24 | (r & 0xff) << 16 | (g & 0xff) << 8 | (b & 0xff)
        }
        // Channel bits at `shift`, of `width` bits, widened to 8 bits.
        func channel(_ shift: UInt32, _ width: UInt32) -> UInt32 {
            let value = (v >> shift) & ((1 << width) - 1)
            return width >= 8 ? value >> (width - 8) : (value << (8 - width)) | (value >> (2 * width - 8))
        }
        // A half-float channel at bit `shift` of the 64-bit pixel, clamped to 0…1.
        func half(_ shift: UInt64) -> UInt32 {
            let value = Float(Float16(bitPattern: UInt16(truncatingIfNeeded: raw >> shift)))
            return value.isNaN ? 0 : UInt32((min(max(value, 0), 1) * 255).rounded())
        }
        let code = format.code
        let opaque = format.visibleMask != 0xffff_ffff || format.visibleBytes < bytesPerPixel
        func fourcc(_ text: String) -> UInt32 { BufferFormat.fourcc(text) }
        let converted: UInt32
        switch code {
        case fourcc("AB24"), fourcc("XB24"): converted = pack(v >> 24, v, v >> 8, v >> 16)
        case fourcc("RA24"), fourcc("RX24"): converted = pack(v, v >> 24, v >> 16, v >> 8)
        case fourcc("BA24"), fourcc("BX24"): converted = pack(v, v >> 8, v >> 16, v >> 24)
        case fourcc("AR30"), fourcc("XR30"): converted = pack((v >> 30) * 0x55, channel(20, 10), channel(10, 10), channel(0, 10))
        case fourcc("AB30"), fourcc("XB30"): converted = pack((v >> 30) * 0x55, channel(0, 10), channel(10, 10), channel(20, 10))
        case fourcc("RG16"): converted = pack(0xff, channel(11, 5), channel(5, 6), channel(0, 5))
        case fourcc("BG16"): converted = pack(0xff, channel(0, 5), channel(5, 6), channel(11, 5))
        case fourcc("RG24"): converted = pack(0xff, v >> 16, v >> 8, v)
        case fourcc("BG24"): converted = pack(0xff, v, v >> 8, v >> 16)
        case fourcc("AR4H"), fourcc("XR4H"): converted = pack(half(48), half(32), half(16), half(0))
        case fourcc("AB4H"), fourcc("XB4H"): converted = pack(half(48), half(0), half(16), half(32))
        default: converted = v  // ARGB8888, XRGB8888 and their fourccs
        }
        return opaque ? converted | 0xff00_0000 : converted
    }
}
