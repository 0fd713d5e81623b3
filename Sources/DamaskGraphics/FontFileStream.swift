import CFreeType
import Foundation

/// Opens font files for FreeType through `pread` instead of mapping the whole file.
///
/// `FT_New_Face` maps the font file, and every table FreeType or HarfBuzz reads from it then
/// brings the file's pages around the read into the process's resident set (the kernel maps
/// up to 64 KiB around each touched page of a file in the page cache): DejaVu Sans and Sans
/// Bold cost the demo 0.6 MiB of resident file pages for the few tables and glyphs its first
/// screen reads. Through a stream FreeType reads exactly the bytes it asks for: the tables it
/// keeps (character map, metrics, `loca`, hinting programs) are copied to the heap once, and
/// each glyph's outline is read when the glyph is loaded and freed after. HarfBuzz already
/// copies the tables it shapes with (`hb_ft_face_create_referenced` loads them with
/// `FT_Load_Sfnt_Table`), so shaping and rendering see the same bytes either way.
///
/// Ownership: the `FT_StreamRec` and the file descriptor are allocated here and handed to
/// FreeType with the face; FreeType calls the stream's `close` callback (which closes the
/// descriptor and frees the record) from `FT_Done_Face`, or from `FT_Open_Face` when opening
/// fails. Threading: FreeType calls the callbacks on the thread using the face, which for
/// every Damask face is under ``FreeTypeLibrary``'s lock.
enum FontFileStream {
    /// Opens face `index` of the font file at `path` with `library`, reading the file through
    /// a stream. Returns nil when the file cannot be opened or FreeType rejects it.
    static func openFace(library: FT_Library, path: String, index: Int) -> FT_Face? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0, UInt64(status.st_size) <= UInt64(UInt.max) else {
            close(descriptor)
            return nil
        }
        let stream = UnsafeMutablePointer<FT_StreamRec>.allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.size = UInt(status.st_size)
        stream.pointee.descriptor.value = Int(descriptor)
        stream.pointee.read = readBytes
        stream.pointee.close = closeStream
        var arguments = FT_Open_Args()
        arguments.flags = FT_UInt(FT_OPEN_STREAM)
        arguments.stream = stream
        var face: FT_Face?
        // From here FreeType owns `stream`: it calls `closeStream` on failure too.
        guard FT_Open_Face(library, &arguments, FT_Long(index), &face) == 0 else { return nil }
        return face
    }

    /// FreeType's read callback: copies `count` bytes from `offset` into `buffer` and returns
    /// how many it copied; with a `count` of 0 it is a seek, which returns 0 when `offset` is
    /// inside the file (non-zero is an error to FreeType).
    private static let readBytes: FT_Stream_IoFunc = { stream, offset, buffer, count in
        guard let stream else { return count == 0 ? 1 : 0 }
        if count == 0 { return offset <= stream.pointee.size ? 0 : 1 }
        guard let buffer, offset < stream.pointee.size else { return 0 }
        let descriptor = Int32(truncatingIfNeeded: stream.pointee.descriptor.value)
        let wanted = Int(min(count, stream.pointee.size - offset))
        var done = 0
        while done < wanted {
            let read = pread(descriptor, buffer + done, wanted - done, off_t(offset) + off_t(done))
            if read > 0 {
                done += read
            } else if read < 0, errno == EINTR {
                continue
            } else {
                break  // end of file (the file shrank) or an I/O error: FreeType sees a short read
            }
        }
        return UInt(done)
    }

    /// FreeType's close callback: closes the descriptor and frees the stream record.
    private static let closeStream: FT_Stream_CloseFunc = { stream in
        guard let stream else { return }
        close(Int32(truncatingIfNeeded: stream.pointee.descriptor.value))
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}
