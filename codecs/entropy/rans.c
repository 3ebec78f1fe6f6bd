#include "codecs/entropy/rans.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void fill_cum(rans_table *t)
{
    uint32_t at = 0;
    for (int s = 0; s < RANS_SYMBOLS; s++) {
        t->cum[s] = (uint16_t)at;
        at += t->freq[s];
    }
}

void rans_table_from_counts(rans_table *t, const uint32_t *counts, int symbols)
{
    memset(t, 0, sizeof *t);
    uint64_t total = 0;
    for (int s = 0; s < symbols; s++)
        total += counts[s];
    if (total == 0) {
        t->freq[0] = RANS_TOTAL;
        fill_cum(t);
        return;
    }
    /* proportional shares, at least 1 each; then the rounding error taken from (or given to) the
     * largest share that can take it */
    int32_t sum = 0;
    for (int s = 0; s < symbols; s++) {
        if (!counts[s])
            continue;
        uint64_t f = (counts[s] * (uint64_t)RANS_TOTAL + total / 2) / total;
        f = f < 1 ? 1 : f;
        t->freq[s] = (uint16_t)f;
        sum += (int32_t)f;
    }
    while (sum != (int32_t)RANS_TOTAL) {
        const bool over = sum > (int32_t)RANS_TOTAL;
        int best = -1;
        for (int s = 0; s < symbols; s++)
            if (counts[s] && (!over || t->freq[s] > 1) && (best < 0 || t->freq[s] > t->freq[best]))
                best = s;
        const int32_t move = over ? (sum - (int32_t)RANS_TOTAL < t->freq[best] - 1 ? sum - (int32_t)RANS_TOTAL
                                                                                     : t->freq[best] - 1)
                                  : (int32_t)RANS_TOTAL - sum;
        t->freq[best] = (uint16_t)(over ? t->freq[best] - move : t->freq[best] + move);
        sum += over ? -move : move;
    }
    fill_cum(t);
}

int rans_check_freqs(const uint16_t *freq, int symbols)
{
    uint32_t sum = 0;
    for (int s = 0; s < symbols; s++)
        sum += freq[s];
    return sum == RANS_TOTAL ? 0 : -1;
}

/* -log2(f / RANS_TOTAL) in 1/256 bit for every f, filled once (the encoder's choices call it in
 * their inner loops). */
static uint32_t cost_of_freq[RANS_TOTAL + 1];
static pthread_once_t cost_once = PTHREAD_ONCE_INIT;
static void fill_costs(void)
{
    cost_of_freq[0] = 255u * 256;
    for (uint32_t f = 1; f <= RANS_TOTAL; f++)
        cost_of_freq[f] = (uint32_t)lround(-log2((double)f / RANS_TOTAL) * 256);
}

uint32_t rans_freq_cost(uint32_t f)
{
    pthread_once(&cost_once, fill_costs);
    return cost_of_freq[f <= RANS_TOTAL ? f : 0];
}

uint32_t rans_cost(const rans_table *t, int symbol)
{
    return rans_freq_cost(t->freq[symbol]);
}

