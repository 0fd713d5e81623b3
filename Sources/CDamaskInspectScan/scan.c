#include "CDamaskInspectScan.h"

#include <immintrin.h>
#include <string.h>

/// The running totals of one row's scan (the row's outputs, kept in registers until the end).
struct scan_state {
    damask_scan_row *r;
    int64_t changed, under, first, last, under_first, under_last;
    int64_t run_start, run_end;
    int64_t run_count;
    int initialized;
};

/// A 4-byte load from memory the client may be writing (no alignment assumed).
static inline uint32_t load32(const uint32_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

int64_t damask_scan_run_capacity(int64_t width, int64_t gap)
{
    // Two runs are separated by more than `gap` unchanged pixels, so each run but the last
    // takes at least gap + 2 pixels of the row.
    return width / (gap + 2) + 2;
}

/// The bits of pixels x..x+15 that lie inside the damage; `index` walks the spans forward.
static inline uint32_t damage_mask(const int64_t *spans, int64_t count, int64_t *index, int64_t x)
{
    while (*index < count && spans[2 * *index + 1] <= x) (*index)++;
    uint32_t mask = 0;
    for (int64_t i = *index; i < count && spans[2 * i] < x + 16; i++) {
        int64_t lo = spans[2 * i] > x ? spans[2 * i] - x : 0;
        int64_t hi = spans[2 * i + 1] < x + 16 ? spans[2 * i + 1] - x : 16;
        if (hi > lo) mask |= ((1u << hi) - 1u) & ~((1u << lo) - 1u);
    }
    return mask;
}

/// Closes the open run into the output (joined to the last one when the output is full,
/// which the capacity rules out).
static inline void emit_run(struct scan_state *s)
{
    damask_scan_row *r = s->r;
    if (s->run_count < r->run_capacity) {
        r->runs[2 * s->run_count] = s->run_start;
        r->runs[2 * s->run_count + 1] = s->run_end;
        s->run_count++;
    } else if (s->run_count > 0) {
        r->runs[2 * s->run_count - 1] = s->run_end;
    }
}

/// Adds the changed pixels `k` (bit i: pixel x + i) of a block, `dm` its damaged pixels.
static inline void add_block(struct scan_state *s, uint32_t k, uint32_t dm, int64_t x)
{
    uint32_t under = k & ~dm;
    s->changed += __builtin_popcount(k);
    if (s->first < 0) s->first = x + __builtin_ctz(k);
    s->last = x + 31 - __builtin_clz(k);
    if (under) {
        s->under += __builtin_popcount(under);
        if (s->under_first < 0) s->under_first = x + __builtin_ctz(under);
        s->under_last = x + 31 - __builtin_clz(under);
    }
    const int64_t gap = s->r->gap;
    while (k) {
        int start = __builtin_ctz(k);
        uint32_t rest = ~(k >> start);
        int length = __builtin_ctz(rest); // k < 2^16, so rest has a zero bit below 32
        int64_t from = x + start, to = from + length;
        if (s->run_end >= 0 && from - s->run_end <= gap) {
            s->run_end = to;
        } else {
            if (s->run_end >= 0) emit_run(s);
            s->run_start = from;
            s->run_end = to;
        }
        k &= ~(((1u << length) - 1u) << start);
    }
}

static inline void finish(struct scan_state *s)
{
    damask_scan_row *r = s->r;
    if (s->run_end >= 0) emit_run(s);
    r->changed = s->changed;
    r->under_damage = s->under;
    r->first = s->first;
    r->last = s->last;
    r->under_first = s->under_first;
    r->under_last = s->under_last;
    r->run_count = s->run_count;
}

// MARK: Plain C blocks.

static inline uint32_t portable_changed(const uint32_t *old, const uint32_t *cur, uint32_t mask)
{
    uint32_t k = 0;
    for (int i = 0; i < 16; i++)
        if ((load32(old + i) ^ load32(cur + i)) & mask) k |= 1u << i;
    return k;
}

static inline int portable_differs(const uint32_t *a, const uint32_t *b) { return memcmp(a, b, 64) != 0; }

static inline uint32_t portable_block(const uint32_t *old, const uint32_t *cur, uint32_t mask, int *raw)
{
    *raw = portable_differs(old, cur);
    return *raw ? portable_changed(old, cur, mask) : 0;
}

static inline void portable_store(uint32_t *dst, const uint32_t *src) { memcpy(dst, src, 64); }

#define SCAN_NAME scan_portable
#define SCAN_TARGET
#define SCAN_BLOCK portable_block
#define SCAN_STORE_NT portable_store
#define SCAN_STORE_DIFFERS portable_differs
#define SCAN_STORE portable_store
#define SCAN_FENCE() ((void)0)

#include "scan-loop.h"
#undef SCAN_NAME
#undef SCAN_TARGET
#undef SCAN_BLOCK
#undef SCAN_STORE_NT
#undef SCAN_STORE_DIFFERS
#undef SCAN_STORE
#undef SCAN_FENCE

// MARK: AVX2 blocks (16 pixels: two 256-bit vectors).

#if defined(__x86_64__)
#define AVX2 __attribute__((target("avx2")))

AVX2 static inline uint32_t avx2_block(const uint32_t *old, const uint32_t *cur, uint32_t mask, int *raw)
{
    __m256i d0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)old), _mm256_loadu_si256((const __m256i *)cur));
    __m256i d1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(old + 8)), _mm256_loadu_si256((const __m256i *)(cur + 8)));
    __m256i any = _mm256_or_si256(d0, d1);
    if (_mm256_testz_si256(any, any)) {
        *raw = 0;
        return 0;
    }
    *raw = 1;
    const __m256i visible = _mm256_set1_epi32((int)mask), zero = _mm256_setzero_si256();
    __m256i same0 = _mm256_cmpeq_epi32(_mm256_and_si256(d0, visible), zero);
    __m256i same1 = _mm256_cmpeq_epi32(_mm256_and_si256(d1, visible), zero);
    uint32_t same = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(same0))
        | (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(same1)) << 8;
    return ~same & 0xffffu;
}

