import DamaskGraphics
import DamaskViews
import Foundation

/// Expectations and screenshots.
extension ScriptPlayer {
    /// Checks one `expect` statement, recording a failure if it does not hold.
    func check(_ statement: ScriptStatement) async throws(PlaybackError) {
        let location = statement.location
        switch statement.command {
        case .expectText, .expectPasteboard:
            // Text and selections are the views' and the seat's state, not what was drawn:
            // they change as events are dispatched (or when a paste's pipe delivers), and
            // these checks look again until they hold. Settling first would only wait for
            // an idle window, which a focused field's blinking caret on a real compositor
            // keeps busy until the settle limit (about 10 s a check).
            break
        default:
            if options.settlesBeforeChecks { try await settle(at: location) }
        }
        let failure: Mismatch?
        switch statement.command {
        case .expectPixel(let point, let color, let tolerance):
            failure = try checkPixel(at: point, color: color, tolerance: tolerance, at: location)
        case .expectImage(let path, let tolerance):
            failure = try checkImage(path, tolerance: tolerance, at: location)
        case .expectDamageWithin(let rects):
            failure = checkDamage(rects, exactly: false)
        case .expectDamageExactly(let rects):
            failure = checkDamage(rects, exactly: true)
        case .expectDamageAtScale(let scale, let exactly, let rects):
            // Another scale's damage: passed over, the damage keeps accumulating.
            guard window.scale == scale else { return }
            failure = checkDamage(rects, exactly: exactly, scaledBy: 1)
        case .expectNoDamage:
            failure = checkDamage([], exactly: true)
        case .expectDraws(let count):
            failure =
                drawsSinceCheck == count
                ? nil : Mismatch(expected: "\(count) draws", actual: "\(drawsSinceCheck) draws")
            drawsSinceCheck = 0
        case .expectText(let text):
            failure = await checkText(text)
        case .expectPasteboard(let kind, let text):
            failure = await checkPasteboard(kind, text)
        default:
            failure = nil
        }
        guard let failure else { return }
        report.failures.append(
            ExpectationFailure(
                location: location, command: ScriptPrinter.line(for: statement.command),
                expected: failure.expected, actual: failure.actual,
                actualImagePath: failure.actualImagePath,
                differenceImagePath: failure.differenceImagePath))
    }

    /// Writes the presented content to `path` as PNG, creating its directory.
    func screenshot(to path: String, at location: SourceLocation) async throws(PlaybackError) {
        if options.settlesBeforeChecks { try await settle(at: location) }
        let bitmap = try presented(at: location)
        try write(bitmap, to: path, purpose: "the screenshot", at: location)
        report.screenshots.append(path)
    }

    private func presented(at location: SourceLocation) throws(PlaybackError) -> Bitmap {
        guard let contentProvider else {
            throw PlaybackError("this surface cannot show its presented content", at: location)
        }
        guard let bitmap = contentProvider.presentedContent else {
            throw PlaybackError("nothing has been presented yet", at: location)
        }
        return bitmap
    }

    private func checkPixel(
        at point: CGPoint, color: PixelColor, tolerance: Int, at location: SourceLocation
    ) throws(PlaybackError) -> Mismatch? {
        let bitmap = try presented(at: location)
        let x = Int((point.x * window.scale).rounded(.down))
        let y = Int((point.y * window.scale).rounded(.down))
        let expected = tolerance == 0 ? "\(color)" : "\(color) ±\(tolerance)"
        guard (0..<bitmap.width).contains(x), (0..<bitmap.height).contains(y) else {
            return Mismatch(
                expected: expected,
                actual: "pixel \(x),\(y) outside the \(bitmap.width)x\(bitmap.height) buffer")
        }
        let actual = PixelColor(argb32: bitmap.pixel(x: x, y: y))
        return actual.distance(to: color) <= tolerance
            ? nil : Mismatch(expected: expected, actual: "\(actual)")
    }

