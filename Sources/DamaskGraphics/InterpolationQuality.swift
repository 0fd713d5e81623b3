import CPixman

/// How scaled or transformed bitmaps are sampled.
public enum InterpolationQuality: Sendable {
    /// Nearest neighbour: hard pixels, no smoothing.
    case none
    /// Bilinear filtering.
    case low
    /// Bilinear filtering (the default).
    case `default`
    /// Area averaging (a separable box filter) when shrinking, so fine detail is not
    /// aliased; bilinear when enlarging.
    case high

    var pixmanFilter: pixman_filter_t {
        switch self {
        case .none: PIXMAN_FILTER_NEAREST
        case .low, .default, .high: PIXMAN_FILTER_BILINEAR
        }
    }
}
