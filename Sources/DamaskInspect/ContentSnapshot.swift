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

    /// The pixel at (x, y) as a 32-bit ARGB value (for 4-byte formats the raw value, for others
    /// the raw bytes), for evidence images.
    public func argb(x: Int, y: Int) -> UInt32 {
        let offset = y * rowBytes + x * bytesPerPixel
        var value: UInt32 = 0
        for i in 0..<min(4, bytesPerPixel) { value |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        return format.code == 1 || format.visibleMask == 0x00ff_ffff ? value | 0xff00_0000 : value
    }
}
