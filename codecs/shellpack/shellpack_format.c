/* shellpack's stream: the writer, the reader and the decoder (shellpack.h).
 *
 * Bytes, little-endian:
 *   "SP", u8 version 1, u8 flags (1: quaternion rotations, 2: deflated residuals),
 *   u32 frames, f64 fps, f32 target (mm of shell distance), f32 shell distance (mm),
 *   u32 rig checksum, then seven section sizes as LEB128 varints (shortest form only):
 *   folding   2 bits per joint and sub-track (rotation, translation, scale): 0 rest, 1 constant, 2 animated
 *   constants f32 per component of every constant sub-track
 *   steps     range-coded, per animated sub-track: its smallest step index (as a difference from
 *             the previous one of its kind), each component's index above it, each predictor
 *   keys      empty (every frame coded), or a range-coded mask per joint with an animated sub-track
 *   rotation, translation, scale residuals: each a varint length, a range-coded stream and the
 *             raw bits beside it (or, flag 2, a varint length and a zlib stream of zigzag varints);
 *             curves joint by joint, component by component, kept frames in order.
 *
 * Decoding is integer-only up to the quantised values; turning them into
 * poses uses only IEEE-754 additions, multiplications, divisions and square
 * roots (the log map's exponential is a fixed polynomial, not libm), so a
 * stream decodes bit for bit alike on every compiler and level (the build
 * forbids FMA contraction). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/limits.h"
#include "codecs/entropy/range_coder.h"
#include "codecs/shellpack/shellpack.h"

#define SP_VERSION 1
#define SP_SECTIONS 7
enum { SEC_FOLDING, SEC_CONSTANTS, SEC_STEPS, SEC_KEYS, SEC_ROT, SEC_POS, SEC_SCL };
static const char *const SECTION_NAMES[SP_SECTIONS] = {
    "folding", "constants", "steps and predictors", "key masks",
    "rotation residuals", "translation residuals", "scale residuals"};
#define FIXED_HEADER 28

int sp_plan_init(sp_plan *p, int bones, int frames, int rot_comps)
{
    memset(p, 0, sizeof *p);
    p->bones = bones;
    p->frames = frames;
    p->rot_comps = rot_comps;
    p->tracks = calloc((size_t)bones * SP_TYPES, sizeof *p->tracks);
    p->kept = malloc((size_t)bones * (size_t)frames);
    p->q = malloc((size_t)bones * SP_TYPES * SP_MAX_COMPS * (size_t)frames * sizeof *p->q); /* read only where written */
    if (!p->tracks || !p->kept || !p->q) {
        sp_plan_free(p);
        return -1;
    }
    memset(p->kept, 1, (size_t)bones * (size_t)frames);
    return 0;
}

void sp_plan_free(sp_plan *p)
{
    free(p->tracks);
    free(p->kept);
    free(p->q);
    memset(p, 0, sizeof *p);
}

/* 2^(-r/16), r = 0..15, the nearest doubles */
static const double STEP_MANTISSA[16] = {
    0x1.0000000000000p+0,  0x1.ea4afa2a490dap-1, 0x1.d5818dcfba487p-1, 0x1.c199bdd85529cp-1,
    0x1.ae89f995ad3adp-1, 0x1.9c49182a3f090p-1, 0x1.8ace5422aa0dbp-1, 0x1.7a11473eb0187p-1,
    0x1.6a09e667f3bcdp-1, 0x1.5ab07dd485429p-1, 0x1.4bfdad5362a27p-1, 0x1.3dea64c123422p-1,
    0x1.306fe0a31b715p-1, 0x1.2387a6e756238p-1, 0x1.172b83c7d517bp-1, 0x1.0b5586cf9890fp-1};

/* 2^-e, e = 0..63: a step's power of two (SP_STEP_INDEX_MAX >> 4 is 63) */
static const double POW2_NEG[64] = {
    0x1p-0, 0x1p-1, 0x1p-2, 0x1p-3, 0x1p-4, 0x1p-5, 0x1p-6, 0x1p-7,
    0x1p-8, 0x1p-9, 0x1p-10, 0x1p-11, 0x1p-12, 0x1p-13, 0x1p-14, 0x1p-15,
    0x1p-16, 0x1p-17, 0x1p-18, 0x1p-19, 0x1p-20, 0x1p-21, 0x1p-22, 0x1p-23,
    0x1p-24, 0x1p-25, 0x1p-26, 0x1p-27, 0x1p-28, 0x1p-29, 0x1p-30, 0x1p-31,
    0x1p-32, 0x1p-33, 0x1p-34, 0x1p-35, 0x1p-36, 0x1p-37, 0x1p-38, 0x1p-39,
    0x1p-40, 0x1p-41, 0x1p-42, 0x1p-43, 0x1p-44, 0x1p-45, 0x1p-46, 0x1p-47,
    0x1p-48, 0x1p-49, 0x1p-50, 0x1p-51, 0x1p-52, 0x1p-53, 0x1p-54, 0x1p-55,
    0x1p-56, 0x1p-57, 0x1p-58, 0x1p-59, 0x1p-60, 0x1p-61, 0x1p-62, 0x1p-63};
