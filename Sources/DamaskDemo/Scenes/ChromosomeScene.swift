import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `chromosome` scene: the seeds' `ChromosomeBlockView`, whose data "arrives from the
/// network" while a spinner turns, and two buttons that show the difference between
/// `setNeedsDisplay()` (draws in the next display pass) and `displayNow()` (has drawn when
/// it returns).
///
/// The sequence is read by a background thread (off the main actor) after a simulated
/// latency and handed back on the main queue; the spinner's display link presents it once the
/// latency has passed in frames (one frame per 16 ms of latency; the spinner advances every
/// ``framesPerPhase`` frames), so every run draws the same frames, whatever the
/// compositor's timing. Main-actor.
final class ChromosomeScene: DemoScene {
    /// The blocks.
    let chromosomeBlockView: ChromosomeBlockView
    private let spinner: ActivityIndicatorView
    private let statusLabel: Label
    private let countLabel: Label
    private var spinnerLink: DisplayLink?
    private var framesSinceLoadStart = 0
    private var arrived: Result<String, any Error>?
    private var generation = 0
    private var highlightIndex = 0

    /// How many frames one spinner phase lasts.
    static let framesPerPhase = 5
    /// The nominal length of a frame, in milliseconds, for turning latency into frames.
    static let frameMilliseconds: UInt32 = 16
    private static let highlightCycle: [Character?] = ["A", "C", "G", "T", nil]

    init(environment: DemoEnvironment) {
        chromosomeBlockView = ChromosomeBlockView(frame: CGRect(x: DemoStyle.margin, y: 156, width: 572, height: 312))
        spinner = ActivityIndicatorView(frame: CGRect(x: DemoStyle.margin + 266, y: 292, width: 40, height: 40))
        statusLabel = Label.scene(frame: CGRect(x: DemoStyle.margin, y: 476, width: 572, height: 36), font: DemoStyle.captionFont)
        countLabel = Label.scene(
            frame: CGRect(x: DemoStyle.margin, y: 512, width: 572, height: 18), font: DemoStyle.captionFont,
            role: .secondaryText)
        super.init(
            name: "chromosome", sidebarTitle: "Chromosome", title: "setNeedsDisplay vs displayNow",
            summary: "The sequence arrives from a background task and is drawn in the next pass.\n"
                + "displayNow() draws before it returns; setNeedsDisplay() only records.",
            environment: environment)
        chromosomeBlockView.onDraw = { [weak self] view in
            self?.countLabel.text = "ChromosomeBlockView draw(_:) calls: \(view.drawCount)"
        }
        addSubview(chromosomeBlockView)
        addSubview(spinner)
        addSubview(statusLabel)
        addSubview(countLabel)
        let buttons: [(String, CGFloat, @MainActor (ChromosomeScene) -> Void)] = [
            ("setNeedsDisplay()", 150, { $0.redraw(synchronously: false) }),
            ("displayNow()", 120, { $0.redraw(synchronously: true) }),
            ("Reload", 80, { $0.startLoading() }),
        ]
        var x = DemoStyle.margin
        for (title, width, action) in buttons {
            let button = Button(frame: CGRect(x: x, y: contentTop, width: width, height: 30), title: title)
            button.action = { [weak self] in if let self { action(self) } }
            addSubview(button)
            x += width + 10
        }
        spinner.isHidden = true
    }

    override func sceneDidAppear() {
        if chromosomeBlockView.sequenceString == nil, spinnerLink == nil { startLoading() }
    }

    override func sceneWillDisappear() {
        super.sceneWillDisappear()
        // Loading goes on; the spinner link stops and resumes when the scene is back.
        spinnerLink?.invalidate()
        spinnerLink = nil
        generation += 1
    }

