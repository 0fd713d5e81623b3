import DamaskGraphics
import Foundation

/// A layer property (or part of one) an animation can drive, named by Core Animation's
/// key-path strings.
enum AnimatableKeyPath: String, CaseIterable {
    case position
    case positionX = "position.x"
    case positionY = "position.y"
    case bounds
    case boundsOrigin = "bounds.origin"
    case boundsSize = "bounds.size"
    case boundsWidth = "bounds.size.width"
    case boundsHeight = "bounds.size.height"
    case opacity
    case transform
    case rotation = "transform.rotation"
    case rotationZ = "transform.rotation.z"
    case scale = "transform.scale"
    case scaleX = "transform.scale.x"
    case scaleY = "transform.scale.y"
    case translationX = "transform.translation.x"
    case translationY = "transform.translation.y"
    case backgroundColor
    case cornerRadius

    /// The key paths whose change runs an implicit action (Core Animation's action keys).
    static let actionKeys: Set<String> = [
        "position", "bounds", "opacity", "transform", "backgroundColor", "cornerRadius",
    ]

    /// The key paths, listed for messages.
    static var supportedList: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The kind of value the key path takes.
    var kind: AnimationValue.Kind {
        switch self {
        case .position, .boundsOrigin: .point
        case .bounds: .rect
        case .boundsSize: .size
        case .transform: .transform
        case .backgroundColor: .color
        default: .scalar
        }
    }

    /// The key path's value in `values`.
    func read(_ values: LayerPresentationValues) -> AnimationValue {
        switch self {
        case .position: return .point(values.position)
        case .positionX: return .scalar(values.position.x)
        case .positionY: return .scalar(values.position.y)
        case .bounds: return .rect(values.bounds)
        case .boundsOrigin: return .point(values.bounds.origin)
        case .boundsSize: return .size(values.bounds.size)
        case .boundsWidth: return .scalar(values.bounds.width)
        case .boundsHeight: return .scalar(values.bounds.height)
        case .opacity: return .scalar(values.opacity)
        case .transform: return .transform(values.transform)
        case .backgroundColor: return .color(values.backgroundColor ?? .clear)
        case .cornerRadius: return .scalar(values.cornerRadius)
        case .rotation, .rotationZ, .scale, .scaleX, .scaleY, .translationX, .translationY:
            let parts = TransformComponents(values.transform)
            switch self {
            case .rotation, .rotationZ: return .scalar(parts?.rotation ?? 0)
            case .scale, .scaleX: return .scalar(parts?.scaleX ?? 0)
            case .scaleY: return .scalar(parts?.scaleY ?? 0)
            case .translationX: return .scalar(values.transform.tx)
            default: return .scalar(values.transform.ty)
            }
        }
    }

    /// Writes `value` (of ``kind``; checked when the animation was added) into `values`.
    func write(_ value: AnimationValue, into values: inout LayerPresentationValues) {
        switch (self, value) {
        case (.position, .point(let point)): values.position = point
        case (.positionX, .scalar(let x)): values.position.x = x
        case (.positionY, .scalar(let y)): values.position.y = y
        case (.bounds, .rect(let rect)): values.bounds = rect
        case (.boundsOrigin, .point(let origin)): values.bounds.origin = origin
        case (.boundsSize, .size(let size)): values.bounds.size = size
        case (.boundsWidth, .scalar(let width)): values.bounds.size.width = width
        case (.boundsHeight, .scalar(let height)): values.bounds.size.height = height
        case (.opacity, .scalar(let opacity)): values.opacity = opacity
        case (.transform, .transform(let transform)): values.transform = transform
        case (.backgroundColor, .color(let color)): values.backgroundColor = color
        case (.cornerRadius, .scalar(let radius)): values.cornerRadius = max(0, radius)
        case (.translationX, .scalar(let x)): values.transform.tx = x
        case (.translationY, .scalar(let y)): values.transform.ty = y
        case (.rotation, .scalar(let number)), (.rotationZ, .scalar(let number)),
            (.scale, .scalar(let number)), (.scaleX, .scalar(let number)),
            (.scaleY, .scalar(let number)):
            var parts =
                TransformComponents(values.transform)
                ?? TransformComponents(
                    scaleX: 1, scaleY: 1, shear: 0, rotation: 0, translationX: values.transform.tx,
                    translationY: values.transform.ty)
            switch self {
            case .rotation, .rotationZ: parts.rotation = number
            case .scale:
                parts.shear *= parts.scaleX == 0 ? 0 : number / parts.scaleX
                parts.scaleX = number
                parts.scaleY = number
            case .scaleX: parts.scaleX = number
            default: parts.scaleY = number
            }
            values.transform = parts.transform
        default:
            break
        }
    }
}