_Static_assert(SP_STEP_INDEX_MAX >> 4 < 64, "POW2_NEG covers every step index");

double sp_step(int index)
{
    /* exact either way (a power of two); the table because the encoder's trials ask for steps millions of
     * times (ldexp was about 6 % of shellpack-comp-fast's encode in a profile of the jump) */
    if (index >= 0 && index <= SP_STEP_INDEX_MAX)
        return STEP_MANTISSA[index & 15] * POW2_NEG[index >> 4];
    return ldexp(STEP_MANTISSA[index & 15], -(index >> 4));
}

/* 1 / ((2n-1) 2n) and 1 / (2n (2n+1)), n = 1..16: cos h and sin h / h as nested polynomials in h^2 */
static const double COS_DIV[16] = {1.0 / 2,   1.0 / 12,  1.0 / 30,  1.0 / 56,  1.0 / 90,  1.0 / 132,
                                   1.0 / 182, 1.0 / 240, 1.0 / 306, 1.0 / 380, 1.0 / 462, 1.0 / 552,
                                   1.0 / 650, 1.0 / 756, 1.0 / 870, 1.0 / 992};
static const double SIN_DIV[16] = {1.0 / 6,   1.0 / 20,  1.0 / 42,  1.0 / 72,  1.0 / 110, 1.0 / 156,
                                   1.0 / 210, 1.0 / 272, 1.0 / 342, 1.0 / 420, 1.0 / 506, 1.0 / 600,
                                   1.0 / 702, 1.0 / 812, 1.0 / 930, 1.0 / 1056};

/* The quaternion of a log-map vector v (axis times angle): (v / |v| sin(|v|/2), cos(|v|/2)).
 * Terms enough for 1e-16 at the largest half angle of each range. */
static void exp_map(const double v[3], double q[4])
{
    const double x = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * 0.25;
    const int terms = x <= 0.0625 ? 6 : x <= 0.25 ? 7 : x <= 1 ? 9 : x <= 4 ? 12 : 16;
    double c = 1.0, s = 1.0;
    for (int n = terms - 1; n >= 0; n--) {
        c = 1.0 - x * COS_DIV[n] * c;
        s = 1.0 - x * SIN_DIV[n] * s;
    }
    const double half_sinc = 0.5 * s;
    q[0] = v[0] * half_sinc;
    q[1] = v[1] * half_sinc;
    q[2] = v[2] * half_sinc;
    q[3] = c;
}

