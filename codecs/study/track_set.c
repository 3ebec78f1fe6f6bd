#include "codecs/study/track_set.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/curve.h"
#include "core/limits.h"
#include "core/quat.h"
#include "codecs/quantize/quantize.h"
#include "codecs/study/study_plan.h"

static void *fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return NULL;
}

void track_set_free(track_set *t)
{
    if (!t)
        return;
    const int counts[2] = {t->bone_count * 6, t->bone_count};
    parsed_track *lists[2] = {t->scalars, t->rotations};
    for (int l = 0; l < 2; l++) {
        if (!lists[l])
            continue;
        for (int i = 0; i < counts[l]; i++) {
            free(lists[l][i].frames);
            free(lists[l][i].values);
            free(lists[l][i].codes);
        }
        free(lists[l]);
    }
    free(t);
}

typedef struct parse_ctx {
    byte_reader r;
    track_set *t;
    container_layout layout;
    char *err;
    size_t err_size;
} parse_ctx;

static bool truncated(parse_ctx *c, const char *what, int track)
{
    fail(c->err, c->err_size, "truncated stream: %s of track %d needs bytes past offset %zu (stream is %zu bytes)",
         what, track, c->r.pos, c->r.size);
    return false;
}

/* A frame index or key count: u16, or u32 in the wide layout. */
static bool read_index(parse_ctx *c, uint32_t *v)
{
    if (c->t->wide)
        return read_u32(&c->r, v);
    uint16_t narrow;
    if (!read_u16(&c->r, &narrow))
        return false;
    *v = narrow;
    return true;
}

static size_t index_bytes(const parse_ctx *c)
{
    return c->t->wide ? 4 : 2;
}

/* A key's frame as delta times store it (study_container.h): the distance
 * from the previous key, in its shortest form only. */
static bool read_delta_time(parse_ctx *c, const parsed_track *p, int k, int track, uint32_t *f)
{
    const size_t at = c->r.pos;
    uint8_t small;
    uint32_t d;
    if (!read_u8(&c->r, &small))
        return truncated(c, "a key time", track);
    d = small;
    if (small == 0) {
        uint16_t mid;
        if (!read_u16(&c->r, &mid))
            return truncated(c, "a key time", track);
        d = mid;
        if (mid == 0) {
            if (!c->t->wide) {
                fail(c->err, c->err_size, "track %d: a key time escapes to 32 bits in a stream of at most 65,535 "
                     "frames (offset %zu)", track, at);
                return false;
            }
            if (!read_u32(&c->r, &d))
                return truncated(c, "a key time", track);
            if (d < 65536) {
                fail(c->err, c->err_size, "track %d: key time delta %u written in 32 bits, not its shortest form "
                     "(offset %zu)", track, d, at);
                return false;
            }
        } else if (mid < 256) {
            fail(c->err, c->err_size, "track %d: key time delta %u written in 16 bits, not its shortest form "
                 "(offset %zu)", track, mid, at);
            return false;
        }
    }
    const uint64_t frame = (k > 0 ? (uint64_t)p->frames[k - 1] + 1 : 0) + d - 1;
    if (frame >= LIMIT_FRAMES_MAX) {
        fail(c->err, c->err_size, "track %d: key at frame %llu, past the longest clip (%d frames; offset %zu)", track,
             (unsigned long long)frame, LIMIT_FRAMES_MAX, at);
        return false;
    }
    *f = (uint32_t)frame;
    return true;
}

/* Reads the frame indices shared by both record kinds and checks order. */
static bool read_key_frame(parse_ctx *c, parsed_track *p, int k, int track)
{
    uint32_t f;
    const size_t at = c->r.pos;
    if (c->t->delta_times) {
        if (!read_delta_time(c, p, k, track, &f))
            return false;
    } else if (!read_index(c, &f)) {
        return truncated(c, "a key frame", track);
    }
    if (f >= LIMIT_FRAMES_MAX) {
        fail(c->err, c->err_size, "track %d: key at frame %u, past the longest clip (%d frames; offset %zu)", track,
             f, LIMIT_FRAMES_MAX, at);
        return false;
    }
    if (k == 0 && f != 0) {
        fail(c->err, c->err_size, "track %d: first key at frame %u, expected 0 (offset %zu)", track, f, at);
        return false;
    }
    if (k > 0 && f <= p->frames[k - 1]) {
        fail(c->err, c->err_size, "track %d: key frames not increasing (%u after %u, offset %zu)", track, f,
             p->frames[k - 1], at);
        return false;
    }
    p->frames[k] = f;
    return true;
}

