// The inner loop of damask-inspect: one pass over a row of 4-byte pixels that compares the
// surface's previous content with the client's new pixels, counts and locates what changed
// (inside and outside the declared damage, split into runs of nearby changes), and updates
// the inspector's stored copy of the row in the same pass.
//
// Memory, per call: `old` (previous content, the inspector's), `current` (the client's
// mapped pool, read only: the client may write it concurrently, which only changes what is
// read) and `store` (the inspector's copy, written) must each hold `width` pixels; `store`
// should be 32-byte aligned (rows of a PixelStore are 64-byte aligned): only then are its
// copies written with non-temporal stores. `damage` holds
// `damage_count` pairs [lo, hi), sorted, disjoint, inside [0, width]; `runs` has room for
// `run_capacity` pairs (damask_scan_run_capacity). Everything is the caller's; nothing is
// kept after the call. Reentrant; no global state other than the CPU-feature probe.
#pragma once

#include <stdint.h>

/// What a scan does to `store`.
enum damask_scan_store_mode {
    /// Leaves it alone (`store` may be NULL).
    DAMASK_SCAN_STORE_NONE = 0,
    /// Writes every pixel of `current` into it (non-temporal stores: the copy is not read
    /// again before the next commit).
    DAMASK_SCAN_STORE_COPY = 1,
    /// Writes only the 16-pixel blocks where `current` differs from `old` in any byte: for a
    /// store already known to equal `old`, the result is `current`, and rows that did not
    /// change cost no write.
    DAMASK_SCAN_STORE_COPY_CHANGED = 2,
    /// Compares `store` with `current` and writes the blocks that differ, reporting in
    /// `store_differed` whether any did (a write into a buffer the compositor holds).
    DAMASK_SCAN_STORE_UPDATE = 3,
};

/// One row's scan: inputs, then outputs (set by damask_scan_row32).
typedef struct damask_scan_row {
    const void *old;          ///< the previous content's row, or NULL: nothing is compared
    const void *current;      ///< the new row (the client's memory)
    void *store;              ///< the stored copy's row (32-byte aligned), or NULL with STORE_NONE
    int32_t store_mode;       ///< an enum damask_scan_store_mode
    uint32_t visible_mask;    ///< bits of a pixel that are visible (0x00ffffff for XRGB formats)
    int64_t width;            ///< pixels in the row
    const int64_t *damage;    ///< damaged x-ranges as [lo, hi) pairs
    int64_t damage_count;     ///< number of pairs in `damage`
    int64_t gap;              ///< changed pixels at most this far apart join one run
    int64_t *runs;            ///< out: runs of changed pixels, [start, end) pairs, in x order
    int64_t run_capacity;     ///< pairs `runs` can hold

    int64_t changed;          ///< out: pixels whose visible bits differ
    int64_t under_damage;     ///< out: of those, outside the damage
    int64_t first, last;      ///< out: first and last changed x, -1 when none
    int64_t under_first, under_last; ///< out: first and last under-damaged x, -1 when none
    int64_t run_count;        ///< out: pairs written to `runs`
    int32_t bytes_differ;     ///< out: 1 when `old` and `current` differ in any byte (also X bytes); 1 without `old`
    int32_t store_differed;   ///< out: STORE_UPDATE only: 1 when `store` differed from `current`
} damask_scan_row;

/// Runs of changed pixels a row of `width` pixels can have when runs closer than `gap`
/// join: the capacity `runs` needs.
int64_t damask_scan_run_capacity(int64_t width, int64_t gap);

/// Scans one row (see the file comment). Uses AVX2 when the CPU has it, plain C otherwise;
/// both give identical results.
void damask_scan_row32(damask_scan_row *row);

/// The same scan in plain C (what damask_scan_row32 falls back to without AVX2), for tests
/// that compare the two paths.
void damask_scan_row32_portable(damask_scan_row *row);

/// The least memory traffic of one commit's scan, for measuring the floor under it
/// (`damask-bench inspect`): reads `bytes` of `a` and of `b`, writes `b` into `store`
/// (non-temporal stores when `store` is 32-byte aligned), and compares nothing else.
/// Returns whether `a` and `b` differ anywhere.
int damask_scan_floor_pass(const void *a, const void *b, void *store, int64_t bytes);