void sp_to_rotation(const sp_plan *p, const double *v, double q[4])
{
    if (p->rot_comps == 3) {
        exp_map(v, q);
        return;
    }
    const double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    if (!(len > 0)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    for (int i = 0; i < 4; i++)
        q[i] = v[i] / len;
}

void sp_track_values(const sp_plan *p, int bone, int type, int f0, int f1, double *out)
{
    const int comps = sp_comps(p, type);
    const uint8_t *kept = sp_kept(p, bone);
    double step[SP_MAX_COMPS];
    for (int c = 0; c < comps; c++)
        step[c] = sp_step(sp_track_at(p, bone, type)->step_index[c]);
    int a = f0;
    while (a > 0 && !kept[a])
        a--;
    int b = a;
    for (int f = f0; f <= f1; f++) {
        if (kept[f]) {
            a = b = f;
            for (int c = 0; c < comps; c++)
                out[(size_t)(f - f0) * comps + c] = (double)sp_curve(p, bone, type, c)[f] * step[c];
            continue;
        }
        if (b <= f) {
            b = f + 1;
            while (b < p->frames - 1 && !kept[b])
                b++;
        }
        const double u = (double)(f - a) / (double)(b - a);
        for (int c = 0; c < comps; c++) {
            const int32_t *k = sp_curve(p, bone, type, c);
            out[(size_t)(f - f0) * comps + c] = ((double)k[a] + (double)((int64_t)k[b] - k[a]) * u) * step[c];
        }
    }
}

void sp_decode_track(const sp_plan *p, const anim_rig *rig, int bone, int type, int f0, int f1, double *out)
{
    double values[64 * SP_MAX_COMPS];
    const sp_track *t = sp_track_at(p, bone, type);
    const int comps = sp_comps(p, type), at = type == SP_ROT ? 3 : type == SP_POS ? 0 : 7;
    if (t->mode != SP_ANIM) {
        double v[SP_MAX_COMPS] = {0, 0, 0, 0}, pose[4];
        if (t->mode == SP_CONST)
            for (int c = 0; c < comps; c++)
                v[c] = t->constant[c];
        else if (type == SP_POS)
            for (int c = 0; c < 3; c++)
                v[c] = rig->rest_offsets[bone * 3 + c];
        else if (type == SP_SCL)
            v[0] = v[1] = v[2] = 1;
        else if (comps == 4)
            v[3] = 1;
        if (type == SP_ROT)
            sp_to_rotation(p, v, pose);
        else
            memcpy(pose, v, 3 * sizeof *pose);
        for (int f = f0; f <= f1; f++)
            memcpy(out + (size_t)(f - f0) * POSE_STRIDE + at, pose, (type == SP_ROT ? 4 : 3) * sizeof *pose);
        return;
    }
    for (int g0 = f0; g0 <= f1; g0 += 64) { /* in blocks: no allocation */
        const int g1 = g0 + 63 < f1 ? g0 + 63 : f1;
        sp_track_values(p, bone, type, g0, g1, values);
        for (int f = g0; f <= g1; f++) {
            double *o = out + (size_t)(f - f0) * POSE_STRIDE + at;
            const double *v = values + (size_t)(f - g0) * comps;
            if (type == SP_ROT)
                sp_to_rotation(p, v, o);
            else
                memcpy(o, v, 3 * sizeof *o);
        }
    }
}

void sp_decode_local(const sp_plan *p, const anim_rig *rig, int bone, int f0, int f1, double *out)
{
    for (int type = 0; type < SP_TYPES; type++)
        sp_decode_track(p, rig, bone, type, f0, f1, out);
}

uint32_t sp_rig_checksum(const anim_rig *rig)
{
    uint32_t h = 2166136261u;
    uint8_t word[8];
#define MIX(n)                                 \
    for (int i_ = 0; i_ < (n); i_++)           \
        h = (h ^ word[i_]) * 16777619u;
    store_u32(word, (uint32_t)rig->bone_count);
    MIX(4)
    for (int b = 0; b < rig->bone_count; b++) {
        store_u32(word, (uint32_t)rig->parents[b]);
        MIX(4)
        for (int a = 0; a < 3; a++) {
            uint64_t bits;
            memcpy(&bits, &rig->rest_offsets[b * 3 + a], 8);
            store_u32(word, (uint32_t)bits);
            store_u32(word + 4, (uint32_t)(bits >> 32));
            MIX(8)
        }
    }
#undef MIX
    return h;
}

/* ---- writing ---- */

void sp_put_varint(byte_buffer *b, uint64_t v)
{
    while (v >= 0x80) {
        bytes_u8(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    bytes_u8(b, (uint8_t)v);
}

bool sp_get_varint(const uint8_t *data, size_t size, size_t *pos, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 10 && *pos < size; i++) {
        const uint8_t byte = data[(*pos)++];
        x |= (uint64_t)(byte & 0x7F) << (7 * i);
        if (!(byte & 0x80)) {
            if (i > 0 && byte == 0)
                return false; /* not the shortest form */
            *v = x;
            return true;
        }
        if (i == 9)
            return false;
    }
    return false;
}

bool sp_joint_animated(const sp_plan *p, int bone)
{
    for (int type = 0; type < SP_TYPES; type++)
        if (sp_track_at(p, bone, type)->mode == SP_ANIM)
            return true;
    return false;
}

static bool joint_has_gaps(const sp_plan *p, int bone)
{
    const uint8_t *kept = sp_kept(p, bone);
    for (int f = 0; f < p->frames; f++)
        if (!kept[f])
            return true;
    return false;
}

typedef struct section {
    const uint8_t *data;
    size_t size;
} section;

typedef struct step_models {
    residual_model base, spread;
    rc_prob predictor[SP_TYPES][3];
} step_models;

static void step_models_init(step_models *m)
{
    residual_model_init(&m->base);
    residual_model_init(&m->spread);
    for (int t = 0; t < SP_TYPES; t++)
        for (int i = 0; i < 3; i++)
            m->predictor[t][i] = RC_PROB_INIT;
}

bool sp_any_animated(const sp_plan *p)
{
    for (int b = 0; b < p->bones; b++)
        if (sp_joint_animated(p, b))
            return true;
    return false;
}

void sp_write_steps(const sp_plan *p, byte_buffer *out)
{
    if (!sp_any_animated(p))
        return;
    rc_encoder e;
    rc_encoder_init(&e, out);
    step_models m;
    step_models_init(&m);
    int previous[SP_TYPES] = {0, 0, 0};
    for (int b = 0; b < p->bones; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            const sp_track *t = sp_track_at(p, b, type);
            if (t->mode != SP_ANIM)
                continue;
            int base = t->step_index[0];
            for (int c = 1; c < sp_comps(p, type); c++)
                base = t->step_index[c] < base ? t->step_index[c] : base;
            residual_encode(&e, NULL, &m.base, type, base - previous[type]);
            previous[type] = base;
            for (int c = 0; c < sp_comps(p, type); c++) {
                residual_encode(&e, NULL, &m.spread, type, t->step_index[c] - base);
                rc_encode_bit(&e, &m.predictor[type][0], t->predictor[c] >> 1);
                rc_encode_bit(&e, &m.predictor[type][1 + (t->predictor[c] >> 1)], t->predictor[c] & 1);
            }
        }
    rc_encoder_finish(&e);
}

int sp_read_steps(sp_plan *p, const uint8_t *data, size_t size, char *err, size_t err_size)
{
    if (!sp_any_animated(p)) {
        if (size)
            return snprintf(err, err_size, "shellpack stream: %zu bytes of steps, no animated sub-track", size), -1;
        return 0;
    }
    rc_decoder d;
    rc_decoder_init(&d, data, size);
    step_models m;
    step_models_init(&m);
    int previous[SP_TYPES] = {0, 0, 0};
    for (int b = 0; b < p->bones; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(p, b, type);
            if (t->mode != SP_ANIM)
                continue;
            const int64_t base = (int64_t)previous[type] + residual_decode(&d, NULL, &m.base, type);
            if (base < 0 || base > SP_STEP_INDEX_MAX)
                return snprintf(err, err_size, "shellpack stream: joint %d: step index %lld is not 0 to %d", b,
                                (long long)base, SP_STEP_INDEX_MAX),
                       -1;
            previous[type] = (int)base;
            for (int c = 0; c < sp_comps(p, type); c++) {
                const int64_t index = base + residual_decode(&d, NULL, &m.spread, type);
                if (index < base || index > SP_STEP_INDEX_MAX)
                    return snprintf(err, err_size, "shellpack stream: joint %d: step index %lld is not %lld to %d", b,
                                    (long long)index, (long long)base, SP_STEP_INDEX_MAX),
                           -1;
                t->step_index[c] = (uint16_t)index;
                const int high = rc_decode_bit(&d, &m.predictor[type][0]);
                t->predictor[c] = (uint8_t)(high * 2 + rc_decode_bit(&d, &m.predictor[type][1 + high]));
            }
        }
    if (d.overrun)
        return snprintf(err, err_size, "shellpack stream: the steps (%zu bytes) end before their last sub-track", size),
               -1;
    return 0;
}

typedef struct key_models {
    rc_prob has_gaps, mask[2];
} key_models;

static void key_models_init(key_models *m)
{
    m->has_gaps = m->mask[0] = m->mask[1] = RC_PROB_INIT;
}

static void write_keys(const sp_plan *p, byte_buffer *out)
{
    bool any = false;
    for (int b = 0; b < p->bones && !any; b++)
        any = sp_joint_animated(p, b) && joint_has_gaps(p, b);
    if (!any)
        return;
    rc_encoder e;
    rc_encoder_init(&e, out);
    key_models m;
    key_models_init(&m);
    for (int b = 0; b < p->bones; b++) {
        if (!sp_joint_animated(p, b))
            continue;
        const bool gaps = joint_has_gaps(p, b);
        rc_encode_bit(&e, &m.has_gaps, gaps);
        const uint8_t *kept = sp_kept(p, b);
        for (int f = 1; gaps && f < p->frames - 1; f++)
            rc_encode_bit(&e, &m.mask[kept[f - 1]], kept[f]);
    }
    rc_encoder_finish(&e);
}

/* Calls emit(ctx, comp, residual) for every residual of sub-track `type`, in stream order. */
typedef struct residual_sink {
    void (*emit)(void *self, int comp, int ctx, int32_t r);
    void *self;
} residual_sink;

static void walk_residuals(const sp_plan *p, int type, const residual_sink *sink)
{
    for (int b = 0; b < p->bones; b++) {
        const sp_track *t = sp_track_at(p, b, type);
        if (t->mode != SP_ANIM)
            continue;
        const uint8_t *kept = sp_kept(p, b);
        for (int c = 0; c < sp_comps(p, type); c++) {
            const int32_t *k = sp_curve(p, b, type, c);
            sp_predictor_state s;
            sp_predictor_reset(&s);
            uint32_t m1 = 0, m2 = 0;
            for (int f = 0; f < p->frames; f++) {
                if (!kept[f])
                    continue;
                const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(t->predictor[c], &s));
                sink->emit(sink->self, c, sp_curve_context(m1, m2), r);
                sp_predictor_update(t->predictor[c], &s, k[f], r);
                m2 = m1;
                m1 = sp_magnitude(r);
            }
        }
    }
}

/* One model for every component of a kind: x, y and z (and w) alike, they
 * learn faster together (1.5 % fewer bytes than a model each on Bandai clips). */
typedef struct rc_sink_state {
    rc_encoder e;
    bit_writer raw;
    residual_model model;
} rc_sink_state;

static void rc_emit(void *self, int comp, int ctx, int32_t r)
{
    rc_sink_state *s = self;
    (void)comp;
    residual_encode(&s->e, &s->raw, &s->model, ctx, r);
}

static void varint_emit(void *self, int comp, int ctx, int32_t r)
{
    (void)comp;
    (void)ctx;
    sp_put_varint(self, ((uint32_t)r << 1) ^ (uint32_t)-(int32_t)(r < 0)); /* zigzag */
}

bool sp_type_animated(const sp_plan *p, int type)
{
    for (int b = 0; b < p->bones; b++)
        if (sp_track_at(p, b, type)->mode == SP_ANIM)
            return true;
    return false;
}

static int write_residuals(const sp_plan *p, int type, bool gzip, byte_buffer *out, char *err, size_t err_size)
{
    if (!sp_type_animated(p, type))
        return 0;
    if (!gzip) {
        /* a varint of the range coder's bytes, its bytes, then the raw bits */
        byte_buffer coded, raw_bits;
        bytes_init(&coded);
        bytes_init(&raw_bits);
        rc_sink_state s;
        rc_encoder_init(&s.e, &coded);
        bit_writer_init(&s.raw, &raw_bits);
        residual_model_init(&s.model);
        walk_residuals(p, type, &(residual_sink){rc_emit, &s});
        rc_encoder_finish(&s.e);
        bit_writer_finish(&s.raw);
        sp_put_varint(out, coded.size);
        bytes_append(out, coded.data, coded.size);
        bytes_append(out, raw_bits.data, raw_bits.size);
        const bool failed = coded.failed || raw_bits.failed;
        bytes_free(&coded);
        bytes_free(&raw_bits);
        if (failed)
            out->failed = true;
        return 0;
    }
    byte_buffer raw;
    bytes_init(&raw);
    walk_residuals(p, type, &(residual_sink){varint_emit, &raw});
    uLongf packed = compressBound((uLong)raw.size);
    uint8_t *z = raw.failed ? NULL : malloc(packed);
    const int rc = z ? compress2(z, &packed, raw.data, (uLong)raw.size, 9) : Z_MEM_ERROR;
    if (rc == Z_OK) {
        sp_put_varint(out, raw.size);
        bytes_append(out, z, packed);
    }
    free(z);
    bytes_free(&raw);
    if (rc != Z_OK)
        snprintf(err, err_size, "shellpack: deflating the residuals failed (zlib %d)", rc);
    return rc == Z_OK ? 0 : -1;
}

void sp_write_folding(const sp_plan *p, byte_buffer *folding, byte_buffer *constants)
{
    uint8_t packed = 0;
    int nbits = 0;
    for (int b = 0; b < p->bones; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            const sp_track *t = sp_track_at(p, b, type);
            packed |= (uint8_t)(t->mode << nbits);
            if ((nbits += 2) == 8) {
                bytes_u8(folding, packed);
                packed = 0;
                nbits = 0;
            }
            if (t->mode == SP_CONST)
                for (int c = 0; c < sp_comps(p, type); c++)
                    bytes_f32(constants, t->constant[c]);
        }
    if (nbits)
        bytes_u8(folding, packed);
}

int sp_write(const sp_plan *p, const sp_header *h, const anim_rig *rig, byte_buffer *out, codec_part *parts,
             int *part_count, char *err, size_t err_size)
{
    byte_buffer sec[SP_SECTIONS];
    for (int i = 0; i < SP_SECTIONS; i++)
        bytes_init(&sec[i]);
    sp_write_folding(p, &sec[SEC_FOLDING], &sec[SEC_CONSTANTS]);
    sp_write_steps(p, &sec[SEC_STEPS]);
    write_keys(p, &sec[SEC_KEYS]);
    int rc = 0;
    for (int type = 0; type < SP_TYPES && rc == 0; type++)
        rc = write_residuals(p, type, h->flags & SP_FLAG_GZIP, &sec[SEC_ROT + type], err, err_size);
    const size_t start = out->size;
    if (rc == 0) {
        bytes_append(out, "SP", 2);
        bytes_u8(out, SP_VERSION);
        bytes_u8(out, h->flags);
        bytes_u32(out, (uint32_t)p->frames);
        bytes_f64(out, h->fps);
        bytes_f32(out, h->target_mm);
        bytes_f32(out, h->shell_mm);
        bytes_u32(out, sp_rig_checksum(rig));
        for (int i = 0; i < SP_SECTIONS; i++)
            sp_put_varint(out, sec[i].size);
        parts[0] = (codec_part){"header", (long)(out->size - start)};
        *part_count = 1;
        for (int i = 0; i < SP_SECTIONS; i++) {
            bytes_append(out, sec[i].data, sec[i].size);
            if (sec[i].size)
                parts[(*part_count)++] = (codec_part){SECTION_NAMES[i], (long)sec[i].size};
        }
    }
    for (int i = 0; i < SP_SECTIONS; i++) {
        if (sec[i].failed || out->failed) {
            snprintf(err, err_size, "out of memory");
            rc = -1;
        }
        bytes_free(&sec[i]);
    }
    return rc;
}

/* ---- reading ---- */

static int fail(char *err, size_t err_size, const char *what)
{
    snprintf(err, err_size, "shellpack stream: %s", what);
    return -1;
}

static int read_keys(sp_plan *p, section s, char *err, size_t err_size)
{
    if (s.size == 0)
        return 0;
    if (!sp_any_animated(p))
        return snprintf(err, err_size, "shellpack stream: %zu bytes of key masks, no animated joint", s.size), -1;
    rc_decoder d;
    rc_decoder_init(&d, s.data, s.size);
    key_models m;
    key_models_init(&m);
    for (int b = 0; b < p->bones; b++) {
        if (!sp_joint_animated(p, b) || !rc_decode_bit(&d, &m.has_gaps))
            continue;
        uint8_t *kept = sp_kept(p, b);
        for (int f = 1; f < p->frames - 1; f++)
            kept[f] = (uint8_t)rc_decode_bit(&d, &m.mask[kept[f - 1]]);
    }
    if (d.overrun) {
        snprintf(err, err_size, "shellpack stream: the key masks (%zu bytes) end before their last joint", s.size);
        return -1;
    }
    return 0;
}

static int read_residuals(sp_plan *p, int type, bool gzip, section s, char *err, size_t err_size)
{
    static const char *const NAMES[SP_TYPES] = {"rotation", "translation", "scale"};
    if (!sp_type_animated(p, type)) {
        if (s.size)
            return snprintf(err, err_size, "shellpack stream: %zu bytes of %s residuals, no animated %s", s.size,
                            NAMES[type], NAMES[type]),
                   -1;
        return 0;
    }
    size_t count = 0;
    for (int b = 0; b < p->bones; b++)
        if (sp_track_at(p, b, type)->mode == SP_ANIM)
            for (int f = 0; f < p->frames; f++)
                count += sp_kept(p, b)[f] * (size_t)sp_comps(p, type);
    rc_decoder d;
    residual_model model;
    bit_reader bits;
    uint8_t *raw = NULL;
    size_t raw_size = 0, raw_pos = 0;
    if (gzip) {
        size_t pos = 0;
        uint64_t declared;
        if (!sp_get_varint(s.data, s.size, &pos, &declared) || declared < count || declared > 5 * (uint64_t)count)
            return snprintf(err, err_size, "shellpack stream: the %s residuals' length is missing or not %zu to %zu bytes",
                            NAMES[type], count, 5 * count),
                   -1;
        uLongf got = (uLongf)declared;
        raw = malloc(declared);
        if (!raw)
            return snprintf(err, err_size, "out of memory"), -1;
        uLong consumed = (uLong)(s.size - pos);
        if (uncompress2(raw, &got, s.data + pos, &consumed) != Z_OK || got != declared || consumed != s.size - pos) {
            free(raw);
            return snprintf(err, err_size, "shellpack stream: the %s residuals are not one zlib stream of %llu bytes",
                            NAMES[type], (unsigned long long)declared),
                   -1;
        }
        raw_size = (size_t)declared;
    } else {
        size_t pos = 0;
        uint64_t coded;
        if (!sp_get_varint(s.data, s.size, &pos, &coded) || coded > s.size - pos)
            return snprintf(err, err_size,
                            "shellpack stream: the %s residuals' coded length is missing or past their %zu bytes",
                            NAMES[type], s.size),
                   -1;
        rc_decoder_init(&d, s.data + pos, (size_t)coded);
        bit_reader_init(&bits, s.data + pos + coded, s.size - pos - (size_t)coded);
        residual_model_init(&model);
    }
    bool bad = false;
    for (int b = 0; b < p->bones && !bad; b++) {
        const sp_track *t = sp_track_at(p, b, type);
        if (t->mode != SP_ANIM)
            continue;
        const uint8_t *kept = sp_kept(p, b);
        for (int c = 0; c < sp_comps(p, type) && !bad; c++) {
            int32_t *k = sp_curve(p, b, type, c);
            sp_predictor_state st;
            sp_predictor_reset(&st);
            uint32_t m1 = 0, m2 = 0;
            const int pred = t->predictor[c];
            for (int f = 0; f < p->frames; f++) {
                if (!kept[f])
                    continue;
                int32_t r;
                if (gzip) {
                    uint64_t z;
                    if (!sp_get_varint(raw, raw_size, &raw_pos, &z) || z > UINT32_MAX) {
                        bad = true;
                        break;
                    }
                    r = sp_wrap32((int64_t)(z >> 1) ^ -(int64_t)(z & 1));
                } else
                    r = residual_decode(&d, &bits, &model, sp_curve_context(m1, m2));
                k[f] = sp_wrap32(sp_predict(pred, &st) + r);
                sp_predictor_update(pred, &st, k[f], r);
                m2 = m1;
                m1 = sp_magnitude(r);
            }
        }
    }
    free(raw);
    if (bad || (gzip && raw_pos != raw_size))
        return snprintf(err, err_size, "shellpack stream: the %s residuals are not %zu varints", NAMES[type], count), -1;
    if (!gzip && (d.overrun || bits.overrun))
        return snprintf(err, err_size, "shellpack stream: the %s residuals (%zu bytes) end before their last value",
                        NAMES[type], s.size),
               -1;
    return 0;
}

/* A log-map rotation the decoder accepts: half angle within SP_HALF_ANGLE_MAX. */
static bool rotation_in_range(const double *v)
{
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2] <= 4 * SP_HALF_ANGLE_MAX * SP_HALF_ANGLE_MAX;
}

