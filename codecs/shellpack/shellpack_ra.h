/* What shellpack-ra's reader, whole-clip decoder and sampler share (shellpack_ra.c,
 * shellpack_ra_sampler.c): the parsed stream and the inner loop that decodes one frame of a
 * section.  The format is described at the top of shellpack_ra.c. */
#ifndef ANIMBENCH_SHELLPACK_RA_H
#define ANIMBENCH_SHELLPACK_RA_H

#include <stdbool.h>
#include <stdint.h>

#include "codecs/entropy/geometric_table.h"
#include "codecs/entropy/rans.h"
#include "codecs/shellpack/shellpack.h"

#define SR_BUCKETS_MAX 16
#define SR_CONTEXTS 16
#define SR_CHECKPOINT 16 /* the sampler keeps where every 16th section starts */
enum { SR_FOLDING, SR_CONSTANTS, SR_STEPS, SR_ANCHORS, SR_TABLES, SR_INDEX, SR_DATA, SR_PARTS };

/* A component's decoding state within a section (12 bytes: a frame's loop walks them in order). */
typedef struct sr_state {
    int32_t v1, v2;     /* the last two values */
    uint8_t c1, ctx;    /* the last residual's magnitude's bit length (at most 15), and the larger of the last two's */
    int8_t weight;      /* the adaptive predictor's slope, in 1/16 (0..32) */
    uint8_t mode;       /* SP_PRED_* | kind << 2 */
} sr_state;

#define SR_GROUPS (SP_PREDICTORS * SP_TYPES) /* a frame's components by predictor, then by kind */

/* An animated sub-track: where its components are and where its values go in a pose. */
typedef struct sr_track {
    uint16_t bone;
    uint8_t type, comps;
    uint16_t idx[SP_MAX_COMPS]; /* its components' indices */
} sr_track;

/* Where a component's curve is, for the encoder. */
typedef struct sr_comp_ref {
    uint16_t bone;
    uint8_t type, comp;
} sr_comp_ref;

/* A parsed stream: header, shape (modes, steps, predictors, constants; no curves), per component
 * its anchor, kind and step, the decoder tables, and the section index's checkpoints. */
typedef struct sr_model {
    uint8_t flags;
    double fps;
    float target_mm, shell_mm;
    int frames, section_frames, sections;
    int buckets[SP_TYPES];
    const uint8_t *part[SR_PARTS];
    size_t part_size[SR_PARTS];
    sp_plan shape;
    int ncomps, ntracks;
    int group_start[SR_GROUPS + 1]; /* group g: components [group_start[g], group_start[g + 1]) */
    uint8_t *kind;    /* per component */
    int32_t *anchor;  /* per component: its value at frame 0 */
    double *step;     /* per component */
    uint8_t *predictor;
    sr_track *tracks;
    const rans_dtable *by_context[SP_TYPES * SR_CONTEXTS]; /* kind * SR_CONTEXTS + context */
    const rans_dtable *restart[SP_TYPES];
    void *table_storage;
    uint32_t *checkpoint; /* per SR_CHECKPOINT sections: the data offset and the index offset */
} sr_model;

/* Parses and checks a stream's structure (every later read stays within bytes, which must outlive
 * the model); 0, or -1 with a message. */
int sr_model_read(const uint8_t *bytes, size_t size, const anim_rig *rig, sr_model *m, char *err, size_t err_size);
void sr_model_free(sr_model *m);
/* Section s's rANS and raw bytes. */
void sr_model_section(const sr_model *m, int s, const uint8_t **rans, size_t *rans_size, const uint8_t **raw,
                      size_t *raw_size);
/* The constant and rest sub-tracks of every joint into a pose (the animated ones: identity). */
void sr_model_static_pose(const sr_model *m, const anim_rig *rig, double *pose);

/* Raw bits, most significant first, never read past the end (zeros, and overrun set). */
typedef struct sr_bits {
    const uint8_t *p, *end;
    uint64_t acc;
    int count;
    bool overrun;
} sr_bits;

static inline void sr_bits_init(sr_bits *b, const uint8_t *data, size_t size)
{
    b->p = data;
    b->end = data + size;
    b->acc = 0;
    b->count = 0;
    b->overrun = false;
}

static inline uint32_t sr_bits_get(sr_bits *b, int n) /* n <= 32 */
{
    if (b->count < n) {
        while (b->count <= 56 && b->p < b->end) {
            b->acc = (b->acc << 8) | *b->p++;
            b->count += 8;
        }
        if (b->count < n) {
            b->acc <<= n - b->count;
            b->count = n;
            b->overrun = true;
        }
    }
    b->count -= n;
    return (uint32_t)((b->acc >> b->count) & ((1ull << n) - 1));
}

