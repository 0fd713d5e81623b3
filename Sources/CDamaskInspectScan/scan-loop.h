// The scan loop, instantiated twice by scan.c: once for AVX2 blocks, once for plain C ones.
// Expects SCAN_NAME (the function's name), SCAN_TARGET (its attributes), and block helpers
// SCAN_BLOCK(old, cur, mask, &raw) → 16-bit mask of the pixels whose visible bits differ, and
// in raw whether any byte differs, SCAN_STORE_NT(dst, src) → non-temporal copy of 16 pixels, SCAN_STORE_DIFFERS(dst, src)
// → any byte differs, SCAN_STORE(dst, src) → copy of 16 pixels, SCAN_FENCE() → orders the
// non-temporal stores.

SCAN_TARGET static void SCAN_NAME(damask_scan_row *r)
{
    const uint32_t *old = r->old, *cur = r->current;
    uint32_t *store = r->store;
    const int mode = store ? r->store_mode : DAMASK_SCAN_STORE_NONE;
    const uint32_t mask = r->visible_mask;
    const int64_t width = r->width;
    struct scan_state s = { .r = r, .first = -1, .last = -1, .under_first = -1, .under_last = -1, .run_start = -1, .run_end = -1 };
    int64_t span = 0;
    // The damage span the scan is in or before ([span_lo, span_hi)); a block inside it is
    // wholly damaged without a look at the span list.
    int64_t span_lo = r->damage_count > 0 ? r->damage[0] : INT64_MAX;
    int64_t span_hi = r->damage_count > 0 ? r->damage[1] : INT64_MAX;
    int raw = old ? 0 : 1, wrote_nt = 0;
    const int aligned = ((uintptr_t)store & 31u) == 0;
    int64_t x = 0;
    if (old && (mode == DAMASK_SCAN_STORE_NONE || mode == DAMASK_SCAN_STORE_COPY_CHANGED) && memcmp(old, cur, (size_t)width * 4) == 0) {
        // An unchanged row (most rows of a small change) at memcmp's speed: nothing to
        // count, nothing to write.
        finish(&s);
        r->bytes_differ = 0;
        return;
    }
    for (; x + 16 <= width; x += 16) {
        uint32_t k = 0;
        int block_raw = 1;
        if (old) {
            // Equal bytes (the common case in a row that did not change) cost one test.
            k = SCAN_BLOCK(old + x, cur + x, mask, &block_raw);
            raw |= block_raw;
        }
        if (k) {
            uint32_t dm;
            if (x >= span_lo && x + 16 <= span_hi) {
                dm = 0xffffu;
            } else {
                dm = damage_mask(r->damage, r->damage_count, &span, x);
                span_lo = span < r->damage_count ? r->damage[2 * span] : INT64_MAX;
                span_hi = span < r->damage_count ? r->damage[2 * span + 1] : INT64_MAX;
            }
            if (k == 0xffffu && dm == 0xffffu && s.run_end >= 0 && x - s.run_end <= r->gap) {
                s.run_end = x + 16;
                s.changed += 16;
                s.last = x + 15;
            } else {
                add_block(&s, k, dm, x);
            }
        }
        switch (mode) {
        case DAMASK_SCAN_STORE_COPY:
        case DAMASK_SCAN_STORE_COPY_CHANGED:
            if (mode == DAMASK_SCAN_STORE_COPY_CHANGED && !block_raw) break;
            if (aligned) {
                SCAN_STORE_NT(store + x, cur + x);
                wrote_nt = 1;
            } else {
                SCAN_STORE(store + x, cur + x);
            }
            break;
        case DAMASK_SCAN_STORE_UPDATE:
            if (SCAN_STORE_DIFFERS(store + x, cur + x)) {
                r->store_differed = 1;
                SCAN_STORE(store + x, cur + x);
            }
            break;
        default:
            break;
        }
    }
    if (wrote_nt) SCAN_FENCE();
    // The last pixels (fewer than a block), one at a time.
    if (x < width) {
        uint32_t k = 0;
        int block_raw = old ? 0 : 1;
        for (int64_t i = x; i < width; i++) {
            uint32_t a = old ? load32(old + i) : 0, b = load32(cur + i);
            if (old && a != b) block_raw = 1;
            if (old && ((a ^ b) & mask)) k |= 1u << (i - x);
        }
        raw |= block_raw;
        if (k) add_block(&s, k, damage_mask(r->damage, r->damage_count, &span, x), x);
        for (int64_t i = x; i < width; i++) {
            uint32_t b = load32(cur + i);
            if (mode == DAMASK_SCAN_STORE_UPDATE && store[i] != b) r->store_differed = 1;
            if (mode == DAMASK_SCAN_STORE_COPY || mode == DAMASK_SCAN_STORE_UPDATE || (mode == DAMASK_SCAN_STORE_COPY_CHANGED && block_raw))
                store[i] = b;
        }
    }
    finish(&s);
    r->bytes_differ = raw;
}