int sp_check_rotations(const sp_plan *p, char *err, size_t err_size)
{
    if (p->rot_comps != 3)
        return 0;
    for (int b = 0; b < p->bones; b++) {
        const sp_track *t = sp_track_at(p, b, SP_ROT);
        double v[3];
        if (t->mode == SP_CONST) {
            for (int c = 0; c < 3; c++)
                v[c] = t->constant[c];
            if (!rotation_in_range(v))
                return snprintf(err, err_size, "shellpack stream: joint %d's constant rotation is over 8 radians", b), -1;
        }
        if (t->mode != SP_ANIM)
            continue;
        const double step[3] = {sp_step(t->step_index[0]), sp_step(t->step_index[1]), sp_step(t->step_index[2])};
        const int32_t *curve[3] = {sp_curve(p, b, SP_ROT, 0), sp_curve(p, b, SP_ROT, 1), sp_curve(p, b, SP_ROT, 2)};
        const uint8_t *kept = sp_kept(p, b);
        for (int f = 0; f < p->frames; f++) {
            if (!kept[f])
                continue;
            for (int c = 0; c < 3; c++)
                v[c] = (double)curve[c][f] * step[c];
            if (!rotation_in_range(v))
                return snprintf(err, err_size, "shellpack stream: joint %d's rotation at frame %d is over 8 radians", b,
                                f),
                       -1;
        }
    }
    return 0;
}

