import CPixman

/// How drawn pixels combine with those already in the bitmap (Porter–Duff and
/// separable blend modes, all computed by pixman on premultiplied pixels).
public enum BlendMode: Sendable, CaseIterable {
    /// Source over destination (the default).
    case normal
    /// The source replaces the destination inside the drawn shape (`.copy` in CG).
    case copy
    /// The drawn shape clears the destination to transparent.
    case clear
    /// Source where the destination is opaque (`sourceIn`).
    case sourceIn
    /// Source where the destination is transparent (`sourceOut`).
    case sourceOut
    /// Source atop destination.
    case sourceAtop
    /// Destination over source.
    case destinationOver
    /// Destination kept where the source is opaque.
    case destinationIn
    /// Destination kept where the source is transparent.
    case destinationOut
    /// Exclusive or of source and destination coverage.
    case xor
    /// Sum of source and destination, saturating (`plusLighter`).
    case plusLighter
    /// Multiply.
    case multiply
    /// Screen.
    case screen
    /// Overlay.
    case overlay
    /// Darken.
    case darken
    /// Lighten.
    case lighten
    /// Difference.
    case difference

    var pixmanOperator: pixman_op_t {
        switch self {
        case .normal: PIXMAN_OP_OVER
        case .copy: PIXMAN_OP_SRC
        case .clear: PIXMAN_OP_CLEAR
        case .sourceIn: PIXMAN_OP_IN
        case .sourceOut: PIXMAN_OP_OUT
        case .sourceAtop: PIXMAN_OP_ATOP
        case .destinationOver: PIXMAN_OP_OVER_REVERSE
        case .destinationIn: PIXMAN_OP_IN_REVERSE
        case .destinationOut: PIXMAN_OP_OUT_REVERSE
        case .xor: PIXMAN_OP_XOR
        case .plusLighter: PIXMAN_OP_ADD
        case .multiply: PIXMAN_OP_MULTIPLY
        case .screen: PIXMAN_OP_SCREEN
        case .overlay: PIXMAN_OP_OVERLAY
        case .darken: PIXMAN_OP_DARKEN
        case .lighten: PIXMAN_OP_LIGHTEN
        case .difference: PIXMAN_OP_DIFFERENCE
        }
    }

    /// Whether drawing in this mode leaves an opaque pixel opaque, whatever is drawn (the
    /// result's alpha is αs + αd·(1 − αs) or more, so 1 when αd is 1). Copy, clear, the
    /// source and destination in/out modes and xor can make it translucent.
    var keepsOpaquePixelsOpaque: Bool {
        switch self {
        case .normal, .sourceAtop, .destinationOver, .plusLighter, .multiply, .screen, .overlay, .darken,
            .lighten, .difference:
            true
        case .copy, .clear, .sourceIn, .sourceOut, .destinationIn, .destinationOut, .xor:
            false
        }
    }
}
