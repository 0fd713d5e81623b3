import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// The client-side decorations as views: layout per window state, resize handles, cursors,
/// and what presses on the title bar and its buttons ask of the window system.
@Suite("Window frame (client-side decorations)", .serialized, .exclusive, .timeLimit(.minutes(5))) @MainActor
struct WindowFrameTests {
    /// A 200×150 content area framed on a memory surface of 224×206 points.
    @MainActor struct Fixture {
        let surface: MemorySurface
        let window: Window
        let frame: WindowFrameView
        let content: View
        let controls = RecordingControls()

        init(states: ToplevelState = [.activated], scale: CGFloat = 1) {
            let inset = WindowFrameView.shadowInsets(for: states, serverSide: false)
            let size = CGSize(
                width: 200 + inset.left + inset.right,
                height: 150 + TitleBarView.height + inset.top + inset.bottom)
            surface = MemorySurface(size: size, scale: scale)
            window = Window(surface: surface)
            window.flashesDamage = false
            window.backgroundColor = .clear
            content = View()
            frame = WindowFrameView(contentView: content, title: "Test")
            frame.controls = controls
            controls.states = states
            frame.apply(states: states)
            window.contentView = frame
            window.displayIfNeeded()
        }

        func press(at point: CGPoint, clickCount: Int = 1) {
            window.dispatch(.pointer(PointerEvent(kind: .down, location: point, button: .left, clickCount: clickCount)))
            window.dispatch(.pointer(PointerEvent(kind: .up, location: point, button: .left)))
        }

        func center(of view: View) -> CGPoint {
            let rect = view.convert(view.bounds, to: nil)
            return CGPoint(x: rect.midX, y: rect.midY)
        }
    }

    @Test("A floating window has a shadow margin; maximized, fullscreen, tiled and server-side ones have none")
    func shadowInsetsPerState() {
        let margin = WindowInsets(all: WindowFrameView.shadowRadius)
        #expect(WindowFrameView.shadowInsets(for: [.activated], serverSide: false) == margin)
        #expect(WindowFrameView.shadowInsets(for: [], serverSide: false) == margin)
        for states: ToplevelState in [.maximized, .fullscreen, .tiledLeft, [.tiledTop, .activated]] {
            #expect(WindowFrameView.shadowInsets(for: states, serverSide: false) == .zero)
        }
        #expect(WindowFrameView.shadowInsets(for: [.activated], serverSide: true) == .zero)
    }

    @Test("The title bar sits at the top of the window proper and the content fills the rest")
    func layoutInsideShadow() {
        let fixture = Fixture()
        let m = WindowFrameView.shadowRadius
        #expect(fixture.frame.windowRect == CGRect(x: m, y: m, width: 200, height: 182))
        #expect(fixture.frame.titleBar.frame == CGRect(x: m, y: m, width: 200, height: TitleBarView.height))
        #expect(fixture.frame.contentClipView.frame == CGRect(x: m, y: m + TitleBarView.height, width: 200, height: 150))
        #expect(fixture.frame.contentClipView.clipsToBounds)
        #expect(fixture.content.frame == CGRect(x: 0, y: 0, width: 200, height: 150))
    }

    @Test("Fullscreen and server-side decorations hide the title bar; the content takes its place")
    func titleBarHides() {
        let fixture = Fixture()
        fixture.frame.apply(states: [.fullscreen])
        fixture.frame.layoutIfNeeded()
        #expect(fixture.frame.titleBar.isHidden)
        #expect(fixture.frame.contentClipView.frame.minY == 0)
        fixture.frame.apply(states: [.activated])
        fixture.frame.usesServerSideDecorations = true
        fixture.frame.layoutIfNeeded()
        #expect(fixture.frame.titleBar.isHidden)
        #expect(fixture.frame.shadowInsets == .zero)
    }

    @Test("The activated state changes the title bar's look, and redraws it")
    func activatedRestyles() async throws {
        let fixture = Fixture(states: [.activated])
        #expect(fixture.frame.titleBar.isActive)
        let active = try fixture.window.renderImage()
        fixture.frame.apply(states: [])
        #expect(!fixture.frame.titleBar.isActive)
        let inactive = try fixture.window.renderImage()
        let point = (x: 20, y: 14)
        #expect(active.pixel(x: point.x, y: point.y) != inactive.pixel(x: point.x, y: point.y))
    }