int sp_read_folding(sp_plan *p, const uint8_t *folding_data, size_t folding_size, const uint8_t *constants_data,
                    size_t constants_size, char *err, size_t err_size)
{
    const size_t folding = ((size_t)p->bones * SP_TYPES * 2 + 7) / 8;
    if (folding_size != folding) {
        snprintf(err, err_size, "shellpack stream: folding is %zu bytes, %d joints need %zu", folding_size,
                 p->bones, folding);
        return -1;
    }
    size_t const_bytes = 0;
    for (int b = 0; b < p->bones; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            const size_t i = (size_t)b * SP_TYPES + type;
            sp_track *t = sp_track_at(p, b, type);
            t->mode = (uint8_t)((folding_data[i / 4] >> (2 * (i % 4))) & 3);
            if (t->mode > SP_ANIM) {
                snprintf(err, err_size, "shellpack stream: joint %d, sub-track %d: mode 3 is not a mode", b, type);
                return -1;
            }
            const size_t comps = (size_t)sp_comps(p, type);
            if (t->mode == SP_CONST) {
                if (const_bytes + 4 * comps > constants_size) {
                    snprintf(err, err_size, "shellpack stream: the constants end before joint %d's", b);
                    return -1;
                }
                for (size_t c = 0; c < comps; c++) {
                    t->constant[c] = load_f32(constants_data + const_bytes + 4 * c);
                    if (!isfinite(t->constant[c])) {
                        snprintf(err, err_size, "shellpack stream: joint %d's constant is not finite", b);
                        return -1;
                    }
                }
                const_bytes += 4 * comps;
            }
        }
    if (const_bytes != constants_size) {
        snprintf(err, err_size, "shellpack stream: constants %zu bytes, the folding implies %zu",
                 constants_size, const_bytes);
        return -1;
    }
    return 0;
}

