import Foundation

extension Window {
    /// Input from the surface goes through ``dispatch(_:)``, like every other event.
    public func surface(_ surface: any Surface, didReceive event: Event) {
        dispatch(event)
    }
}
