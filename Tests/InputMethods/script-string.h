/*
 * The quoted strings of the scripted input methods' commands (scripted-input-method-v1.c's
 * script and FIFO lines, scripted-input-method-v2.c's FIFO lines): "TEXT" with \" \\ and
 * \xNN escapes, \xNN writing that byte (invalid UTF-8 on purpose; \x00 is refused).
 */
#ifndef SCRIPT_STRING_H
#define SCRIPT_STRING_H

#include <stdlib.h>

/* Reads the quoted string at *cursor (after blanks) into `out`, which holds at least
 * strlen(*cursor) + 1 bytes; on success moves *cursor past the closing quote and returns 1,
 * else returns 0 (not a quoted string, a bad escape, no closing quote). */
static int script_string(char **cursor, char *out) {
    char *p = *cursor;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '"') return 0;
    p++;
    while (*p && *p != '"') {
        if (*p == '\\') {
            p++;
            if (*p == 'x' && p[1] && p[2]) {
                char hex[3] = {p[1], p[2], 0};
                char *end;
                long byte = strtol(hex, &end, 16);
                if (*end || byte == 0) return 0;
                *out++ = (char)byte;
                p += 3;
                continue;
            }
            if (*p != '"' && *p != '\\') return 0;
        }
        *out++ = *p++;
    }
    if (*p != '"') return 0;
    *out = 0;
    *cursor = p + 1;
    return 1;
}

#endif