int sp_read(const uint8_t *bytes, size_t size, const anim_rig *rig, sp_plan *p, sp_header *h, char *err,
            size_t err_size)
{
    memset(p, 0, sizeof *p);
    if (size < FIXED_HEADER || bytes[0] != 'S' || bytes[1] != 'P')
        return fail(err, err_size, "no SP header (28 bytes)");
    if (bytes[2] != SP_VERSION)
        return snprintf(err, err_size, "shellpack stream: version %u, this decoder reads %d", bytes[2], SP_VERSION), -1;
    h->flags = bytes[3];
    if (h->flags > (SP_FLAG_QUATERNION | SP_FLAG_GZIP))
        return snprintf(err, err_size, "shellpack stream: unknown flags 0x%02x", h->flags), -1;
    const uint32_t frames = load_u32(bytes + 4);
    memcpy(&h->fps, bytes + 8, 8); /* little-endian hosts, as bytes_f64 */
    h->target_mm = load_f32(bytes + 16);
    h->shell_mm = load_f32(bytes + 20);
    if (frames < 1 || frames > LIMIT_FRAMES_MAX || !(h->fps > 0) || !isfinite(h->fps))
        return snprintf(err, err_size, "shellpack stream: header says %u frames at %g fps", frames, h->fps), -1;
    if (load_u32(bytes + 24) != sp_rig_checksum(rig))
        return snprintf(err, err_size,
                        "shellpack stream: encoded for another rig (checksum %08x, this rig's %08x: bones, parents or "
                        "rest offsets differ)",
                        load_u32(bytes + 24), sp_rig_checksum(rig)),
               -1;
    if (clip_limits_check_decoded(frames, rig->bone_count, err, err_size) != 0)
        return -1;
    size_t pos = FIXED_HEADER;
    section sec[SP_SECTIONS];
    uint64_t total = 0;
    for (int i = 0; i < SP_SECTIONS; i++) {
        uint64_t n;
        if (!sp_get_varint(bytes, size, &pos, &n))
            return snprintf(err, err_size, "shellpack stream: the size of section %d (%s) is cut or not in shortest form",
                            i, SECTION_NAMES[i]),
                   -1;
        if (n > size || (total += n) > size) /* both at most size before the sum: it cannot wrap */
            return snprintf(err, err_size, "shellpack stream: its section sizes add up past its %zu bytes", size), -1;
        sec[i].size = (size_t)n;
    }
    if (total != size - pos)
        return snprintf(err, err_size, "shellpack stream: its sections add up to %llu bytes, %zu follow the header",
                        (unsigned long long)total, size - pos),
               -1;
    for (int i = 0; i < SP_SECTIONS; i++) {
        sec[i].data = bytes + pos;
        pos += sec[i].size;
    }
    if (sp_plan_init(p, rig->bone_count, (int)frames, h->flags & SP_FLAG_QUATERNION ? 4 : 3) != 0)
        return snprintf(err, err_size, "out of memory"), -1;
    if (sp_read_folding(p, sec[SEC_FOLDING].data, sec[SEC_FOLDING].size, sec[SEC_CONSTANTS].data,
                        sec[SEC_CONSTANTS].size, err, err_size) != 0)
        goto bad;
    if (sp_read_steps(p, sec[SEC_STEPS].data, sec[SEC_STEPS].size, err, err_size) != 0)
        goto bad;
    if (read_keys(p, sec[SEC_KEYS], err, err_size) != 0)
        goto bad;
    for (int type = 0; type < SP_TYPES; type++)
        if (read_residuals(p, type, h->flags & SP_FLAG_GZIP, sec[SEC_ROT + type], err, err_size) != 0)
            goto bad;
    if (sp_check_rotations(p, err, err_size) != 0)
        goto bad;
    return 0;
bad:
    sp_plan_free(p);
    return -1;
}

