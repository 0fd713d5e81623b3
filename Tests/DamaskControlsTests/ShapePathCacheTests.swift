import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Shapes shared by a control class", .timeLimit(.minutes(5))) @MainActor struct ShapePathCacheTests {
        /// The pixels of `rect` (whole pixels) of `bitmap`, row by row.
        private func pixels(of bitmap: Bitmap, in rect: CGRect) -> [UInt32] {
            var result: [UInt32] = []
            for y in Int(rect.minY)..<Int(rect.maxY) {
                for x in Int(rect.minX)..<Int(rect.maxX) { result.append(bitmap.pixel(x: x, y: y)) }
            }
            return result
        }

        @Test("controls of one size and state paint the same pixels whether their shapes are converted, recorded or replayed")
        func replayedShapesPaintAsConverted() throws {
            Slider.shapes.removeAll()
            Switch.shapes.removeAll()
            Button.faces.removeAll()
            let harness = ControlHarness(width: 420, height: 120)
            let columns = 4
            var rows: [[View]] = [[], [], []]
            for column in 0..<columns {
                let x = CGFloat(10 + column * 100)
                // A value whose knob sits at a fractional x: the edges are not whole pixels.
                let slider = Slider(frame: CGRect(x: x, y: 8, width: 97, height: 22), value: 0.3)
                let toggle = Switch(frame: CGRect(x: x, y: 40, width: 60, height: 30), isOn: true)
                let button = Button(frame: CGRect(x: x, y: 80, width: 80, height: 28), title: "OK")
                for (row, view) in [slider, toggle, button].enumerated() {
                    harness.root.addSubview(view)
                    rows[row].append(view)
                }
            }
            harness.window.flush()
            harness.surface.fireFrame()
            let screen = try harness.screen()
            for row in rows {
                let first = pixels(of: screen, in: row[0].frame)
                #expect(first.contains { $0 != first[0] }, "the control drew something")
                for view in row.dropFirst() {
                    #expect(pixels(of: screen, in: view.frame) == first, "\(type(of: view)) at \(view.frame.minX) differs from the first")
                }
            }
            // Every slider fills 4 shapes, every switch 2, every button 1; only the first of
            // each class builds them.
            #expect(Slider.shapes.misses == 4 && Slider.shapes.hits == 4 * (columns - 1))
            #expect(Switch.shapes.misses == 2 && Switch.shapes.hits == 2 * (columns - 1))
            #expect(Button.faces.misses == 1 && Button.faces.hits == columns - 1)
        }

        @Test("a shared shape is the path built from the same geometry: equal pixels to a path built in draw")
        func sharedPathPaintsAsNewPath() throws {
            let cache = ShapePathCache(capacity: 4)
            let shapes: [(Path, Path)] = [
                (cache.roundedRect(CGRect(x: 3.25, y: 2, width: 40.5, height: 12), cornerRadius: 6),
                 Path(roundedRect: CGRect(x: 3.25, y: 2, width: 40.5, height: 12), cornerRadius: 6)),
                (cache.ellipse(in: CGRect(x: 7.875, y: 1, width: 18, height: 18)), Path(ellipseIn: CGRect(x: 7.875, y: 1, width: 18, height: 18))),
            ]
            for (shared, built) in shapes {
                let expected = try Bitmap(width: 48, height: 24)
                let context = GraphicsContext(bitmap: expected)
                context.setFillColor(Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8))
                context.fill(built)
                // Drawn again and again: converted, then recorded, then replayed.
                for round in 0..<4 {
                    let bitmap = try Bitmap(width: 48, height: 24)
                    let drawing = GraphicsContext(bitmap: bitmap)
                    drawing.setFillColor(Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8))
                    drawing.fill(shared)
                    #expect(Bitmap.difference(bitmap, expected, tolerance: 0).differingPixelCount == 0, "round \(round)")
                }
            }
        }

        @Test("a shape that differs in any coordinate is built anew; the cache keeps at most its capacity")
        func keysAreExactAndBounded() {
            let cache = ShapePathCache(capacity: 3)
            _ = cache.roundedRect(CGRect(x: 0, y: 0, width: 10, height: 4), cornerRadius: 2)
            _ = cache.roundedRect(CGRect(x: 0, y: 0, width: 10, height: 4), cornerRadius: 2)
            #expect(cache.hits == 1 && cache.misses == 1)
            _ = cache.roundedRect(CGRect(x: 0, y: 0, width: 10.000001, height: 4), cornerRadius: 2)
            _ = cache.roundedRect(CGRect(x: 0, y: 0, width: 10, height: 4), cornerRadius: 1.5)
            _ = cache.ellipse(in: CGRect(x: 0, y: 0, width: 10, height: 4))
            #expect(cache.hits == 1 && cache.misses == 4)
            #expect(cache.count == 3)
            // A slider dragged through many values keeps its class's cache bounded.
            let harness = ControlHarness(width: 200, height: 30)
            let slider = Slider(frame: CGRect(x: 0, y: 4, width: 200, height: 22))
            harness.root.addSubview(slider)
            for step in 0...200 {
                slider.value = Float(step) / 200
                harness.window.flush()
                harness.surface.fireFrame()
            }
            #expect(Slider.shapes.count <= Slider.shapes.capacity)
        }
    }
}
