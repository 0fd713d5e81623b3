import CDamaskShims
import CWaylandClient
import DamaskGraphics
import DamaskViews
import Foundation

/// A `wl_buffer` over its own sealed memfd, mapped into this process.
///
/// Owns the mapping and the `wl_buffer`. The memfd lives only through `init`: once it is
/// mapped and sent with `wl_shm.create_pool` (libwayland sends a duplicate), the mapping
/// and the compositor's copy keep the memory alive, so a buffer holds no descriptor. The
/// `wl_shm_pool` is destroyed right after the buffer is created (the buffer keeps the memory
/// alive on the compositor's side). `destroy()` releases the rest; call it only while the
/// compositor does not hold the buffer (after `wl_buffer.release`, or when the surface is
/// gone). A ``WaylandSurface`` hands it out as the `backing` of a `SurfaceBuffer`
/// (``makeSurfaceBuffer(identifier:)``), which owns it; whether the compositor holds it is
/// that buffer's `isBusy`. Main-actor.
@MainActor
final class ShmBuffer {
    /// Buffer size in pixels and bytes per row (4 bytes per pixel).
    let width: Int
    let height: Int
    let bytesPerRow: Int
    /// The mapped pixels; valid until `destroy()`.
    private(set) var memory: UnsafeMutableRawPointer?
    /// The protocol object; nil after `destroy()`.
    private(set) var proxy: OpaquePointer?
    /// Called on the main actor when the compositor releases the buffer.
    var onRelease: (() -> Void)?
    /// The size of the mapping, in bytes.
    let byteCount: Int

    /// Allocates `width × height` pixels of `format` (WL_SHM_FORMAT_ARGB8888 or XRGB8888).
    ///
    /// - Throws: `WaylandError.system` when the memory cannot be created or mapped.
    init(shm: OpaquePointer, width: Int, height: Int, format: UInt32) throws {
        precondition(width > 0 && height > 0, "an shm buffer needs a positive size")
        self.width = width
        self.height = height
        bytesPerRow = width * 4
        byteCount = bytesPerRow * height
        let fileDescriptor = damask_shm_create("damask-shm", byteCount)
        guard fileDescriptor >= 0 else { throw WaylandError.system(call: "memfd_create", errno: errno) }
        let mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fileDescriptor, 0)
        guard let mapping, mapping != MAP_FAILED else {
            let code = errno
            Glibc.close(fileDescriptor)
            throw WaylandError.system(call: "mmap", errno: code)
        }
        memory = mapping
        let pool = wl_shm_create_pool(shm, fileDescriptor, Int32(byteCount))
        proxy = wl_shm_pool_create_buffer(
            pool, 0, Int32(width), Int32(height), Int32(bytesPerRow), format)
        wl_shm_pool_destroy(pool)
        // wl_shm.create_pool was marshalled with a duplicate of the descriptor.
        Glibc.close(fileDescriptor)
        // Called without libffi: every typed key's commit hears back from it (CDamaskShims.h).
        let added = damask_wl_buffer_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
        precondition(added == 0, "a wl_buffer with a listener already")
    }

    /// A surface buffer whose bitmap wraps this buffer's memory and which owns this buffer
    /// (as its `backing`), so the mapping lives as long as the bitmap can be reached.
    func makeSurfaceBuffer(identifier: Int) throws -> SurfaceBuffer {
        guard let memory else { preconditionFailure("a surface buffer over a destroyed shm buffer") }
        let bitmap = try Bitmap(
            wrapping: memory, width: width, height: height, bytesPerRow: bytesPerRow,
            format: .argb32Premultiplied)
        precondition(bitmap.byteCount <= byteCount, "a bitmap of \(bitmap.byteCount) bytes over a \(byteCount)-byte mapping")
        return SurfaceBuffer(bitmap: bitmap, identifier: identifier, backing: self)
    }

    /// The shm buffer behind `buffer`, which every buffer of a Wayland surface carries as its
    /// backing (``makeSurfaceBuffer(identifier:)``).
    static func backing(of buffer: SurfaceBuffer) -> ShmBuffer {
        guard let shm = buffer.backing as? ShmBuffer else {
            preconditionFailure("buffer \(buffer.identifier) has no shm backing: not a Wayland surface's buffer")
        }
        return shm
    }

    isolated deinit {
        destroy()
    }

    /// Destroys the protocol object and unmaps the memory. Idempotent.
    func destroy() {
        if let proxy { wl_buffer_destroy(proxy) }
        proxy = nil
        if let memory { munmap(memory, byteCount) }
        memory = nil
    }

    private static let listener = StaticListener(
        wl_buffer_listener(release: { data, _ in
            onMainActor(owner(data, as: ShmBuffer.self), ()) { buffer, _ in
                assert(buffer.proxy != nil, "a release for a destroyed wl_buffer")
                buffer.onRelease?()
            }
        }))
}
