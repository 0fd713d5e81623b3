import CCairo
import Foundation

/// cairo's PNG writer and reader over memory (its stream API), for the baseline figures.
enum CairoPNG {
    /// The growing output of one encode; the write callback's closure pointer refers to it
    /// only for the duration of ``encode(_:)``.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// The unread rest of one decode's input; referenced by the read callback only for the
    /// duration of ``decode(_:)``.
    private final class Source {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// Encodes `surface` with `cairo_surface_write_to_png_stream`; empty on failure.
    static func encode(_ surface: OpaquePointer) -> [UInt8] {
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : []
    }

    /// Decodes `bytes` with `cairo_image_surface_create_from_png_stream` and destroys the
    /// resulting surface.
    static func decode(_ bytes: [UInt8]) {
        let source = Source(bytes)
        withExtendedLifetime(source) {
            let surface = cairo_image_surface_create_from_png_stream({ closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                let source = Unmanaged<Source>.fromOpaque(closure).takeUnretainedValue()
                let count = Int(length)
                guard source.offset + count <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                source.bytes.withUnsafeBytes { raw in
                    UnsafeMutableRawPointer(data).copyMemory(from: raw.baseAddress! + source.offset, byteCount: count)
                }
                source.offset += count
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(source).toOpaque())
            cairo_surface_destroy(surface)
        }
    }
}
