/// The errors DamaskGraphics throws.
public enum GraphicsError: Error, CustomStringConvertible, Equatable {
    /// A bitmap size is zero, negative or too large to allocate.
    case invalidSize(width: Int, height: Int)
    /// A row stride is too small for the width, or not a multiple of 4.
    case invalidBytesPerRow(Int, width: Int)
    /// pixman could not allocate or create an image.
    case allocationFailed(width: Int, height: Int)
    /// A PNG could not be decoded; the message comes from libpng.
    case pngDecodingFailed(String)
    /// A PNG could not be encoded or written; the message comes from libpng or the system.
    case pngEncodingFailed(String)
    /// A font size is zero, negative, not finite or larger than ``Font/maximumSize``.
    case invalidFontSize(Double)
    /// No font matches the request, or FreeType could not open it.
    case fontNotFound(family: String)
    /// FreeType failed with an error code.
    case freeTypeFailed(operation: String, code: Int32)

    /// A human-readable explanation naming the offending values.
    public var description: String {
        switch self {
        case .invalidSize(let width, let height):
            "invalid bitmap size \(width)×\(height) (each side must be 1…\(Bitmap.maximumDimension))"
        case .invalidBytesPerRow(let bytesPerRow, let width):
            "invalid bytesPerRow \(bytesPerRow) for width \(width) (need ≥ 4·width and a multiple of 4)"
        case .allocationFailed(let width, let height):
            "could not allocate a \(width)×\(height) image"
        case .pngDecodingFailed(let message):
            "PNG decoding failed: \(message)"
        case .pngEncodingFailed(let message):
            "PNG encoding failed: \(message)"
        case .invalidFontSize(let size):
            "invalid font size \(size) (must be greater than 0 and at most \(Font.maximumSize))"
        case .fontNotFound(let family):
            "no font found for family \"\(family)\""
        case .freeTypeFailed(let operation, let code):
            "FreeType \(operation) failed with error \(code)"
        }
    }
}
