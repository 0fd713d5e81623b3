import DamaskGraphics
import Foundation

/// Explicit and implicit animations, the presentation values the compositor shows, and
/// the action search (Core Animation's model, reduced; see docs/drawing-model.md,
/// "Animations").
///
/// A property change sets the model value at once: reading the property returns the new
/// value. An animation added to the layer changes only what is shown: on every frame of
/// the window the layer's presentation values are recomputed from the model values and
/// the running animations, and the window recomposites the layer (no `draw`) with damage
/// covering its old and new footprints. When the last animation ends, the layer shows its
/// model values again and the window stops asking for frames.
extension Layer {
    // MARK: Presented values (what the compositor shows)

    /// The bounds shown in the frame being composited.
    var presentedBounds: CGRect { presentationValues?.bounds ?? bounds }
    /// The opacity shown in the frame being composited.
    var presentedOpacity: CGFloat { presentationValues?.opacity ?? opacity }
    /// The background colour shown in the frame being composited.
    var presentedBackgroundColor: Color? {
        presentationValues.map(\.backgroundColor) ?? backgroundColor
    }
    /// The corner radius shown in the frame being composited.
    var presentedCornerRadius: CGFloat { presentationValues?.cornerRadius ?? cornerRadius }

    /// Maps the layer's coordinates to its superlayer's as composited (presented
    /// position, bounds and transform).
    var presentedTransformToSuperlayer: CGAffineTransform {
        guard let values = presentationValues else { return transformToSuperlayer }
        return CGAffineTransform(translationX: -values.bounds.minX, y: -values.bounds.minY)
            .concatenating(
                CGAffineTransform(
                    translationX: -anchorPoint.x * values.bounds.width,
                    y: -anchorPoint.y * values.bounds.height)
            )
            .concatenating(values.transform)
            .concatenating(CGAffineTransform(translationX: values.position.x, y: values.position.y))
    }

    /// A copy of the layer showing the values of the frame on screen (Core Animation's
    /// presentation layer): its animatable properties hold the presentation values, the
    /// rest the model's. The copy is in no tree, has no sublayers, contents or delegate,
    /// and runs no actions.
    public func presentation() -> Self {
        let copy = type(of: self).init()
        let values = presentationValues ?? LayerPresentationValues(modelOf: self)
        copy.anchorPoint = anchorPoint
        copy.bounds = values.bounds
        copy.position = values.position
        copy.transform = values.transform
        copy.opacity = values.opacity
        copy.backgroundColor = values.backgroundColor
        copy.cornerRadius = values.cornerRadius
        copy.isHidden = isHidden
        copy.masksToBounds = masksToBounds
        copy.contentsScale = contentsScale
        return copy
    }

    // MARK: Explicit animations

    /// Adds `animation` for `key` (replacing the animation added for the same key, which
    /// ends unfinished), as Core Animation's `add(_:forKey:)`. The layer keeps a copy.
    ///
    /// The animation starts on the window's next frame (after its ``Animation/delay``);
    /// a layer in no window keeps it until it joins one. An animation whose key path or
    /// values Damask cannot animate is reported once on standard error and not added.
    public func add(_ animation: Animation, forKey key: String?) {
        let name = String(describing: type(of: animation))
        guard let keyPathName = animation.animatedKeyPath else {
            reportAnimationProblem(
                "damask: \(name) added for key \(key.map { "'\($0)'" } ?? "nil") has no key path; it is not added")
            return
        }
        guard let keyPath = AnimatableKeyPath(rawValue: keyPathName) else {
            reportAnimationProblem(
                "damask: \(name) for key path '\(keyPathName)' cannot run: Damask animates "
                    + "\(AnimatableKeyPath.supportedList); it is not added")
            return
        }
        if let problem = animation.validationProblem(for: keyPath.kind) {
            reportAnimationProblem(
                "damask: \(name) for key path '\(keyPathName)' cannot run: \(problem); it is not added")
            return
        }
        let copy = animation.copy()
        if copy.duration <= 0 { copy.duration = max(0, Transaction.animationDuration()) }
        let start = keyPath.read(shownValues)  // before a replaced animation stops showing
        if let key { removeAnimation(forKey: key) }
        let running = RunningAnimation(
            key: key, animation: copy, keyPath: keyPath, start: start,
            groups: AnimationCompletionGroup.openGroups)
        if let driver = host?.existingAnimationDriver, driver.isTicking {
            running.beginTime = driver.currentTime + max(0, copy.delay)
        }
        runningAnimations.append(running)
        updatePresentation(at: animationTime)
        host?.animationDriver.layerDidAddAnimation(self)
    }

