import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `controls` scene: every control of DamaskControls, once in the light appearance and
/// once in the dark one, side by side, laid out by stacks.
///
/// Each panel is an ``AppearanceView`` with its own appearance, so both show whatever the
/// desktop's setting is; the rest of the demo follows the desktop. The controls work: the
/// switch starts and stops the activity indicator (off at first, so the scene is idle), the
/// slider drives the progress bar, the button counts clicks into the caption. Below them a
/// ``TextView`` of notes in the current appearance: it wraps, blinks, takes the clipboard
/// and input methods. Main-actor.
final class ControlsScene: DemoScene {
    /// The light panel, then the dark one.
    private(set) var panels: [Panel] = []
    /// The notes below the panels (the desktop's appearance, followed live).
    let notes = TextView(frame: .zero)

    /// One panel's controls.
    @MainActor struct Panel {
        let container: AppearanceView
        let stack: StackView
        let caption: Label
        let button: Button
        let disabledButton: Button
        let toggle: Switch
        let field: TextField
        let secureField: TextField
        let slider: Slider
        let progress: ProgressView
        let spinner: ActivityIndicatorView
    }

    init(environment: DemoEnvironment) {
        super.init(
            name: "controls", sidebarTitle: "Controls", title: "Controls, light and dark",
            summary: "Label, Button, TextField, Switch, Slider, ProgressView and ActivityIndicatorView from\n"
                + "DamaskControls, laid out by StackView, in both appearances.",
            environment: environment)
        for (index, appearance) in Appearance.allCases.enumerated() {
            let panel = Self.makePanel(
                appearance, frame: CGRect(x: DemoStyle.margin + CGFloat(index) * 290, y: contentTop, width: 282, height: 300))
            panels.append(panel)
            addSubview(panel.container)
        }
        notes.frame = CGRect(x: DemoStyle.margin, y: contentTop + 312, width: 572, height: 100)
        notes.accessibilityLabel = "Notes"
        notes.text = "Notes: a TextView. Its lines wrap at its width; select with the pointer or Shift, "
            + "copy and paste with Ctrl+C and Ctrl+V, compose with an input method."
        addSubview(notes)
    }

    override func sceneWillDisappear() {
        super.sceneWillDisappear()
        _ = notes.resignFirstResponder()
    }

    private static func makePanel(_ appearance: Appearance, frame: CGRect) -> Panel {
        let container = AppearanceView(frame: frame, appearance: appearance)
        let caption = Label(text: "\(appearance == .light ? "Light" : "Dark"): clicked 0 times", font: .system(size: 13, weight: .bold))
        caption.textAlignment = .left
        let button = Button(title: "Click me")
        let disabledButton = Button(title: "Disabled")
        disabledButton.isEnabled = false
        let toggle = Switch(isOn: false)
        let row = StackView(arrangedSubviews: [button, disabledButton, toggle])
        row.axis = .horizontal
        row.spacing = 8
        row.alignment = .center
        let field = TextField(placeholder: "Your name")
        let secureField = TextField(text: "secret", placeholder: "Password")
        secureField.isSecureTextEntry = true
        let slider = Slider(value: 0.4)
        slider.accessibilityLabel = "Amount"
        toggle.accessibilityLabel = "Turn the activity indicator"
        let progress = ProgressView(progress: 0.4)
        let spinner = ActivityIndicatorView()
        spinner.lineWidth = 2
        spinner.hidesWhenStopped = false  // shown still until the switch turns it
        spinner.phase = 3
        let stack = StackView(
            frame: CGRect(x: 12, y: 12, width: frame.width - 24, height: frame.height - 24),
            arrangedSubviews: [caption, row, field, secureField, slider, progress, spinner])
        stack.axis = .vertical
        stack.spacing = 12
        stack.alignment = .fill
        stack.distribution = .equalSpacing
        container.addSubview(stack)
        let panel = Panel(
            container: container, stack: stack, caption: caption, button: button, disabledButton: disabledButton,
            toggle: toggle, field: field, secureField: secureField, slider: slider, progress: progress, spinner: spinner)
        var clicks = 0
        button.action = { [weak caption] in
            clicks += 1
            caption?.text = "\(appearance == .light ? "Light" : "Dark"): clicked \(clicks) time\(clicks == 1 ? "" : "s")"
        }
        slider.addAction(for: .valueChanged) { [weak progress, weak slider] _ in
            progress?.progress = CGFloat(slider?.value ?? 0)
        }
        toggle.addAction(for: .valueChanged) { [weak spinner, weak toggle] _ in
            guard let spinner, let toggle else { return }
            if toggle.isOn { spinner.startAnimating() } else { spinner.stopAnimating() }
        }
        return panel
    }
}