/* The fewest bytes a key's time can take: the pre-check of a record's size. */
static size_t time_bytes_min(const parse_ctx *c)
{
    return c->t->delta_times ? 1 : index_bytes(c);
}

static bool read_header_fields(parse_ctx *c, int expected_id, int *count, int track)
{
    uint16_t id;
    uint32_t n;
    if (!read_u16(&c->r, &id) || !read_index(c, &n))
        return truncated(c, "the record header", track);
    if (id != expected_id) {
        fail(c->err, c->err_size, "record %d: id %u, expected %d (offset %zu)", track, id, expected_id,
             c->r.pos - 2 - index_bytes(c));
        return false;
    }
    if (n == 0 || n > LIMIT_FRAMES_MAX) {
        fail(c->err, c->err_size, "record %d: %u keys, expected 1 to %d (offset %zu)", track, n, LIMIT_FRAMES_MAX,
             c->r.pos - index_bytes(c));
        return false;
    }
    *count = (int)n;
    return true;
}

static bool alloc_track(parse_ctx *c, parsed_track *p, int count, int per_key_values, bool codes)
{
    p->count = count;
    p->frames = calloc((size_t)count, sizeof *p->frames);
    p->values = calloc((size_t)count * (size_t)per_key_values, sizeof *p->values);
    p->codes = codes ? calloc((size_t)count, sizeof *p->codes) : NULL;
    if (!p->frames || !p->values || (codes && !p->codes)) {
        fail(c->err, c->err_size, "out of memory");
        return false;
    }
    return true;
}

static bool finite_f32(parse_ctx *c, float v, int track)
{
    if (isfinite(v))
        return true;
    fail(c->err, c->err_size, "track %d: value is not finite (offset %zu)", track, c->r.pos - 4);
    return false;
}

static bool parse_scalar(parse_ctx *c, int id)
{
    parsed_track *p = &c->t->scalars[id];
    const bool quant = c->t->quantized;
    int n;
    if (!read_header_fields(c, id, &n, id))
        return false;
    p->is_constant = n == 1;
    if (p->is_constant) {
        if (!alloc_track(c, p, 1, 1, false))
            return false;
        if (quant && c->layout == LAYOUT_STUDY) {
            uint16_t zero;
            if (!read_u16(&c->r, &zero))
                return truncated(c, "a constant value", id);
            p->values[0] = zero; /* no range is stored: the code is all there is */
        } else {
            float v;
            if (!read_f32(&c->r, &v))
                return truncated(c, "a constant value", id);
            if (!finite_f32(c, v, id))
                return false;
            p->values[0] = v;
        }
        return true;
    }
    const size_t per_key = (quant ? 2 : 4) + time_bytes_min(c);
    if ((size_t)n * per_key + (quant ? 8 : 0) > c->r.size - c->r.pos)
        return truncated(c, "the keys", id);
    if (!alloc_track(c, p, n, 1, quant))
        return false;
    if (quant) {
        float lo, range;
        read_f32(&c->r, &lo);
        read_f32(&c->r, &range);
        if (!finite_f32(c, lo, id) || !finite_f32(c, range, id))
            return false;
        if (range < 0) {
            fail(c->err, c->err_size, "track %d: negative range (offset %zu)", id, c->r.pos - 4);
            return false;
        }
        p->lo = lo;
        p->range = range;
    }
    for (int k = 0; k < n; k++) {
        if (!read_key_frame(c, p, k, id))
            return false;
        if (quant) {
            if (!read_u16(&c->r, &p->codes[k]))
                return truncated(c, "a key value", id);
            p->values[k] = quant_scalar_decode(p->codes[k], p->lo, p->range);
        } else {
            float v;
            if (!read_f32(&c->r, &v))
                return truncated(c, "a key value", id);
            if (!finite_f32(c, v, id))
                return false;
            p->values[k] = v;
        }
    }
    return true;
}

static bool read_quat(parse_ctx *c, double *q, int track)
{
    if (c->t->quantized) {
        uint32_t packed;
        if (!read_u32(&c->r, &packed))
            return truncated(c, "a rotation", track);
        quant_rotation_decode(packed, q);
        return true;
    }
    for (int i = 0; i < 4; i++) {
        float v;
        if (!read_f32(&c->r, &v))
            return truncated(c, "a rotation", track);
        if (!finite_f32(c, v, track))
            return false;
        q[i] = v;
    }
    return true;
}