    /// Removes the animation added for `key`; it ends unfinished.
    public func removeAnimation(forKey key: String) {
        guard let index = runningAnimations.firstIndex(where: { $0.key == key }) else { return }
        let running = runningAnimations.remove(at: index)
        running.end(finished: false)
        updatePresentation(at: animationTime)
    }

    /// Removes every animation; each ends unfinished.
    public func removeAllAnimations() {
        guard !runningAnimations.isEmpty else { return }
        let removed = runningAnimations
        runningAnimations.removeAll()
        for running in removed { running.end(finished: false) }
        updatePresentation(at: animationTime)
    }

    /// The animation added for `key` (the layer's copy), or `nil`.
    public func animation(forKey key: String) -> Animation? {
        runningAnimations.first { $0.key == key }?.animation
    }

    /// The keys of the animations added with one, in order; `nil` when there are none.
    public func animationKeys() -> [String]? {
        let keys = runningAnimations.compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    // MARK: Actions

    /// A model property changed from `old`: runs its action, as Core Animation does, when
    /// the layer is in a window, is not a window's root layer and actions are enabled, then
    /// keeps the presentation values current.
    func propertyDidChange(_ keyPath: AnimatableKeyPath, from old: AnimationValue) {
        if hostWindow == nil, host != nil, !Transaction.disableActions(),
            let action = action(forKey: keyPath.rawValue), !(action is NullAction)
        {
            changeInProgress = (keyPath, old)
            action.run(forKey: keyPath.rawValue, object: self)
            changeInProgress = nil
        }
        if !runningAnimations.isEmpty { updatePresentation(at: animationTime) }
    }

    /// The values shown now: the presentation values, or the model values (with the
    /// property being changed still at its old value).
    private var shownValues: LayerPresentationValues {
        if let presentationValues { return presentationValues }
        var values = LayerPresentationValues(modelOf: self)
        if let (keyPath, old) = changeInProgress { keyPath.write(old, into: &values) }
        return values
    }

    /// The frame time the presentation values were last computed for.
    private var animationTime: Double? { host?.existingAnimationDriver?.currentTimeIfStarted }

    // MARK: Frames

    /// Whether some animation still changes what is shown as frames pass.
    var needsAnimationFrames: Bool { runningAnimations.contains { $0.needsFrames } }

    /// Recomputes the presentation values at `time` (seconds on the window's frame clock;
    /// `nil` before the first frame), drops finished animations that are removed on
    /// completion, and records the change for the window's damage.
    ///
    /// In a frame (`inFrame`), animations not started yet start at `time` (plus their
    /// delay) and the animations that reached their end are returned: the caller tells
    /// their groups after the frame's other layers. Otherwise they are told now.
    @discardableResult
    func updatePresentation(at time: Double?, inFrame: Bool = false) -> [RunningAnimation] {
        let model = LayerPresentationValues(modelOf: self)
        var values = model
        var ended: [RunningAnimation] = []
        var kept: [RunningAnimation] = []
        for running in runningAnimations {
            if running.beginTime == nil, inFrame, let time {
                running.beginTime = time + max(0, running.animation.delay)
            }
            let animation = running.animation
            let local = running.localTime(at: time)
            // Frame times are whole milliseconds: a microsecond's slack keeps a frame that
            // lands on the end from showing a value a rounding error short of it.
            let isPastEnd = running.beginTime != nil && local >= animation.activeDuration - 1e-6
            if let progress = animation.progress(atLocalTime: local),
                let value = animation.value(
                    atProgress: progress, start: running.start, model: running.keyPath.read(model))
            {
                running.keyPath.write(value, into: &values)
            }
            if isPastEnd, !running.hasEnded { ended.append(running) }
            if isPastEnd, animation.isRemovedOnCompletion { continue }
            kept.append(running)
        }
        runningAnimations = kept
        let before = presentationValues ?? model
        let wasPresenting = presentationValues != nil
        presentationValues = kept.isEmpty ? nil : values
        if wasPresenting != (presentationValues != nil) {
            host?.layerOpaqueAreaMayHaveChanged()  // OpaqueArea leaves animating layers out
        }
        let after = presentationValues ?? model
        if before != after {
            if before.backgroundColor != after.backgroundColor || before.cornerRadius != after.cornerRadius {
                appearanceDidChange()
            }
            if !after.differsOnlyInAppearance(from: before) { compositingDidChange() }
        }
        if !inFrame {
            for running in ended { running.end(finished: true) }  // not in a frame: tell now
            return []
        }
        return ended
    }

    /// Reports an animation that cannot run: counted in the window's statistics, and
    /// written once per distinct message and window (every time for a layer in no window).
    func reportAnimationProblem(_ message: String) {
        guard let statistics = host?.statistics else { return StandardError.write(message) }
        statistics.animationProblemCount += 1
        guard statistics.reportedAnimationProblems.insert(message).inserted else { return }
        StandardError.write(message)
    }
}