    @Test("Dragging the title bar past the threshold starts a move; a click does not")
    func titleBarDrag() {
        let fixture = Fixture()
        let bar = CGPoint(x: 60, y: WindowFrameView.shadowRadius + 10)
        fixture.press(at: bar)
        #expect(fixture.controls.requests.isEmpty)
        fixture.window.dispatch(.pointer(PointerEvent(kind: .down, location: bar, button: .left, clickCount: 1)))
        fixture.window.dispatch(.pointer(PointerEvent(kind: .moved, location: CGPoint(x: bar.x + 2, y: bar.y))))
        #expect(fixture.controls.requests.isEmpty)
        fixture.window.dispatch(.pointer(PointerEvent(kind: .moved, location: CGPoint(x: bar.x + 5, y: bar.y + 2))))
        fixture.window.dispatch(.pointer(PointerEvent(kind: .moved, location: CGPoint(x: bar.x + 9, y: bar.y + 4))))
        #expect(fixture.controls.requests == ["move"])
        fixture.window.dispatch(.pointer(PointerEvent(kind: .up, location: bar, button: .left)))
    }

    @Test("A double click on the title bar maximizes, and restores when maximized")
    func titleBarDoubleClick() {
        let fixture = Fixture()
        let bar = CGPoint(x: 60, y: WindowFrameView.shadowRadius + 10)
        fixture.press(at: bar)
        fixture.press(at: bar, clickCount: 2)
        #expect(fixture.controls.requests == ["maximize"])
        fixture.controls.states = [.maximized]
        fixture.press(at: bar, clickCount: 2)
        #expect(fixture.controls.requests.last == "unmaximize")
    }

    @Test("A right click on the title bar opens the window menu where it happened")
    func rightClickOpensMenu() {
        let fixture = Fixture()
        let point = CGPoint(x: 60, y: WindowFrameView.shadowRadius + 10)
        fixture.window.dispatch(.pointer(PointerEvent(kind: .down, location: point, button: .right, clickCount: 1)))
        fixture.window.dispatch(.pointer(PointerEvent(kind: .up, location: point, button: .right)))
        #expect(fixture.controls.requests == ["menu 60,22"])
    }

    @Test("At its minimum width the title bar keeps its buttons and a readable title: all of a short one, a prefix and … of a long one")
    func titleAtMinimumWidth() {
        for title in ["Damask", "Damask: a window title far too long for a narrow window"] {
            let bar = TitleBarView(title: title)
            bar.frame = CGRect(x: 0, y: 0, width: bar.minimumWidth, height: TitleBarView.height)
            bar.layoutIfNeeded()
            let shown = bar.displayedTitle
            if title == "Damask" {
                #expect(shown == "Damask")
            } else {
                #expect(shown.hasSuffix("…") && shown.count >= 7 && title.hasPrefix(String(shown.dropLast())), "\(shown)")
            }
            // The buttons fit inside the bar, clear of the title's space.
            #expect(bar.minimizeButton.frame.minX >= bar.bounds.width - 96 && bar.closeButton.frame.maxX <= bar.bounds.width)
            // Narrower than that the title shortens, down to nothing, never over the buttons.
            bar.frame.size.width = bar.minimumWidth - 30
            #expect(bar.displayedTitle.count < max(shown.count, 2))
        }
    }

    @Test("The buttons close, maximize and minimize on release over themselves")
    func buttons() {
        let fixture = Fixture()
        var closed = 0
        fixture.frame.titleBar.onClose = { closed += 1 }
        fixture.press(at: fixture.center(of: fixture.frame.titleBar.closeButton))
        #expect(closed == 1)
        fixture.press(at: fixture.center(of: fixture.frame.titleBar.maximizeButton))
        fixture.press(at: fixture.center(of: fixture.frame.titleBar.minimizeButton))
        #expect(fixture.controls.requests == ["maximize", "minimize"])
        // Pressed on the button, released elsewhere: nothing happens.
        let button = fixture.center(of: fixture.frame.titleBar.closeButton)
        fixture.window.dispatch(.pointer(PointerEvent(kind: .down, location: button, button: .left, clickCount: 1)))
        fixture.window.dispatch(.pointer(PointerEvent(kind: .up, location: CGPoint(x: 100, y: 100), button: .left)))
        #expect(closed == 1)
    }

