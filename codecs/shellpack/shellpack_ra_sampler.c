/* shellpack-ra's sampler: a pose at any time from the bytes, decoding at most the section around
 * it.  It keeps its own copy of the stream, the parsed model (tables, anchors, steps, the index's
 * checkpoints), a 12-byte state per animated component, the constant sub-tracks' values, and the
 * animated sub-tracks of the last two frames it decoded, converted to the pose's numbers.  Rest
 * sub-tracks come from the rig (shared by every character playing it, so a crowd keeps them in
 * cache), which must outlive the sampler.  Playing forward it decodes each frame once; asked for a
 * frame behind it or past its section it restarts at that frame's section.  It allocates nothing
 * after it is created.
 *
 * Its poses are the whole-clip decoder's bit for bit: the same values, the same conversion, and
 * between frames clip_interpolate_pose's arithmetic, applied to the static sub-tracks too (it
 * renormalises a constant rotation and turns a -0 into +0, so the sampler keeps each constant both
 * as it is and as interpolation leaves it: sample's contract is 0 <= t <= frames - 1, so the
 * interpolation parameter is in (0, 1) and the result does not depend on it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack_ra.h"

/* A constant sub-track: its values in a pose at a frame and between frames. */
typedef struct sr_constant {
    uint16_t bone;
    uint8_t type;
    double at[4], between[4];
} sr_constant;

struct sr_sampler {
    uint8_t *bytes; /* its own copy of the stream */
    sr_model m;
    const anim_rig *rig;
    sr_state *st;
    sr_cursor c;
    int nconstants;
    sr_constant *constants;
    double *cache; /* per animated sub-track 8 numbers: frame f's 4 at (f mod 2) * 4 */
    int lo, hi;    /* the cached frames: hi = lo or lo + 1; -1 when none */
};

/* clip_interpolate_pose's arithmetic on a value and itself (u in (0, 1)) */
static void still_between(int type, const double *at, double *out)
{
    const double u = 0.5;
    const int n = type == SP_ROT ? 4 : 3;
    for (int k = 0; k < n; k++)
        out[k] = at[k] + (at[k] - at[k]) * u;
    if (type != SP_ROT)
        return;
    const double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    if (len > 0)
        for (int k = 0; k < 4; k++)
            out[k] /= len;
}

