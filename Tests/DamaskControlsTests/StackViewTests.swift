import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("StackView") @MainActor struct StackViewTests {
        /// A view with a fixed intrinsic size.
        final class Sized: View {
            let size: CGSize
            init(_ width: CGFloat, _ height: CGFloat) {
                size = CGSize(width: width, height: height)
                super.init(frame: .zero)
            }
            override var intrinsicContentSize: CGSize { size }
        }

        @Test("fill: intrinsic widths with spacing, the last view takes the rest; alignment places across")
        func horizontalFill() {
            let a = Sized(30, 10), b = Sized(40, 20), c = Sized(20, 30)
            let stack = StackView(frame: CGRect(x: 0, y: 0, width: 200, height: 40), arrangedSubviews: [a, b, c])
            stack.spacing = 5
            stack.alignment = .center
            stack.layoutIfNeeded()
            #expect(a.frame == CGRect(x: 0, y: 15, width: 30, height: 10))
            #expect(b.frame == CGRect(x: 35, y: 10, width: 40, height: 20))
            #expect(c.frame == CGRect(x: 80, y: 5, width: 120, height: 30))
            #expect(stack.intrinsicContentSize == CGSize(width: 100, height: 30))
        }

        @Test("fillEqually, equalSpacing and a hidden view in a column")
        func verticalDistributions() {
            let a = Sized(30, 10), b = Sized(40, 20), c = Sized(20, 30)
            let stack = StackView(frame: CGRect(x: 0, y: 0, width: 50, height: 120), arrangedSubviews: [a, b, c])
            stack.axis = .vertical
            stack.distribution = .fillEqually
            stack.spacing = 6
            stack.layoutIfNeeded()
            #expect([a, b, c].map(\.frame.height) == [36, 36, 36])
            #expect([a, b, c].map(\.frame.minY) == [0, 42, 84])
            #expect(a.frame.width == 50)  // .fill alignment stretches across
            stack.distribution = .equalSpacing
            stack.alignment = .trailing
            stack.layoutIfNeeded()
            #expect([a, b, c].map(\.frame.minY) == [0, 40, 90])  // (120 − 60) / 2 = 30 per gap
            #expect(c.frame == CGRect(x: 30, y: 90, width: 20, height: 30))
            b.isHidden = true
            stack.setNeedsLayout()
            stack.layoutIfNeeded()
            #expect([a, c].map(\.frame.minY) == [0, 90])
        }

        @Test("a control whose title grows lays the stack out again at the next pass")
        func intrinsicChangeRelayouts() async {
            let harness = ControlHarness(width: 300, height: 40)
            let first = Button(title: "A"), second = Button(title: "B")
            let stack = StackView(frame: CGRect(x: 0, y: 0, width: 300, height: 40), arrangedSubviews: [first, second])
            stack.distribution = .equalSpacing
            harness.root.addSubview(stack)
            await harness.settle()
            let before = first.frame.width
            first.title = "A much longer title"
            await harness.step()
            #expect(first.frame.width > before + 50)
            #expect(second.frame.maxX == 300)
        }
    }
}