    private func checkImage(
        _ path: String, tolerance: Int, at location: SourceLocation
    ) throws(PlaybackError) -> Mismatch? {
        let bitmap = try presented(at: location)
        let resolved = script.resolve(path)
        let reference: Bitmap
        do {
            // Decoded once, by the parser; a script built by hand is read here.
            reference = try script.referenceImages[resolved]?.bitmap() ?? Bitmap(contentsOfPNGFile: resolved)
        } catch {
            throw PlaybackError("cannot read reference image '\(path)': \(error)", at: location)
        }
        let difference = Bitmap.difference(bitmap, reference, tolerance: tolerance)
        let sameSize = bitmap.width == reference.width && bitmap.height == reference.height
        guard !sameSize || !difference.isWithinTolerance else { return nil }

        let stem = ((script.file as NSString).lastPathComponent as NSString).deletingPathExtension
        let base = (try artifactsDirectory(at: location) as NSString).appendingPathComponent(
            "\(stem)-line\(location.line)")
        let actualPath = base + "-actual.png"
        let differencePath = base + "-difference.png"
        try write(bitmap, to: actualPath, purpose: "the actual image", at: location)
        try write(difference.image, to: differencePath, purpose: "the difference image", at: location)
        let expected = "image \(path) (\(reference.width)x\(reference.height)) within ±\(tolerance)"
        let actual =
            sameSize
            ? "\(difference.differingPixelCount) pixels differ (largest channel difference "
                + "\(difference.maximumChannelDelta))"
            : "a \(bitmap.width)x\(bitmap.height) buffer"
        return Mismatch(
            expected: expected, actual: actual, actualImagePath: actualPath,
            differenceImagePath: differencePath)
    }

    /// Compares the damage since the last damage check (buffer pixels) with `rects` (points,
    /// multiplied by `scale`, the window's unless given) and starts a new accumulation.
    private func checkDamage(_ rects: [CGRect], exactly: Bool, scaledBy givenScale: CGFloat? = nil) -> Mismatch? {
        let scale = givenScale ?? window.scale
        let expected = Region(
            rects: rects.map {
                CGRect(x: $0.minX * scale, y: $0.minY * scale, width: $0.width * scale,
                    height: $0.height * scale)
            })
        let actual = damageSinceCheck
        damageSinceCheck = Region()
        let outside = actual.subtracting(expected)
        let missing = expected.subtracting(actual)
        let holds = exactly ? outside.isEmpty && missing.isEmpty : outside.isEmpty
        guard !holds else { return nil }
        let wanted =
            rects.isEmpty
            ? "no damage"
            : (exactly ? "damage exactly " : "damage within ") + ScriptPlayer.describe(expected)
        var found = actual.isEmpty ? "no damage" : "damage " + ScriptPlayer.describe(actual)
        if !outside.isEmpty, !rects.isEmpty { found += ", outside: " + ScriptPlayer.describe(outside) }
        if exactly, !missing.isEmpty { found += ", missing: " + ScriptPlayer.describe(missing) }
        return Mismatch(expected: wanted, actual: found)
    }

    /// `x y w h, …` of a region's rects, with the unit.
    static func describe(_ region: Region) -> String {
        region.rects.map {
            "\(Int($0.minX)) \(Int($0.minY)) \(Int($0.width)) \(Int($0.height))"
        }.joined(separator: ", ") + " px"
    }

    /// Writes `bitmap` as a PNG at `path` (creating its directory) through ``OutputFile``:
    /// never over the script or a reference image, never through a symbolic link, replaced
    /// atomically.
    ///
    /// - Throws: `PlaybackError` naming what, where and why (`cannot write the screenshot to
    ///   'x.png': No space left on device`).
    public func write(
        _ bitmap: Bitmap, to path: String, purpose: String, at location: SourceLocation
    ) throws(PlaybackError) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw PlaybackError(
                    "cannot write \(purpose) to '\(path)': cannot create its directory", at: location)
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try bitmap.pngData()
        } catch {
            throw PlaybackError("cannot write \(purpose) to '\(path)': \(error)", at: location)
        }
        do {
            try OutputFile(path: path, purpose: purpose, inputs: inputPaths).write(bytes)
        } catch {
            throw PlaybackError(error.description, at: location)
        }
    }

    /// The files the script reads: itself and its reference images (outputs must not
    /// replace them).
    var inputPaths: [String] {
        var paths = [script.file]
        for statement in script.statements {
            if case .expectImage(let path, _) = statement.command { paths.append(script.resolve(path)) }
        }
        return paths
    }

    /// The directory for failure images: the one the options name (created if missing), or
    /// a private one made with `mkdtemp` on first use.
    private func artifactsDirectory(at location: SourceLocation) throws(PlaybackError) -> String {
        if let directory = options.artifactsDirectory ?? privateArtifactsDirectory { return directory }
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("damask-playback-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else {
            throw PlaybackError(
                "cannot create a directory for the failure images in \(FileManager.default.temporaryDirectory.path): "
                    + String(cString: strerror(errno)), at: location)
        }
        let directory = String(cString: made)
        privateArtifactsDirectory = directory
        return directory
    }
}