/* A section being decoded. */
typedef struct sr_cursor {
    int section, next; /* the next frame to decode; section -1: none */
    rans_decoder d;
    sr_bits raw;
} sr_cursor;

void sr_cursor_start(const sr_model *m, sr_cursor *c, int section);

static inline int sr_bit_length(uint32_t a)
{
    const int n = (a != 0) * (32 - __builtin_clz(a | 1));
    return n < SR_CONTEXTS - 1 ? n : SR_CONTEXTS - 1;
}

static inline int32_t sr_wrap(int64_t x)
{
    const uint32_t u = (uint32_t)((uint64_t)x & 0xFFFFFFFFu);
    return (int32_t)(u <= INT32_MAX ? (int64_t)u : (int64_t)u - 4294967296LL);
}

static inline int64_t sr_floor_div16(int64_t x)
{
    return x >= 0 ? x / 16 : -((-x + 15) / 16);
}

/* The weight a restart gives a predictor: the slope term of v1 + floor((v1 - v2) w / 16) is 0 for
 * "previous", the whole slope for "linear", and the adaptive predictor's starting weight. */
static inline int8_t sr_initial_weight(int predictor)
{
    return (int8_t)(predictor == SP_PRED_LINEAR || predictor == SP_PRED_ADAPTIVE ? 16 : 0);
}

/* A component's prediction at the k-th frame of its section (k >= 1): shellpack.h's predictors
 * (none, previous, linear, adaptive) with their history restarted at the section's first frame,
 * in one expression: none is 0, the others v1 + floor((v1 - v2) w / 16), w 0 until the second
 * frame.  No branch on the predictor: a frame's components mix them. */
static inline int64_t sr_predict(const sr_state *s, int k)
{
    const int64_t w = k >= 2 ? s->weight : 0;
    const int64_t p = s->v1 + sr_floor_div16(((int64_t)s->v1 - s->v2) * w);
    return (s->mode & 3) == SP_PRED_NONE ? 0 : p;
}

static inline void sr_update(sr_state *s, int k, int32_t v, int32_t r)
{
    const bool adapt = (s->mode & 3) == SP_PRED_ADAPTIVE && k >= 2 && r != 0 && s->v1 != s->v2;
    const int step = ((r > 0) == (s->v1 > s->v2)) ? 1 : -1;
    const int w = s->weight + (adapt ? step : 0);
    s->weight = (int8_t)(w < 0 ? 0 : w > 32 ? 32 : w);
    s->v2 = s->v1;
    s->v1 = v;
    const uint8_t c = (uint8_t)sr_bit_length(r < 0 ? 0u - (uint32_t)r : (uint32_t)r);
    s->ctx = c > s->c1 ? c : s->c1;
    s->c1 = c;
}

/* A section's first frame restarts a component: section 0 at its anchor, a later one at the anchor
 * plus a residual. */
static inline void sr_restart(sr_state *s, int32_t v)
{
    s->v1 = s->v2 = v;
    s->c1 = s->ctx = 0;
    s->weight = sr_initial_weight(s->mode & 3);
}

/* The context of a residual from its symbol: the bit length of its magnitude, at most 15. */
static inline uint8_t sr_symbol_bits(int sym)
{
    const int n = sym < 3 ? (sym != 0) : 2 + ((sym - 3) >> 2);
    return (uint8_t)(n < SR_CONTEXTS - 1 ? n : SR_CONTEXTS - 1);
}

static inline int32_t sr_from_u32(uint32_t u)
{
    return (int32_t)(u <= INT32_MAX ? (int64_t)u : (int64_t)u - 4294967296LL);
}

/* The loop over one group's components at the k-th frame of a section, k >= 1; predictor and k >= 2
 * are constants where it is called, so each group's loop has no branch on them.  Arithmetic modulo
 * 2^32 is sr_wrap's of the int64 expression. */
#define SR_SWAP_STATES()                                      \
    do {                                                      \
        const uint32_t x_ = x0;                               \
        const uint8_t *p_ = p0, *e_ = e0;                     \
        x0 = x1, x1 = x_, p0 = p1, p1 = p_, e0 = e1, e1 = e_; \
    } while (0)
