/// An animation of one layer property, named by its key path (Core Animation's
/// `CAPropertyAnimation`). Use ``BasicAnimation`` or ``KeyframeAnimation``.
///
/// Key paths Damask animates: `position` (`.x`, `.y`), `bounds` (`.origin`, `.size`,
/// `.size.width`, `.size.height`), `opacity`, `transform` (an affine transform, and its
/// parts `transform.rotation` / `.rotation.z`, `transform.scale` (`.x`, `.y`),
/// `transform.translation.x` / `.y`), `backgroundColor` and `cornerRadius`. An animation
/// with another key path is reported once on standard error and not added.
/// Main-actor isolated.
@MainActor public class PropertyAnimation: Animation {
    /// The property animated, e.g. `"position"` or `"transform.rotation.z"`.
    public var keyPath: String?

    /// Creates an animation of `keyPath`.
    public init(keyPath: String?) {
        self.keyPath = keyPath
        super.init()
    }

    override var animatedKeyPath: String? { keyPath }

    /// Why `value`, called `name` in messages (e.g. `"toValue"`), cannot animate a key path
    /// whose values are of `kind`, or nil when it can.
    func problem(with value: any AnimatableValue, named name: String, for kind: AnimationValue.Kind) -> String? {
        guard let converted = AnimationValue(value) else {
            return "its \(name) is a \(type(of: value)), which cannot be animated"
        }
        if converted.kind != kind {
            return "its \(name) is \(converted.kind.rawValue) where the key path takes \(kind.rawValue)"
        }
        return nil
    }
}
