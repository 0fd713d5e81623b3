/// What the inspector knows about a `wl_shm` pixel format: its size per pixel and which bits
/// are visible (an X channel is ignored when comparing).
public struct BufferFormat: Sendable, Equatable {
    /// The `wl_shm.format` code (0 and 1 are ARGB/XRGB8888, the rest DRM fourccs).
    public let code: UInt32
    /// Bytes per pixel; nil for formats the inspector cannot compare (planar, YUV, …).
    public let bytesPerPixel: Int?
    /// Bits that carry colour, for 4-byte formats.
    public let visibleMask: UInt32

    public init(code: UInt32) {
        self.code = code
        func fourcc(_ text: String) -> UInt32 {
            text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
        switch code {
        case 0: (bytesPerPixel, visibleMask) = (4, 0xffff_ffff)
        case 1: (bytesPerPixel, visibleMask) = (4, 0x00ff_ffff)
        case fourcc("XR24"), fourcc("XB24"), fourcc("XR30"), fourcc("XB30"): (bytesPerPixel, visibleMask) = (4, code == fourcc("XR30") || code == fourcc("XB30") ? 0x3fff_ffff : 0x00ff_ffff)
        case fourcc("RX24"), fourcc("BX24"): (bytesPerPixel, visibleMask) = (4, 0xffff_ff00)
        case fourcc("AR24"), fourcc("AB24"), fourcc("RA24"), fourcc("BA24"), fourcc("AR30"), fourcc("AB30"):
            (bytesPerPixel, visibleMask) = (4, 0xffff_ffff)
        case fourcc("RG16"), fourcc("BG16"): (bytesPerPixel, visibleMask) = (2, 0xffff_ffff)
        case fourcc("RG24"), fourcc("BG24"): (bytesPerPixel, visibleMask) = (3, 0xffff_ffff)
        case fourcc("AR4H"), fourcc("XR4H"), fourcc("AB4H"), fourcc("XB4H"): (bytesPerPixel, visibleMask) = (8, 0xffff_ffff)
        default: (bytesPerPixel, visibleMask) = (nil, 0)
        }
    }

    /// The bytes of a pixel that carry colour, for formats that are not 4 bytes per pixel:
    /// 6 for the 64-bit X formats (XRGB/XBGR16161616F: the X channel is the last 2 bytes,
    /// ignored like the X byte of XRGB8888), otherwise all of them.
    public var visibleBytes: Int {
        code == Self.fourcc("XR4H") || code == Self.fourcc("XB4H") ? 6 : bytesPerPixel ?? 4
    }

    static func fourcc(_ text: String) -> UInt32 {
        text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// A short name: "argb8888", "xrgb8888" or the fourcc.
    public var name: String {
        switch code {
        case 0: return "argb8888"
        case 1: return "xrgb8888"
        default:
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
            return bytes.allSatisfy({ (32...126).contains($0) }) ? String(decoding: bytes, as: UTF8.self) : "0x\(String(code, radix: 16))"
        }
    }
}