static bool parse_rotation(parse_ctx *c, int bone)
{
    parsed_track *p = &c->t->rotations[bone];
    const int track = c->t->bone_count * 6 + bone;
    int n;
    if (!read_header_fields(c, bone, &n, track))
        return false;
    p->is_constant = n == 1;
    const size_t per_key = (c->t->quantized ? 4 : 16) + (p->is_constant ? 0 : time_bytes_min(c));
    if ((size_t)n * per_key > c->r.size - c->r.pos)
        return truncated(c, "the keys", track);
    if (!alloc_track(c, p, n, 4, false))
        return false;
    if (p->is_constant)
        return read_quat(c, p->values, track);
    for (int k = 0; k < n; k++)
        if (!read_key_frame(c, p, k, track) || !read_quat(c, p->values + k * 4, track))
            return false;
    /* The self-contained layout's decoder puts consecutive keys back in one
     * hemisphere, as its encoder did (study_plan.h, realign_quantized). */
    if (c->t->quantized && c->layout == LAYOUT_SELF_CONTAINED) {
        int keys[2] = {0, 1};
        for (int k = 1; k < n; k++) {
            double *pair = p->values + (size_t)(k - 1) * 4;
            realign_keys(pair, keys, 2);
        }
    }
    return true;
}

static bool parse_header(parse_ctx *c, bool cubic, bool quantized)
{
    track_set *t = c->t;
    t->cubic = cubic;
    t->quantized = quantized;
    if (c->r.size < STUDY_HEADER_BYTES)
        return truncated(c, "the 16-byte header", -1);
    const uint8_t *h = c->r.data;
    if (c->layout == LAYOUT_STUDY) {
        c->r.pos = STUDY_HEADER_BYTES; /* zeros: nothing to read */
        return true;
    }
    if (h[0] != SC_MAGIC0 || h[1] != SC_MAGIC1 || h[2] != SC_VERSION) {
        fail(c->err, c->err_size, "not an animbench track stream: header starts %02x %02x %02x, expected 41 42 01",
             h[0], h[1], h[2]);
        return false;
    }
    const bool s_cubic = h[3] & SC_FLAG_CUBIC, s_quant = h[3] & SC_FLAG_QUANTIZED,
               s_delta = h[3] & SC_FLAG_DELTA_TIMES;
    t->wide = h[3] & SC_FLAG_WIDE;
    if (s_cubic != cubic || s_quant != quantized || s_delta != t->delta_times || (h[3] & ~15u)) {
        fail(c->err, c->err_size,
             "header flags 0x%02x do not match this codec (cubic %d, quantised %d, delta key times %d)", h[3], cubic,
             quantized, t->delta_times);
        return false;
    }
    c->r.pos = 4;
    uint32_t frames;
    double fps;
    read_u32(&c->r, &frames);
    read_f64(&c->r, &fps);
    if (frames < 1 || frames > LIMIT_FRAMES_MAX || !(fps > 0) || !isfinite(fps)) {
        fail(c->err, c->err_size, "header: %u frames at %g fps is not a clip (1 to %d frames, fps above 0)", frames,
             fps, LIMIT_FRAMES_MAX);
        return false;
    }
    char why[256];
    if (!(fps >= LIMIT_RATE_MIN_HZ && fps <= LIMIT_RATE_MAX_HZ)) {
        fail(c->err, c->err_size, "header: %g fps: a clip's rate is %g to %g Hz", fps, LIMIT_RATE_MIN_HZ,
             LIMIT_RATE_MAX_HZ);
        return false;
    }
    if (clip_limits_check_decoded(frames, t->bone_count, why, sizeof why) != 0) {
        fail(c->err, c->err_size, "header: %s", why);
        return false;
    }
    if (t->wide != (frames > SC_NARROW_FRAMES_MAX)) { /* one layout per length: a stream has one spelling */
        fail(c->err, c->err_size, "header: %u frames in the %s layout (wide exactly above %d frames)", frames,
             t->wide ? "wide" : "narrow", SC_NARROW_FRAMES_MAX);
        return false;
    }
    t->frame_count = (int)frames;
    t->fps = fps;
    return true;
}

/* Every animated track must end on the last frame; the study's layout
 * gives the frame count only this way. */
