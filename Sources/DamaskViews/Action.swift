/// Something a layer runs when one of its properties changes (Core Animation's
/// `CAAction`): an animation adds itself to the layer for the property's key.
///
/// A layer finds the action for a key with ``Layer/action(forKey:)``: its delegate's
/// ``LayerDelegate/action(for:forKey:)``, then ``Layer/actions``, then
/// ``Layer/defaultAction(forKey:)``. Returning ``NullAction`` (Core Animation's `NSNull`)
/// ends the search with no action. Main-actor isolated.
@MainActor public protocol Action {
    /// Runs the action for the change of `key` on `layer`.
    func run(forKey key: String, object layer: Layer)
}

/// The action that does nothing and ends the action search (Core Animation's `NSNull`
/// returned from `actionForLayer:forKey:`). A view returns it outside animation blocks.
public struct NullAction: Action {
    /// Creates the null action.
    public init() {}

    /// Does nothing.
    public func run(forKey key: String, object layer: Layer) {}
}
