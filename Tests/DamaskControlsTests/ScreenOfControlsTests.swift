import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("A screen of controls") @MainActor struct ScreenOfControlsTests {
        /// Creates `count` views with `make` in rows of stacks (or plain views at the same
        /// frames), lays them out and draws the first frame on a 1280×800 window; the CPU
        /// seconds it took.
        static func firstFrame(count: Int, controls: Bool) async -> Double {
            let harness = ControlHarness(width: 1280, height: 800)
            await harness.settle()
            let start = ThreadCPUTime.now()
            let columns = 8
            let column = StackView(frame: CGRect(x: 0, y: 0, width: 1280, height: 800))
            column.axis = .vertical
            column.distribution = .fillEqually
            let plain = View(frame: CGRect(x: 0, y: 0, width: 1280, height: 800))
            for rowIndex in 0..<(count / columns) {
                if controls {
                    let row = StackView(arrangedSubviews: (0..<columns).map { index -> View in
                        switch (rowIndex + index) % 5 {
                        case 0: return Button(title: "Button \(index)")
                        case 1: return Label(text: "Label \(rowIndex).\(index)")
                        case 2: return Switch(isOn: index % 2 == 0)
                        case 3: return Slider(value: Float(index) / 8)
                        default: return ProgressView(progress: CGFloat(index) / 8)
                        }
                    })
                    row.distribution = .fillEqually
                    row.spacing = 8
                    row.alignment = .center
                    column.addArrangedSubview(row)
                } else {
                    for index in 0..<columns {
                        let view = View(frame: CGRect(x: CGFloat(index) * 160, y: CGFloat(rowIndex) * 32, width: 152, height: 24))
                        view.backgroundColor = .gray
                        plain.addSubview(view)
                    }
                }
            }
            harness.root.addSubview(controls ? column : plain)
            await harness.step()
            return ThreadCPUTime.since(start)
        }

        /// The target is 16 ms in a release build (and 3× a plain tree); this debug
        /// build measured 39 ms and 5.8× (plain views that draw nothing are a cheap
        /// baseline). The bound here, 64 ms of CPU (times the sanitizers' slowdown), catches a
        /// regression by a factor, not the release target.
        @Test("200 controls in stacks are made, laid out and drawn for the first frame within 64 ms of CPU (debug build); the ratio to a plain tree is printed")
        func twoHundredControls() async {
            // Warm the font and glyph caches and the code paths once; then the best of three.
            _ = await Self.firstFrame(count: 200, controls: true)
            _ = await Self.firstFrame(count: 200, controls: false)
            var controls = Double.infinity, plain = Double.infinity
            for _ in 0..<3 {
                controls = min(controls, await Self.firstFrame(count: 200, controls: true))
                plain = min(plain, await Self.firstFrame(count: 200, controls: false))
            }
            print("200 controls: \(controls * 1000) ms CPU; 200 plain views: \(plain * 1000) ms; ratio \(controls / plain)")
            #expect(controls < WallClockBound.seconds(0.064), "\(controls * 1000) ms")
        }
    }
}
