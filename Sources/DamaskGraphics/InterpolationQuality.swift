import CPixman

/// How scaled or transformed bitmaps are sampled.
public enum InterpolationQuality: Sendable {
    /// Nearest neighbour: hard pixels, no smoothing.
    case none
    /// Bilinear filtering.
    case low
    /// Bilinear filtering (the default).
    case `default`
    /// pixman's "best" filter (bilinear, or better where pixman offers it).
    case high

    var pixmanFilter: pixman_filter_t {
        switch self {
        case .none: PIXMAN_FILTER_NEAREST
        case .low, .default: PIXMAN_FILTER_BILINEAR
        case .high: PIXMAN_FILTER_BEST
        }
    }
}