anim_clip *sp_plan_to_clip(const sp_plan *p, const anim_rig *rig, double fps)
{
    /* Straight into the clip's channels, a sub-track at a time: the rest pose is already there,
     * a constant is filled, an animated curve decoded in blocks of 64 frames (no allocation) */
    anim_clip *clip = clip_create_rest(rig, p->frames, fps);
    if (!clip)
        return NULL;
    double values[64 * SP_MAX_COMPS];
    for (int b = 0; b < p->bones; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            const sp_track *t = sp_track_at(p, b, type);
            if (t->mode == SP_REST)
                continue;
            const int comps = sp_comps(p, type);
            double *rot = clip_rot_track(clip, b);
            if (t->mode == SP_CONST) {
                double v[SP_MAX_COMPS] = {0, 0, 0, 0}, q[4];
                for (int c = 0; c < comps; c++)
                    v[c] = t->constant[c];
                if (type == SP_ROT) {
                    sp_to_rotation(p, v, q);
                    for (int f = 0; f < p->frames; f++)
                        memcpy(rot + (size_t)f * 4, q, sizeof q);
                } else
                    for (int a = 0; a < 3; a++) {
                        double *ch = type == SP_POS ? clip_pos_channel(clip, b, a) : clip_scl_channel(clip, b, a);
                        for (int f = 0; f < p->frames; f++)
                            ch[f] = v[a];
                    }
                continue;
            }
            for (int g0 = 0; g0 < p->frames; g0 += 64) {
                const int g1 = g0 + 63 < p->frames - 1 ? g0 + 63 : p->frames - 1;
                sp_track_values(p, b, type, g0, g1, values);
                if (type == SP_ROT)
                    for (int f = g0; f <= g1; f++)
                        sp_to_rotation(p, values + (size_t)(f - g0) * comps, rot + (size_t)f * 4);
                else
                    for (int a = 0; a < 3; a++) {
                        double *ch = type == SP_POS ? clip_pos_channel(clip, b, a) : clip_scl_channel(clip, b, a);
                        for (int f = g0; f <= g1; f++)
                            ch[f] = values[(size_t)(f - g0) * 3 + a];
                    }
            }
        }
    return clip;
}