    /// Forgets the sequence and fetches it again.
    func startLoading() {
        generation += 1
        let ticket = generation
        arrived = nil
        framesSinceLoadStart = 0
        chromosomeBlockView.sequenceString = nil
        spinner.isHidden = false
        statusLabel.text = "Fetching the sequence…"
        spinnerLink?.invalidate()
        if let window {
            spinnerLink = DisplayLink(window: window) { [weak self] _, _ in
                self?.spinnerFrame()
            }
        }
        let path = environment.sequencePath
        let latency = environment.networkLatencyMilliseconds
        let sleeps = !environment.isDeterministic
        // A plain thread, not a detached task: the first job on Swift's global executor (or any
        // global dispatch queue) starts libdispatch's worker pool, whose monitor timer then
        // wakes the process once a second for as long as it runs.
        let loader = Thread { [weak self] in
            if sleeps { Thread.sleep(forTimeInterval: Double(latency) / 1000) }
            let result = Result<String, any Error> { try SequenceLoader.load(path: path) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.sequenceDidArrive(result, ticket: ticket) }
            }
        }
        loader.name = "damask-sequence-loader"
        loader.start()
    }

    private func sequenceDidArrive(_ result: Result<String, any Error>, ticket: Int) {
        guard ticket == generation else { return }
        if case .failure(let error) = result {
            // On stderr too: a bad --sequence must not be visible only inside the window.
            StandardError.write("damask-demo: \(error)")
        }
        arrived = result
    }

    private func spinnerFrame() {
        let latencyFrames = Int(environment.networkLatencyMilliseconds / Self.frameMilliseconds)
        framesSinceLoadStart = min(framesSinceLoadStart + 1, latencyFrames)
        guard framesSinceLoadStart >= latencyFrames else {
            spinner.phase = framesSinceLoadStart / Self.framesPerPhase
            return
        }
        // The latency is over. The spinner keeps its last phase until the loader thread has
        // handed the sequence over, so how many spinner frames draw does not depend on when
        // that thread finishes (it sleeps in real time; frames come at the compositor's pace).
        if let arrived { present(arrived) }
    }

    private func present(_ result: Result<String, any Error>) {
        spinnerLink?.invalidate()
        spinnerLink = nil
        arrived = nil
        spinner.isHidden = true
        switch result {
        case .success(let sequence):
            // As in the seed: set the properties, then ask for a redraw.
            chromosomeBlockView.sequenceString = sequence
            chromosomeBlockView.nucleotideBases = ChromosomeBlockView.standardBases
            chromosomeBlockView.setNeedsDisplay()
            statusLabel.text = "\(sequence.count) bases arrived after \(environment.networkLatencyMilliseconds) ms; "
                + "setNeedsDisplay() drew them in the next display pass."
        case .failure(let error):
            statusLabel.text = "The sequence could not be loaded: \(error)"
        }
    }

    /// Changes the highlighted base and redraws with `displayNow()` or `setNeedsDisplay()`.
    func redraw(synchronously: Bool) {
        guard chromosomeBlockView.sequenceString != nil else { return }
        highlightIndex = (highlightIndex + 1) % Self.highlightCycle.count
        chromosomeBlockView.highlightedBase = Self.highlightCycle[highlightIndex]
        let before = chromosomeBlockView.drawCount
        let start = DemoEnvironment.now()
        if synchronously {
            chromosomeBlockView.displayNow()
        } else {
            chromosomeBlockView.setNeedsDisplay()
        }
        let milliseconds = (DemoEnvironment.now() - start) * 1000
        let draws = chromosomeBlockView.drawCount - before
        let base = chromosomeBlockView.highlightedBase.map { "\($0) highlighted" } ?? "no highlight"
        if synchronously {
            statusLabel.text = "displayNow(): \(draws) draw before it returned, which took "
                + environment.format(milliseconds: milliseconds) + " (\(base)).\n"
                + "The window presents the new pixels with its next commit."
        } else {
            statusLabel.text = "setNeedsDisplay(): \(draws) draws before it returned, which took "
                + environment.format(milliseconds: milliseconds) + " (\(base)).\n"
                + "The draw happens in the next display pass, at the end of this turn."
        }
    }
}