    @Test("Presses in the shadow margin resize from the edge or corner under them")
    func resizeHandles() {
        let fixture = Fixture()
        let frame = fixture.frame
        let w = frame.bounds.width, h = frame.bounds.height
        #expect(frame.resizeEdge(at: CGPoint(x: 3, y: 100)) == .left)
        #expect(frame.resizeEdge(at: CGPoint(x: w - 3, y: 100)) == .right)
        #expect(frame.resizeEdge(at: CGPoint(x: 100, y: 2)) == .top)
        #expect(frame.resizeEdge(at: CGPoint(x: 100, y: h - 2)) == .bottom)
        #expect(frame.resizeEdge(at: CGPoint(x: 2, y: 2)) == .topLeft)
        #expect(frame.resizeEdge(at: CGPoint(x: 20, y: 5)) == .topLeft)
        #expect(frame.resizeEdge(at: CGPoint(x: w - 2, y: h - 20)) == .bottomRight)
        #expect(frame.resizeEdge(at: CGPoint(x: w - 20, y: 3)) == .topRight)
        #expect(frame.resizeEdge(at: CGPoint(x: 3, y: h - 3)) == .bottomLeft)
        #expect(frame.resizeEdge(at: CGPoint(x: 100, y: 100)) == nil)
        fixture.press(at: CGPoint(x: 3, y: 100))
        #expect(fixture.controls.requests == ["resize left"])
    }

    @Test("A maximized window has no resize handles")
    func maximizedHasNoHandles() {
        let fixture = Fixture(states: [.maximized, .activated])
        #expect(fixture.frame.resizeEdge(at: CGPoint(x: 1, y: 100)) == nil)
        #expect(fixture.frame.cursorShape(at: CGPoint(x: 1, y: 100)) == .arrow)
    }

    @Test("The cursor is a resize arrow over the handles, a hand over the buttons, an arrow elsewhere")
    func cursorShapes() {
        let fixture = Fixture()
        let frame = fixture.frame
        #expect(frame.cursorShape(at: CGPoint(x: 2, y: 2)) == .resize(.topLeft))
        #expect(frame.cursorShape(at: CGPoint(x: frame.bounds.width - 3, y: 100)) == .resize(.right))
        #expect(frame.cursorShape(at: fixture.center(of: frame.titleBar.closeButton)) == .pointingHand)
        #expect(frame.cursorShape(at: CGPoint(x: 100, y: 120)) == .arrow)
    }

    @Test("A view's cursor shows over it and its subviews: an I-beam over a text view, the arrow beside it")
    func viewCursors() {
        let fixture = Fixture()
        let field = View(frame: CGRect(x: 10, y: 10, width: 100, height: 30))
        field.cursor = .text
        let inner = View(frame: CGRect(x: 5, y: 5, width: 20, height: 20))
        field.addSubview(inner)
        fixture.content.addSubview(field)
        let inField = fixture.frame.convert(CGPoint(x: 50, y: 15), from: field)
        let inInner = fixture.frame.convert(CGPoint(x: 10, y: 10), from: inner)
        let beside = fixture.frame.convert(CGPoint(x: 150, y: 15), from: fixture.content)
        #expect(fixture.frame.cursorShape(at: inField) == .text)
        #expect(fixture.frame.cursorShape(at: inInner) == .text)
        #expect(fixture.frame.cursorShape(at: beside) == .arrow)
        inner.cursor = .pointingHand
        #expect(fixture.frame.cursorShape(at: inInner) == .pointingHand)
    }

    @Test("Every resize edge and cursor shape has theme names; hidden has none")
    func cursorNames() {
        for edge in ResizeEdge.allCases {
            #expect(!CursorShape.resize(edge).themeNames.isEmpty)
        }
        #expect(CursorShape.arrow.themeNames.contains("left_ptr"))
        #expect(CursorShape.hidden.themeNames.isEmpty)
    }

    @Test("Window insets shrink rects and add up")
    func insets() {
        let insets = WindowInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(insets.total == CGSize(width: 6, height: 4))
        #expect(insets.inset(CGRect(x: 0, y: 0, width: 10, height: 10)) == CGRect(x: 2, y: 1, width: 4, height: 6))
    }
}
