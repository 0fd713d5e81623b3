import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Label", .timeLimit(.minutes(5))) @MainActor struct LabelTests {
        static let sample = "Damask wraps text to the width of its label. Привет, мир. 漢字も折り返す。"

        @Test("wraps at word boundaries, truncates the last line shown with an ellipsis")
        func wrapsAndTruncates() {
            let label = Label(frame: CGRect(x: 0, y: 0, width: 120, height: 200), text: Self.sample)
            let lines = label.displayedLines
            #expect(lines.count > 2)
            #expect(lines.allSatisfy { label.font.measure($0).width <= 120 })
            label.numberOfLines = 2
            #expect(label.displayedLines.count == 2)
            #expect(label.displayedLines[1].hasSuffix("…"))
            label.lineBreakMode = .byTruncatingHead
            #expect(label.displayedLines[1].hasPrefix("…"))
            #expect(label.displayedLines[1].hasSuffix("折り返す。"))
            label.lineBreakMode = .byTruncatingMiddle
            let middle = label.displayedLines[1]
            #expect(middle.contains("…") && !middle.hasPrefix("…") && !middle.hasSuffix("…"))
            #expect(label.font.measure(middle).width <= 120)
        }

        @Test("intrinsic size is the widest line by the lines' height; sizeThatFits wraps to the width")
        func sizing() {
            let label = Label(text: "one\nthree three")
            let size = label.intrinsicContentSize
            #expect(size.width == label.font.measure("three three").width.rounded(.up))
            #expect(size.height == (label.font.ascent + label.font.descent + label.font.lineHeight).rounded(.up))
            let narrow = label.sizeThatFits(CGSize(width: label.font.measure("three").width + 1, height: 0))
            #expect(narrow.height > size.height)
        }

        @Test("right alignment and natural alignment of Arabic put the ink at the right edge")
        func alignment() async throws {
            let harness = ControlHarness(width: 200, height: 30)
            harness.root.backgroundColor = .white
            let label = Label(frame: CGRect(x: 0, y: 0, width: 200, height: 30), text: "مرحبا", color: .black)
            harness.root.addSubview(label)
            await harness.settle()
            let screen = try harness.screen()
            let inkColumns = (0..<200).filter { x in (0..<30).contains { y in screen.color(x: x, y: y).red < 0.5 } }
            #expect(try #require(inkColumns.min()) > 120)
            #expect(try #require(inkColumns.max()) >= 190)
        }

        @Test("draws in both appearances as the references show, and an appearance change redraws it")
        func referenceImages() async throws {
            for appearance in Appearance.allCases {
                try await with(appearance) {
                    let harness = ControlHarness(width: 220, height: 70)
                    harness.root.backgroundColor = appearance.palette.windowBackground
                    let label = Label(frame: CGRect(x: 6, y: 4, width: 208, height: 62), text: Self.sample)
                    label.textAlignment = .center
                    harness.root.addSubview(label)
                    await harness.settle()
                    try ReferenceImage.check(try harness.screen(), named: "label-\(appearance)")
                }
            }
        }

        @Test("changing one word damages only the changed glyphs, not the label's frame")
        func damageFollowsGlyphs() async {
            let harness = ControlHarness(width: 200, height: 40)
            let label = Label(frame: CGRect(x: 0, y: 0, width: 200, height: 40), text: "count 1 of 9", color: .black)
            label.textAlignment = .left
            harness.root.addSubview(label)
            await harness.settle()
            let before = harness.commitCount
            label.text = "count 2 of 9"
            await harness.step()
            #expect(harness.commitCount == before + 1)
            let damage = harness.lastDamage.boundingBox
            #expect(damage.width > 0 && damage.width < 20)
        }

        @Test("lines are Font.wrap's, for one line that fits (taken without wrapping) and for every line break")
        func linesAreTheFontsWrap() {
            let texts = ["", "Label 1.2", "a few words that wrap", "one\ntwo", "x\u{2028}y", "a\r\nb", "p\u{85}q", "مرحبا بالعالم", Self.sample]
            for text in texts {
                for width in [12, 60, 150, 2000] as [CGFloat] {
                    let label = Label(frame: CGRect(x: 0, y: 0, width: width, height: 2000), text: text)
                    #expect(label.displayedLines == label.font.wrap(text, toWidth: width), "\(text.debugDescription) at \(width)")
                    let lines = label.font.wrap(text, toWidth: width)
                    let widest = lines.map { label.font.measure($0).width }.max() ?? 0
                    #expect(label.sizeThatFits(CGSize(width: width, height: 0)).width == widest.rounded(.up))
                }
            }
        }
    }
}