AVX2 static inline int avx2_differs(const uint32_t *a, const uint32_t *b)
{
    __m256i d0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)a), _mm256_loadu_si256((const __m256i *)b));
    __m256i d1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + 8)), _mm256_loadu_si256((const __m256i *)(b + 8)));
    __m256i d = _mm256_or_si256(d0, d1);
    return !_mm256_testz_si256(d, d);
}

AVX2 static inline void avx2_store_nt(uint32_t *dst, const uint32_t *src)
{
    _mm256_stream_si256((__m256i *)dst, _mm256_loadu_si256((const __m256i *)src));
    _mm256_stream_si256((__m256i *)(dst + 8), _mm256_loadu_si256((const __m256i *)(src + 8)));
}

AVX2 static inline void avx2_store(uint32_t *dst, const uint32_t *src)
{
    _mm256_storeu_si256((__m256i *)dst, _mm256_loadu_si256((const __m256i *)src));
    _mm256_storeu_si256((__m256i *)(dst + 8), _mm256_loadu_si256((const __m256i *)(src + 8)));
}

#define SCAN_NAME scan_avx2
#define SCAN_TARGET AVX2
#define SCAN_BLOCK avx2_block
#define SCAN_STORE_NT avx2_store_nt
#define SCAN_STORE_DIFFERS avx2_differs
#define SCAN_STORE avx2_store
#define SCAN_FENCE() _mm_sfence()
#include "scan-loop.h"
#endif

#if defined(__x86_64__)
AVX2 static int floor_pass_avx2(const uint8_t *a, const uint8_t *b, uint8_t *store, int64_t bytes)
{
    __m256i any = _mm256_setzero_si256();
    int64_t i = 0;
    const int aligned = ((uintptr_t)store & 31u) == 0;
    for (; i + 32 <= bytes; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + i)), y = _mm256_loadu_si256((const __m256i *)(b + i));
        any = _mm256_or_si256(any, _mm256_xor_si256(x, y));
        if (aligned)
            _mm256_stream_si256((__m256i *)(store + i), y);
        else
            _mm256_storeu_si256((__m256i *)(store + i), y);
    }
    _mm_sfence();
    int differs = !_mm256_testz_si256(any, any);
    for (; i < bytes; i++) {
        differs |= a[i] != b[i];
        store[i] = b[i];
    }
    return differs;
}
#endif

int damask_scan_floor_pass(const void *a, const void *b, void *store, int64_t bytes)
{
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) return floor_pass_avx2(a, b, store, bytes);
#endif
    int differs = memcmp(a, b, (size_t)bytes) != 0;
    memcpy(store, b, (size_t)bytes);
    return differs;
}

void damask_scan_row32_portable(damask_scan_row *row)
{
    row->store_differed = 0;
    scan_portable(row);
}

void damask_scan_row32(damask_scan_row *row)
{
    row->store_differed = 0;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        scan_avx2(row);
        return;
    }
#endif
    scan_portable(row);
}
