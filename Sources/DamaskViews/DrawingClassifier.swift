/// The one place that answers "does this kind of layer draw?", so that a view that does not
/// override `draw(_:)` gets no backing store.
///
/// A kind is the layer's class with its delegate's class. A drawing *did something* when it
/// was overridden (it did not reach a default `draw`) or asked for the current context
/// (``didDraw(reachedDefault:requestedCurrentContext:)``); the first drawing of a new store
/// that did nothing and left every pixel clear teaches that its kind does not draw. A layer
/// of such a kind is asked again on a 1×1 probe, without a store, each time it is marked:
/// a kind whose first instance drew nothing is never kept from drawing.
///
/// One per window (a process-wide cache made a process's first window count one draw more
/// than the next); main-actor isolated.
@MainActor final class DrawingClassifier {
    /// The kinds whose layers showed not to draw.
    private var nonDrawingKinds = Set<[ObjectIdentifier]>()

    /// Creates a classifier that knows no kind.
    init() {}

    /// Whether a drawing did something: it was overridden, or asked for the current context.
    nonisolated static func didDraw(reachedDefault: Bool, requestedCurrentContext: Bool) -> Bool {
        !reachedDefault || requestedCurrentContext
    }

    /// `layer`'s kind: its class and its delegate's.
    private static func kind(of layer: Layer) -> [ObjectIdentifier] {
        var kind = [ObjectIdentifier(type(of: layer))]
        if let delegate = layer.delegate { kind.append(ObjectIdentifier(type(of: delegate))) }
        return kind
    }

    /// Whether `layer` is of a kind learned not to draw. The kind is built (an array) only
    /// when some kind was learned.
    func isKnownNotToDraw(_ layer: Layer) -> Bool {
        !nonDrawingKinds.isEmpty && nonDrawingKinds.contains(Self.kind(of: layer))
    }

    /// Records that `layer`'s kind does not draw.
    func learnDoesNotDraw(_ layer: Layer) {
        nonDrawingKinds.insert(Self.kind(of: layer))
    }

    /// Forgets what was learned of `layer`'s kind (the probe showed it draws).
    func learnDraws(_ layer: Layer) {
        nonDrawingKinds.remove(Self.kind(of: layer))
    }
}
