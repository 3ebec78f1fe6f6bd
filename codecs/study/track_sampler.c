#include "codecs/study/track_sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hot.h"
#include "core/quat.h"
#include "codecs/quantize/quantize.h"

void track_sampler_free(track_sampler *s)
{
    if (!s)
        return;
    free(s->template_pose);
    free(s->scalars);
    free(s->rotations);
    free(s->frames);
    free(s->inv_len);
    free(s->values);
    free(s->slopes);
    free(s->codes);
    free(s->all_offset);
    free(s->all_count);
    free(s->all_constant);
    free(s);
}

/* Key frames are integers, so f <= t exactly when f <= floor(t): the
 * search compares integers, branch-free. */
static inline int find_pair_floor(const key_frame *f, int count, int floor_t)
{
    int lo = 0, len = count - 1;
    while (len > 1) {
        const int half = len >> 1;
        lo = (int)f[lo + half] <= floor_t ? lo + half : lo; /* frames are below LIMIT_FRAMES_MAX */
        len -= half;
    }
    return lo;
}

int track_find_pair(const key_frame *f, int count, double t)
{
    return find_pair_floor(f, count, (int)floor(t));
}

/* The Catmull-Rom tangent at key i of a track, per frame: the expression of
 * core/curve.c, so a cached tangent is the decoder's tangent. */
static double slope_at(const key_frame *f, const double *v, int stride, int count, int i)
{
    if (i == 0)
        return (v[stride] - v[0]) / (f[1] - f[0]);
    if (i == count - 1)
        return (v[i * stride] - v[(i - 1) * stride]) / (f[i] - f[i - 1]);
    return (v[(i + 1) * stride] - v[(i - 1) * stride]) / (f[i + 1] - f[i - 1]);
}

track_sampler *track_sampler_create(const track_set *t)
{
    track_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    const int nb = t->bone_count, ns = nb * 6;
    long keys = 0;
    int animated_scalars = 0, animated_rotations = 0;
    for (int i = 0; i < ns; i++)
        if (!t->scalars[i].is_constant)
            keys += t->scalars[i].count, animated_scalars++;
    for (int b = 0; b < nb; b++)
        if (!t->rotations[b].is_constant)
            keys += t->rotations[b].count, animated_rotations++;
    s->bone_count = nb;
    s->frame_count = t->frame_count;
    s->cubic = t->cubic;
    s->quantized = t->quantized;
    s->template_pose = calloc((size_t)nb * 10, sizeof *s->template_pose);
    s->scalars = calloc((size_t)animated_scalars + 1, sizeof *s->scalars);
    s->rotations = calloc((size_t)animated_rotations + 1, sizeof *s->rotations);
    s->frames = calloc((size_t)keys + 1, sizeof *s->frames);
    s->inv_len = calloc((size_t)keys + 1, sizeof *s->inv_len);
    s->values = calloc((size_t)keys * 4 + 1, sizeof *s->values);
    s->slopes = calloc((size_t)keys * 4 + 1, sizeof *s->slopes);
    s->codes = calloc((size_t)keys + 1, sizeof *s->codes);
    s->all_scalar_count = ns;
    s->all_offset = calloc((size_t)ns, sizeof *s->all_offset);
    s->all_count = calloc((size_t)ns, sizeof *s->all_count);
    s->all_constant = calloc((size_t)ns, sizeof *s->all_constant);
    if (!s->template_pose || !s->scalars || !s->rotations || !s->frames || !s->inv_len || !s->values ||
        !s->slopes || !s->codes || !s->all_offset || !s->all_count || !s->all_constant) {
        track_sampler_free(s);
        return NULL;
    }
    int at = 0;
    for (int i = 0; i < ns; i++) {
        const parsed_track *p = &t->scalars[i];
        const int bone = i / 6, k = i % 6, slot = bone * 10 + (k < 3 ? k : 7 + k - 3);
        s->all_offset[i] = at;
        if (p->is_constant) {
            s->template_pose[slot] = p->values[0];
            s->all_constant[i] = p->values[0];
            continue;
        }
        s->all_count[i] = p->count;
        sampler_track *tr = &s->scalars[s->scalar_count++];
        *tr = (sampler_track){slot, at, p->count, p->lo, p->range / QUANT_SCALAR_STEPS};
        memcpy(s->frames + at, p->frames, (size_t)p->count * sizeof *s->frames);
        memcpy(s->values + at, p->values, (size_t)p->count * sizeof *s->values);
        if (p->codes)
            memcpy(s->codes + at, p->codes, (size_t)p->count * sizeof *s->codes);
        for (int k2 = 0; k2 < p->count; k2++) {
            s->inv_len[at + k2] = k2 + 1 < p->count ? 1.0 / (p->frames[k2 + 1] - p->frames[k2]) : 0;
            s->slopes[at + k2] = slope_at(p->frames, p->values, 1, p->count, k2);
        }
        at += p->count;
    }
    for (int b = 0; b < nb; b++) {
        const parsed_track *p = &t->rotations[b];
        if (p->is_constant) {
            quat_normalize(p->values, s->template_pose + b * 10 + 3);
            continue;
        }
        sampler_track *tr = &s->rotations[s->rotation_count++];
        *tr = (sampler_track){b * 10 + 3, at, p->count, 0, 0};
        memcpy(s->frames + at, p->frames, (size_t)p->count * sizeof *s->frames);
        memcpy(s->values + (size_t)at * 4, p->values, (size_t)p->count * 4 * sizeof *s->values);
        for (int k2 = 0; k2 < p->count; k2++) {
            s->inv_len[at + k2] = k2 + 1 < p->count ? 1.0 / (p->frames[k2 + 1] - p->frames[k2]) : 0;
            for (int c = 0; c < 4; c++)
                s->slopes[(size_t)(at + k2) * 4 + c] = slope_at(p->frames, p->values + c, 4, p->count, k2);
        }
        at += p->count;
    }
    return s;
}

