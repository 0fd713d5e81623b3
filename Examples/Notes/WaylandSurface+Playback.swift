import DamaskGraphics
import DamaskPlayback
import DamaskWayland

/// Lets the script player check pixels and wait for frames on a real compositor, as
/// `damask-demo` does: DamaskWayland and DamaskPlayback do not depend on each other, so
/// the program that links both states the conformance (the presented content is the
/// buffer last committed, which the window does not touch again until it presents another).
/// A program outside the Damask package writes `@retroactive` before each protocol; inside
/// it (this example) the compiler rejects the attribute, the three modules being one package's.
extension WaylandSurface: PresentedContentProvider, FrameRequestReporting {
    /// The pixels of the last committed buffer, or `nil` before the first commit.
    public var presentedContent: Bitmap? { presentedBuffer?.bitmap }

    /// Whether a frame callback or an idle frame is on its way.
    public var hasPendingFrameRequest: Bool { isFramePending || isIdleFramePending }
}
