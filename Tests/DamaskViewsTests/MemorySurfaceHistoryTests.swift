import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// A memory surface presenting frame after frame keeps bounded history: a few snapshots,
/// and only as many commits as its owner asks for.
@MainActor
@Suite("Memory surface history", .timeLimit(.minutes(5)))
struct MemorySurfaceHistoryTests {
    /// Presents `count` full frames on `surface` directly.
    func present(_ count: Int, on surface: MemorySurface) throws {
        for index in 0..<count {
            let buffer = try #require(surface.dequeueBuffer())
            buffer.bitmap.fill(index % 2 == 0 ? .white : .black)
            surface.present(buffer, damage: Region(CGRect(x: 0, y: 0, width: 40, height: 30)))
        }
    }

    @Test("500 presents keep at most snapshotLimit snapshots, on the latest commits")
    func snapshotsAreBounded() throws {
        let surface = MemorySurface(size: CGSize(width: 40, height: 30))
        try present(500, on: surface)
        #expect(surface.commits.count == 500)
        let withSnapshots = surface.commits.filter { $0.snapshot != nil }.map(\.frameNumber)
        #expect(withSnapshots == Array(493...500))
        let last = try #require(surface.commits.last?.snapshot)
        #expect(last.pixel(x: 0, y: 0) == 0xFF00_0000)
    }

    @Test("commitHistoryLimit keeps only the latest commits; the screen is still the last frame")
    func commitHistoryIsBounded() throws {
        let surface = MemorySurface(size: CGSize(width: 40, height: 30))
        surface.recordsSnapshots = false
        surface.commitHistoryLimit = 1
        try present(300, on: surface)
        #expect(surface.commits.map(\.frameNumber) == [300])
        #expect(surface.commits.allSatisfy { $0.snapshot == nil })
        #expect(surface.presentCount == 300)
        #expect(surface.presentedBitmap?.pixel(x: 5, y: 5) == 0xFF00_0000)
    }
}