bool rans_encode(const rans_symbol *symbols, size_t n, byte_buffer *out)
{
    /* backwards: each state's words come out in reverse, and are turned round at the end */
    uint8_t *rev[2] = {malloc(n + 4), malloc(n + 4)};
    size_t k[2] = {0, 0};
    if (!rev[0] || !rev[1]) {
        free(rev[0]);
        free(rev[1]);
        return false;
    }
    uint32_t x[2] = {RANS_LOW, RANS_LOW};
    for (size_t i = n; i-- > 0;) {
        const rans_table *t = symbols[i].table;
        const uint32_t f = t->freq[symbols[i].symbol], c = t->cum[symbols[i].symbol];
        const uint64_t x_max = (uint64_t)((RANS_LOW >> RANS_PROB_BITS) << 16) * f; /* 2^32 for f = RANS_TOTAL */
        const int j = (int)(i & 1);
        if (x[j] >= x_max) { /* one word always brings it below: x < 2^32 <= 2^16 x_max */
            rev[j][k[j]++] = (uint8_t)(x[j] >> 8); /* reversed: the decoder reads the low byte first */
            rev[j][k[j]++] = (uint8_t)x[j];
            x[j] >>= 16;
        }
        x[j] = ((x[j] / f) << RANS_PROB_BITS) + (x[j] % f) + c;
    }
    bool ok = bytes_reserve(out, 8 + 10 + k[0] + k[1]);
    for (int j = 0; j < 2; j++)
        ok = ok && bytes_u32(out, x[j]);
    for (uint64_t w = k[0] / 2; ok; w >>= 7) { /* state 0's words: a varint */
        ok = bytes_u8(out, (uint8_t)(w >= 0x80 ? (w & 0x7F) | 0x80 : w));
        if (w < 0x80)
            break;
    }
    for (int j = 0; j < 2; j++)
        for (size_t i = k[j]; ok && i-- > 0;)
            ok = bytes_u8(out, rev[j][i]);
    free(rev[0]);
    free(rev[1]);
    return ok;
}

static int last_symbol(const uint16_t *freq, int symbols)
{
    int last = 0;
    for (int s = 0; s < symbols; s++)
        if (freq[s])
            last = s;
    return last;
}

static size_t table_bytes(int last)
{
    const size_t b = sizeof(rans_dtable) + ((size_t)last + 2) * sizeof(uint16_t);
    return (b + 63) / 64 * 64;
}

size_t rans_dtables_storage(const uint16_t (*freqs)[RANS_SYMBOLS], int n, int symbols)
{
    size_t total = 0;
    for (int t = 0; t < n; t++)
        total += table_bytes(last_symbol(freqs[t], symbols));
    return total ? total : 64;
}

int rans_dtables_build(const rans_dtable **tables, const uint16_t (*freqs)[RANS_SYMBOLS], int n, int symbols,
                       void *storage)
{
    for (int t = 0; t < n; t++)
        if (rans_check_freqs(freqs[t], symbols) != 0)
            return -1;
    uint8_t *at = storage;
    for (int t = 0; t < n; t++) {
        rans_dtable *d = (rans_dtable *)(void *)at;
        const int last = last_symbol(freqs[t], symbols);
        uint32_t sum = 0;
        for (int s = 0; s <= last; s++) {
            d->cum[s] = (uint16_t)sum;
            sum += freqs[t][s];
        }
        d->cum[last + 1] = (uint16_t)sum; /* RANS_TOTAL */
        /* the symbol holding each look-up bucket's first slot */
        for (uint32_t j = 0, i = 0; j < RANS_LUT; j++) {
            const uint32_t slot = j << (RANS_PROB_BITS - RANS_LUT_BITS);
            while (d->cum[i + 1] <= slot)
                i++;
            d->lut[j] = (uint8_t)i;
        }
        tables[t] = d;
        at += table_bytes(last);
    }
    return 0;
}

void rans_decoder_init(rans_decoder *d, const uint8_t *data, size_t size)
{
    d->overrun = size < 9;
    for (int j = 0; j < 2; j++) {
        d->x[j] = 0;
        for (int i = 0; i < 4; i++) {
            const size_t at = (size_t)(4 * j + i);
            d->x[j] |= (uint32_t)(at < size ? data[at] : 0) << (8 * i);
        }
    }
    /* state 0's word count; a cut or oversized count leaves state 0 what there is */
    size_t pos = size < 8 ? size : 8;
    uint64_t words = 0;
    bool done = false;
    for (int i = 0; i < 10 && pos < size && !done; i++) {
        const uint8_t b = data[pos++];
        words |= (uint64_t)(b & 0x7F) << (7 * i);
        done = !(b & 0x80);
    }
    d->overrun |= !done;
    const size_t rest = size - pos, first = words * 2 <= rest && words <= rest ? (size_t)words * 2 : rest;
    d->overrun |= first != words * 2;
    d->p[0] = data + pos;
    d->end[0] = data + pos + first;
    d->p[1] = d->end[0];
    d->end[1] = data + size;
}