#define SR_GROUP_LOOP(PRED, STEADY)                                                                         \
    for (int i = a; i < z; i++) {                                                                           \
        sr_state *s = &st[i];                                                                               \
        const int sym = rans_decode_step(&x0, tables[s->ctx], &p0, e0, &overrun);                           \
        SR_SWAP_STATES();                                                                                   \
        const int32_t r = gt_residual(sym, sr_bits_get(&raw, gt_raw_bits(sym)));                            \
        uint32_t v;                                                                                         \
        if ((PRED) == SP_PRED_NONE)                                                                         \
            v = (uint32_t)r;                                                                                \
        else if ((PRED) == SP_PRED_PREVIOUS || !(STEADY))                                                   \
            v = (uint32_t)s->v1 + (uint32_t)r;                                                              \
        else if ((PRED) == SP_PRED_LINEAR)                                                                  \
            v = 2u * (uint32_t)s->v1 - (uint32_t)s->v2 + (uint32_t)r;                                       \
        else {                                                                                              \
            const int64_t d = (int64_t)s->v1 - s->v2;                                                       \
            v = (uint32_t)s->v1 + (uint32_t)sr_floor_div16(d * s->weight) + (uint32_t)r;                    \
            const bool adapt = (STEADY) && r != 0 && d != 0;                                                \
            const int w = s->weight + (adapt ? ((r > 0) == (d > 0) ? 1 : -1) : 0);                          \
            s->weight = (int8_t)(w < 0 ? 0 : w > 32 ? 32 : w);                                              \
        }                                                                                                   \
        s->v2 = s->v1;                                                                                      \
        s->v1 = sr_from_u32(v);                                                                             \
        const uint8_t cb = sr_symbol_bits(sym);                                                             \
        s->ctx = cb > s->c1 ? cb : s->c1;                                                                   \
        s->c1 = cb;                                                                                         \
    }

/* Decodes frame c->next (the k-th of its section) into st[i].v1 for every component.  The coder's
 * states and the raw bits live in locals for the loop (st cannot alias them). */
static inline void sr_decode_frame(const sr_model *m, sr_cursor *c, sr_state *restrict st)
{
    const int k = c->next - c->section * m->section_frames;
    uint32_t x0 = c->d.x[0], x1 = c->d.x[1];
    const uint8_t *p0 = c->d.p[0], *p1 = c->d.p[1], *e0 = c->d.end[0], *e1 = c->d.end[1];
    bool overrun = c->d.overrun;
    sr_bits raw = c->raw;
    if (k == 0) {
        for (int i = 0; i < m->ncomps; i++) {
            int32_t v = m->anchor[i];
            if (c->section > 0) {
                const int sym = rans_decode_step(&x0, m->restart[m->kind[i]], &p0, e0, &overrun);
                SR_SWAP_STATES();
                v = sr_wrap((int64_t)v + gt_residual(sym, sr_bits_get(&raw, gt_raw_bits(sym))));
            }
            sr_restart(&st[i], v);
        }
    } else {
        for (int g = 0; g < SR_GROUPS; g++) {
            const int a = m->group_start[g], z = m->group_start[g + 1];
            if (a == z)
                continue;
            const rans_dtable *const *tables = m->by_context + (g % SP_TYPES) * SR_CONTEXTS;
            switch ((g / SP_TYPES) * 2 + (k >= 2)) { /* SR_GROUP_ORDER: linear, adaptive, previous, none */
            case 0:
                SR_GROUP_LOOP(SP_PRED_LINEAR, false) break;
            case 1:
                SR_GROUP_LOOP(SP_PRED_LINEAR, true) break;
            case 2:
                SR_GROUP_LOOP(SP_PRED_ADAPTIVE, false) break;
            case 3:
                SR_GROUP_LOOP(SP_PRED_ADAPTIVE, true) break;
            case 4:
            case 5:
                SR_GROUP_LOOP(SP_PRED_PREVIOUS, true) break;
            default:
                SR_GROUP_LOOP(SP_PRED_NONE, true) break;
            }
        }
    }
    c->d.x[0] = x0;
    c->d.x[1] = x1;
    c->d.p[0] = p0;
    c->d.p[1] = p1;
    c->d.end[0] = e0;
    c->d.end[1] = e1;
    c->d.overrun = overrun;
    c->raw = raw;
    c->next++;
}
#undef SR_GROUP_LOOP
#undef SR_SWAP_STATES

/* The bucket of a context when a kind has `buckets` tables (1, 2, 4, 8 or 16). */
static inline int sr_bucket_of(int buckets, int ctx)
{
    switch (buckets) {
    case 1:
        return 0;
    case 2:
        return ctx > 2;
    case 4:
        return ctx == 0 ? 0 : ctx <= 2 ? 1 : ctx <= 5 ? 2 : 3;
    case 8:
        return ctx < 7 ? ctx : 7;
    default:
        return ctx;
    }
}

#endif