static bool settle_frame_count(parse_ctx *c)
{
    track_set *t = c->t;
    const int total = t->bone_count * 7;
    for (int i = 0; i < total; i++) {
        const parsed_track *p = i < t->bone_count * 6 ? &t->scalars[i] : &t->rotations[i - t->bone_count * 6];
        if (p->is_constant)
            continue;
        const int last = p->frames[p->count - 1];
        if (t->frame_count == 0)
            t->frame_count = last + 1;
        if (last + 1 != t->frame_count) {
            fail(c->err, c->err_size, "track %d ends at frame %d, but the clip has %d frames", i, last,
                 t->frame_count);
            return false;
        }
    }
    if (t->frame_count == 0) {
        fail(c->err, c->err_size,
             "every track is constant: the study's layout does not store the frame count, so the clip "
             "length cannot be decoded");
        return false;
    }
    char why[256];
    if (clip_limits_check_decoded(t->frame_count, t->bone_count, why, sizeof why) != 0) {
        fail(c->err, c->err_size, "%s", why);
        return false;
    }
    return true;
}

track_set *track_set_parse(const uint8_t *bytes, size_t size, container_layout layout, bool cubic,
                           bool quantized, bool delta_times, int bone_count, char *err, size_t err_size)
{
    track_set *t = calloc(1, sizeof *t);
    if (!t)
        return fail(err, err_size, "out of memory");
    t->bone_count = bone_count;
    t->delta_times = delta_times && layout == LAYOUT_SELF_CONTAINED;
    t->scalars = calloc((size_t)bone_count * 6, sizeof *t->scalars);
    t->rotations = calloc((size_t)bone_count, sizeof *t->rotations);
    parse_ctx c = {{bytes, size, 0}, t, layout, err, err_size};
    bool ok = t->scalars && t->rotations;
    if (!ok)
        fail(err, err_size, "out of memory");
    ok = ok && parse_header(&c, cubic, quantized);
    for (int i = 0; ok && i < bone_count * 6; i++)
        ok = parse_scalar(&c, i);
    for (int b = 0; ok && b < bone_count; b++)
        ok = parse_rotation(&c, b);
    if (ok && c.r.pos != size) {
        fail(err, err_size, "%zu bytes left over after the last record (offset %zu)", size - c.r.pos, c.r.pos);
        ok = false;
    }
    ok = ok && settle_frame_count(&c);
    if (!ok) {
        track_set_free(t);
        return NULL;
    }
    return t;
}

anim_clip *track_set_to_clip(const track_set *t, const anim_rig *rig)
{
    const int n = t->frame_count;
    anim_clip *clip = clip_create_rest(rig, n, t->fps);
    double *scratch = malloc((size_t)n * 4 * sizeof *scratch);
    double *recon = malloc((size_t)n * 4 * sizeof *recon);
    int *keys = malloc((size_t)n * sizeof *keys);
    if (!clip || !scratch || !recon || !keys) {
        clip_free(clip);
        free(scratch);
        free(recon);
        free(keys);
        return NULL;
    }
    for (int i = 0; i < t->bone_count * 6; i++) {
        const parsed_track *p = &t->scalars[i];
        const int bone = i / 6, k6 = i % 6;
        double *out = k6 < 3 ? clip_pos_channel(clip, bone, k6) : clip_scl_channel(clip, bone, k6 - 3);
        if (p->is_constant) {
            for (int f = 0; f < n; f++)
                out[f] = p->values[0];
            continue;
        }
        for (int k = 0; k < p->count; k++) {
            keys[k] = p->frames[k];
            scratch[keys[k]] = p->values[k];
        }
        const curve_keys ck = {scratch, 1, keys, p->count, t->cubic};
        curve_reconstruct(&ck, n, out, 1);
    }
    for (int b = 0; b < t->bone_count; b++) {
        const parsed_track *p = &t->rotations[b];
        double *out = clip_rot_track(clip, b);
        if (p->is_constant) {
            double q[4];
            quat_normalize(p->values, q);
            for (int f = 0; f < n; f++)
                memcpy(out + f * 4, q, sizeof q);
            continue;
        }
        for (int k = 0; k < p->count; k++) {
            keys[k] = p->frames[k];
            memcpy(scratch + keys[k] * 4, p->values + k * 4, 4 * sizeof *scratch);
        }
        const curve_keys ck = {scratch, 4, keys, p->count, t->cubic};
        curve_reconstruct4(&ck, n, recon);
        for (int f = 0; f < n; f++)
            quat_normalize(recon + f * 4, out + f * 4);
    }
    free(scratch);
    free(recon);
    free(keys);
    return clip;
}