static inline double hermite(double u, double p0, double m0, double p1, double m1)
{
    const double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * m1;
}

/* A quantised scalar's Hermite needs the tangents of the dequantised keys:
 * dequantise the up to four keys the segment reads, as the decoder does. */
static double quantised_scalar(const track_sampler *s, const sampler_track *tr, int lo, double u, double h)
{
    const key_frame *f = s->frames + tr->offset;
    const uint16_t *c = s->codes + tr->offset;
    const int n = tr->count;
    const double v0 = tr->lo + c[lo] * tr->step, v1 = tr->lo + c[lo + 1] * tr->step;
    if (!s->cubic)
        return v0 + (v1 - v0) * u;
    const double vm = lo > 0 ? tr->lo + c[lo - 1] * tr->step : v0;
    const double vp = lo + 2 < n ? tr->lo + c[lo + 2] * tr->step : v1;
    const double m0 = (lo == 0 ? (v1 - v0) / (f[1] - f[0]) : (v1 - vm) / (f[lo + 1] - f[lo - 1])) * h;
    const double m1 = (lo + 1 == n - 1 ? (v1 - v0) / (f[lo + 1] - f[lo]) : (vp - v0) / (f[lo + 2] - f[lo])) * h;
    return hermite(u, v0, m0, v1, m1);
}

HOT_KERNEL static void sample_pose(const track_sampler *s, double t, double *restrict pose)
{
    const int floor_t = (int)t; /* t >= 0 */
    memcpy(pose, s->template_pose, (size_t)s->bone_count * 10 * sizeof *pose);
    for (int i = 0; i < s->scalar_count; i++) {
        const sampler_track *tr = &s->scalars[i];
        const key_frame *f = s->frames + tr->offset;
        const int lo = find_pair_floor(f, tr->count, floor_t), k = tr->offset + lo;
        const double u = (t - f[lo]) * s->inv_len[k];
        double v;
        if (s->quantized)
            v = quantised_scalar(s, tr, lo, u, f[lo + 1] - f[lo]);
        else if (!s->cubic)
            v = s->values[k] + (s->values[k + 1] - s->values[k]) * u;
        else {
            const double h = f[lo + 1] - f[lo];
            v = hermite(u, s->values[k], s->slopes[k] * h, s->values[k + 1], s->slopes[k + 1] * h);
        }
        pose[tr->slot] = v;
    }
    for (int i = 0; i < s->rotation_count; i++) {
        const sampler_track *tr = &s->rotations[i];
        const key_frame *f = s->frames + tr->offset;
        const int lo = find_pair_floor(f, tr->count, floor_t), k = tr->offset + lo;
        const double u = (t - f[lo]) * s->inv_len[k];
        const double *a = s->values + (size_t)k * 4, *b = a + 4;
        double q[4];
        if (!s->cubic) {
            for (int c = 0; c < 4; c++)
                q[c] = a[c] + (b[c] - a[c]) * u;
        } else {
            const double h = f[lo + 1] - f[lo];
            const double *ma = s->slopes + (size_t)k * 4, *mb = ma + 4;
            for (int c = 0; c < 4; c++)
                q[c] = hermite(u, a[c], ma[c] * h, b[c], mb[c] * h);
        }
        const double inv = 1 / sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        double *out = pose + tr->slot;
        for (int c = 0; c < 4; c++)
            out[c] = q[c] * inv;
    }
}

/* clang 14 emits no external symbol for a function with target_clones, so
 * the clones stay static behind this plain entry point. */
void track_sampler_sample(const track_sampler *s, double t, double *pose)
{
    sample_pose(s, t, pose);
}
