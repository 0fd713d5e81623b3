import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// BufferPool bookkeeping and MemorySurface behaviour.
extension ViewsTests {
    @Suite("Surfaces", .shared, .timeLimit(.minutes(5))) @MainActor struct Surfaces {
        func makePool(capacity: Int = 2) -> (BufferPool, () -> Int) {
            var destroyed = 0
            var next = 0
            let pool = BufferPool(
                capacity: capacity,
                allocate: { width, height in
                    next += 1
                    return SurfaceBuffer(bitmap: try! Bitmap(width: width, height: height), identifier: next)
                },
                destroy: { _ in destroyed += 1 })
            return (pool, { destroyed })
        }

        @Test("A new buffer has missed everything")
        func newBufferMissedEverything() throws {
            let buffer = SurfaceBuffer(bitmap: try Bitmap(width: 8, height: 4), identifier: 1)
            #expect(buffer.missedDamage == Region(CGRect(x: 0, y: 0, width: 8, height: 4)))
            #expect(!buffer.isBusy)
        }

        @Test("The pool hands out at most its capacity and reuses released buffers")
        func poolRespectsCapacityAndReuses() throws {
            let (pool, _) = makePool(capacity: 2)
            let a = try #require(pool.dequeue(width: 4, height: 4))
            pool.didPresent(a, damage: Region(CGRect(x: 0, y: 0, width: 4, height: 4)))
            let b = try #require(pool.dequeue(width: 4, height: 4))
            #expect(a !== b)
            pool.didPresent(b, damage: Region(CGRect(x: 0, y: 0, width: 1, height: 1)))
            #expect(pool.dequeue(width: 4, height: 4) == nil)
            pool.release(a)
            #expect(pool.dequeue(width: 4, height: 4) === a)
            #expect(pool.liveBufferCount == 2)
            #expect(pool.liveBytes == 2 * 4 * 4 * 4)
        }

        @Test("Presenting empties the buffer's missed damage and adds it to the others")
        func presentingMovesMissedDamage() throws {
            let (pool, _) = makePool(capacity: 2)
            let a = try #require(pool.dequeue(width: 4, height: 4))
            pool.didPresent(a, damage: Region(CGRect(x: 0, y: 0, width: 4, height: 4)))
            let b = try #require(pool.dequeue(width: 4, height: 4))
            pool.didPresent(b, damage: Region(CGRect(x: 1, y: 1, width: 2, height: 2)))
            #expect(b.missedDamage.isEmpty)
            #expect(a.missedDamage == Region(CGRect(x: 1, y: 1, width: 2, height: 2)))
            #expect(a.isBusy && b.isBusy)
        }

        @Test("Resizing drops free buffers now and busy ones when released")
        func resizeDropsBuffers() throws {
            let (pool, destroyed) = makePool(capacity: 2)
            let a = try #require(pool.dequeue(width: 4, height: 4))
            pool.didPresent(a, damage: Region())
            let b = try #require(pool.dequeue(width: 4, height: 4))
            _ = b
            let c = try #require(pool.dequeue(width: 6, height: 6))
            #expect(destroyed() == 1)  // b was free
            #expect(c.width == 6)
            pool.release(a)
            #expect(destroyed() == 2)
            #expect(pool.liveBufferCount == 1)
        }

        @Test("The memory surface's screen changes only inside the damage")
        func memorySurfaceScreenUpdatesOnlyInsideDamage() throws {
            let surface = MemorySurface(size: CGSize(width: 4, height: 4))
            let first = try #require(surface.dequeueBuffer())
            first.bitmap.fill(.red)
            surface.present(first, damage: Region(CGRect(x: 0, y: 0, width: 4, height: 4)))
            let second = try #require(surface.dequeueBuffer())
            second.bitmap.fill(.blue)
            surface.present(second, damage: Region(CGRect(x: 0, y: 0, width: 2, height: 4)))
            let screen = try #require(surface.presentedBitmap)
            #expect(Color.blue.matches(screen.color(x: 1, y: 1)))
            #expect(Color.red.matches(screen.color(x: 3, y: 1)))
            #expect(surface.commits.count == 2)
            #expect(surface.commits[1].frameNumber == 2)
            let snapshot = try #require(surface.commits[1].snapshot)
            #expect(Color.blue.matches(snapshot.color(x: 3, y: 1)))
        }

        @Test("Release policies give buffers back immediately, one present late, or never")
        func releasePoliciesTimeReleases() throws {
            let late = MemorySurface(size: CGSize(width: 2, height: 2), releasePolicy: .afterNextPresent)
            let a = try #require(late.dequeueBuffer())
            late.present(a, damage: Region())
            #expect(a.isBusy)
            let b = try #require(late.dequeueBuffer())
            late.present(b, damage: Region())
            #expect(!a.isBusy && b.isBusy)

            let now = MemorySurface(size: CGSize(width: 2, height: 2), releasePolicy: .immediate)
            let c = try #require(now.dequeueBuffer())
            now.present(c, damage: Region())
            #expect(!c.isBusy)

            let never = MemorySurface(size: CGSize(width: 2, height: 2), bufferCapacity: 1, releasePolicy: .never)
            let d = try #require(never.dequeueBuffer())
            never.present(d, damage: Region())
            #expect(never.dequeueBuffer() == nil)
            never.releaseAllBuffers()
            #expect(never.dequeueBuffer() === d)
        }

        @Test("Frame requests merge and fire once")
        func frameRequestsMergeAndFireOnce() {
            let surface = MemorySurface(size: CGSize(width: 2, height: 2))
            #expect(!surface.fireFrame())
            surface.requestFrame()
            surface.requestFrame()
            #expect(surface.frameRequestCount == 2)
            #expect(surface.fireFrame(timestamp: 5))
            #expect(!surface.fireFrame())
            #expect(surface.framesFired == 1)
            #expect(surface.clock == 5)
        }

        @Test("Pixel sizes round half away from zero")
        func pixelSizesRoundHalfAwayFromZero() {
            let surface = MemorySurface(size: CGSize(width: 101, height: 33), scale: 1.5)
            #expect(surface.pixelWidth == 152)  // 151.5
            #expect(surface.pixelHeight == 50)  // 49.5
        }

        @Test("A simulated clock fires frames on the next turn with advancing timestamps")
        func simulatedClockFiresFrames() async {
            let surface = MemorySurface(
                size: CGSize(width: 20, height: 20), frameClock: .simulated(intervalMilliseconds: 10))
            let window = Window(surface: surface)
            var stamps: [UInt32] = []
            let link = DisplayLink(window: window) { link, timestamp in
                stamps.append(timestamp)
                if stamps.count == 3 { link.invalidate() }
            }
            for _ in 0..<6 { await nextTurn() }
            #expect(stamps == [10, 20, 30])
            #expect(link.isInvalidated)
            #expect(!surface.hasPendingFrameRequest)
        }
    }
}