sr_sampler *sr_sampler_create(const uint8_t *bytes, size_t size, const anim_rig *rig, char *err, size_t err_size)
{
    sr_sampler *s = calloc(1, sizeof *s);
    if (!s || !(s->bytes = malloc(size ? size : 1))) {
        free(s);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    memcpy(s->bytes, bytes, size);
    if (sr_model_read(s->bytes, size, rig, &s->m, err, err_size) != 0) {
        free(s->bytes);
        free(s);
        return NULL;
    }
    s->rig = rig;
    for (int b = 0; b < rig->bone_count; b++)
        for (int type = 0; type < SP_TYPES; type++)
            s->nconstants += sp_track_at(&s->m.shape, b, type)->mode == SP_CONST;
    s->st = malloc(((size_t)s->m.ncomps + 1) * sizeof *s->st);
    s->constants = malloc(((size_t)s->nconstants + 1) * sizeof *s->constants);
    s->cache = malloc(((size_t)s->m.ntracks * 8 + 1) * sizeof *s->cache);
    double *pose = malloc(POSE_STRIDE * sizeof *pose);
    if (!s->st || !s->constants || !s->cache || !pose) {
        free(pose);
        sr_sampler_free(s);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    for (int i = 0; i < s->m.ncomps; i++)
        s->st[i].mode = (uint8_t)(s->m.predictor[i] | s->m.kind[i] << 2);
    int n = 0;
    for (int b = 0; b < rig->bone_count; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            if (sp_track_at(&s->m.shape, b, type)->mode != SP_CONST)
                continue;
            sr_constant *k = &s->constants[n++];
            sp_decode_track(&s->m.shape, rig, b, type, 0, 0, pose);
            k->bone = (uint16_t)b;
            k->type = (uint8_t)type;
            memcpy(k->at, pose + (type == SP_ROT ? 3 : type == SP_POS ? 0 : 7), (type == SP_ROT ? 4 : 3) * sizeof *pose);
            still_between(type, k->at, k->between);
        }
    free(pose);
    s->lo = s->hi = -1;
    s->c.section = -1;
    s->c.next = -1;
    return s;
}

int sr_sampler_frames(const sr_sampler *s)
{
    return s->m.frames;
}

/* The animated sub-tracks of frame f, just decoded, converted into its cache slots. */
static void convert(sr_sampler *s, int f)
{
    const sr_model *m = &s->m;
    double *to = s->cache + (f & 1) * 4;
    for (int t = 0; t < m->ntracks; t++) {
        const sr_track *tr = &m->tracks[t];
        double v[SP_MAX_COMPS];
        for (int k = 0; k < tr->comps; k++)
            v[k] = (double)s->st[tr->idx[k]].v1 * m->step[tr->idx[k]];
        if (tr->type == SP_ROT)
            sp_to_rotation(&m->shape, v, to + (size_t)t * 8);
        else
            memcpy(to + (size_t)t * 8, v, 3 * sizeof *v);
    }
}

/* Makes frames f and g (g = f or f + 1) cached: forward from the cursor when it is in f's section
 * or later and not past g, else from the first frame of f's section. */
static void reach(sr_sampler *s, int f, int g)
{
    if (s->m.ncomps == 0 || (s->lo <= f && g <= s->hi && s->lo >= 0))
        return;
    const int L = s->m.section_frames, first = (f / L) * L;
    if (s->c.section < 0 || s->c.next > g || s->c.next < first) {
        sr_cursor_start(&s->m, &s->c, f / L);
        s->lo = s->hi = -1;
    }
    while (s->c.next <= g) {
        const int k = s->c.next;
        if (k % L == 0 && k / L != s->c.section)
            sr_cursor_start(&s->m, &s->c, k / L);
        sr_decode_frame(&s->m, &s->c, s->st);
        if (k >= f) {
            convert(s, k);
            s->lo = s->hi == k - 1 ? s->hi : k;
            s->hi = k;
        }
    }
}

void sr_sampler_sample(sr_sampler *s, double t, double *pose)
{
    const int n = s->m.frames;
    int f = (int)t; /* as clip_interpolate_pose */
    f = f > n - 1 ? n - 1 : f < 0 ? 0 : f;
    const double u = t - f;
    const bool between = u != 0 && f != n - 1;
    const int g = between ? f + 1 : f;
    reach(s, f, g);
    const sr_model *m = &s->m;
    const double *rest = s->rig->rest_offsets;
    const int bones = s->rig->bone_count;
    /* the rest pose (from the rig), then the constants, then the animated sub-tracks */
    for (int b = 0; b < bones; b++) {
        double *o = pose + (size_t)b * POSE_STRIDE;
        const double *r = rest + (size_t)b * 3;
        for (int k = 0; k < 3; k++) {
            o[k] = between ? r[k] + (r[k] - r[k]) * u : r[k];
            o[7 + k] = 1;
        }
        o[3] = o[4] = o[5] = 0;
        o[6] = 1;
    }
    for (int i = 0; i < s->nconstants; i++) {
        const sr_constant *k = &s->constants[i];
        double *o = pose + (size_t)k->bone * POSE_STRIDE;
        const double *v = between ? k->between : k->at;
        if (k->type == SP_ROT)
            memcpy(o + 3, v, 4 * sizeof *v);
        else
            memcpy(o + (k->type == SP_POS ? 0 : 7), v, 3 * sizeof *v);
    }
    if (!between) {
        const double *a = s->cache + (f & 1) * 4;
        for (int i = 0; i < m->ntracks; i++) {
            const sr_track *tr = &m->tracks[i];
            double *o = pose + (size_t)tr->bone * POSE_STRIDE;
            if (tr->type == SP_ROT)
                memcpy(o + 3, a + (size_t)i * 8, 4 * sizeof *o);
            else
                memcpy(o + (tr->type == SP_POS ? 0 : 7), a + (size_t)i * 8, 3 * sizeof *o);
        }
        return;
    }
    const double *a = s->cache + (f & 1) * 4, *b = s->cache + (g & 1) * 4;
    for (int i = 0; i < m->ntracks; i++) {
        const sr_track *tr = &m->tracks[i];
        const double *q0 = a + (size_t)i * 8, *q1 = b + (size_t)i * 8;
        if (tr->type != SP_ROT) {
            double *p = pose + (size_t)tr->bone * POSE_STRIDE + (tr->type == SP_POS ? 0 : 7);
            for (int k = 0; k < 3; k++)
                p[k] = q0[k] + (q1[k] - q0[k]) * u;
            continue;
        }
        double *p = pose + (size_t)tr->bone * POSE_STRIDE + 3;
        const double sign = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3] < 0 ? -1 : 1;
        double r[4];
        for (int k = 0; k < 4; k++)
            r[k] = q0[k] + (sign * q1[k] - q0[k]) * u;
        const double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
        if (len > 0) /* four divisions, as clip_interpolate_pose (a reciprocal would round differently) */
            for (int k = 0; k < 4; k++)
                r[k] /= len;
        memcpy(p, r, sizeof r);
    }
}

void sr_sampler_free(sr_sampler *s)
{
    if (!s)
        return;
    sr_model_free(&s->m);
    free(s->st);
    free(s->constants);
    free(s->cache);
    free(s->bytes);
    free(s);
}
