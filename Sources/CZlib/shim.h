#pragma once
#include <zlib.h>

// zlib's deflateInit2 and inflateInit are macros (they pass the library version and the
// stream's size), which Swift cannot call: these wrappers are the same calls.

/// Starts a zlib-format (RFC 1950) deflate stream with a 32 KiB window and the default
/// memory level. The caller owns `stream` and must end it with deflateEnd.
static inline int damask_deflate_init(z_stream *stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, 15, 8, strategy);
}

/// Starts a zlib-format inflate stream. The caller owns `stream` and must end it with
/// inflateEnd.
static inline int damask_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
