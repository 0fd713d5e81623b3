import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// A buffer pool asked for a new size, in one dimension at a time. Written for the mutant
/// of scripts/mutants.txt that compared only the width: a pool kept handing out buffers of
/// the old height and no test noticed.
extension ViewsTests {
    @Suite("Buffer pool resizing", .shared, .timeLimit(.minutes(5))) @MainActor struct BufferPoolResize {
        @Test("A change of only the height, or only the width, gives buffers of the new size and destroys the old ones", arguments: [(4, 6), (6, 4)])
        func oneDimensionChanges(newSize: (width: Int, height: Int)) throws {
            var destroyed: [Int] = []
            var next = 0
            let pool = BufferPool(
                capacity: 2,
                allocate: { width, height in
                    next += 1
                    return SurfaceBuffer(bitmap: try! Bitmap(width: width, height: height), identifier: next)
                },
                destroy: { destroyed.append($0.identifier) })
            let old = try #require(pool.dequeue(width: 4, height: 4))
            pool.didPresent(old, damage: Region(CGRect(x: 0, y: 0, width: 4, height: 4)))
            pool.release(old)
            let resized = try #require(pool.dequeue(width: newSize.width, height: newSize.height))
            #expect(resized !== old)
            #expect(resized.bitmap.width == newSize.width && resized.bitmap.height == newSize.height)
            #expect(destroyed == [old.identifier], "the released buffer of the old size is destroyed")
            #expect(pool.buffers.allSatisfy { $0.bitmap.width == newSize.width && $0.bitmap.height == newSize.height })
        }
    }
}
