#include "track_sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/quat.h"
#include "quantize.h"

void track_sampler_free(track_sampler *s)
{
    if (!s)
        return;
    free(s->offset);
    free(s->count);
    free(s->constant);
    free(s->const_quat);
    free(s->frames);
    free(s->values);
    free(s->codes);
    free(s->lo);
    free(s->range);
    free(s->pose_slot);
    free(s);
}

track_sampler *track_sampler_create(const track_set *t)
{
    track_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    const int ns = t->bone_count * 6, nt = t->bone_count * 7;
    long keys = 0;
    for (int i = 0; i < ns; i++)
        keys += t->scalars[i].is_constant ? 0 : t->scalars[i].count;
    for (int b = 0; b < t->bone_count; b++)
        keys += t->rotations[b].is_constant ? 0 : t->rotations[b].count;
    s->bone_count = t->bone_count;
    s->frame_count = t->frame_count;
    s->cubic = t->cubic;
    s->quantized = t->quantized;
    s->track_count = nt;
    s->offset = calloc((size_t)nt, sizeof *s->offset);
    s->count = calloc((size_t)nt, sizeof *s->count);
    s->constant = calloc((size_t)nt, sizeof *s->constant);
    s->const_quat = calloc((size_t)t->bone_count * 4, sizeof *s->const_quat);
    s->frames = calloc((size_t)keys + 1, sizeof *s->frames);
    s->values = calloc((size_t)keys * 4 + 1, sizeof *s->values);
    s->codes = calloc((size_t)keys + 1, sizeof *s->codes);
    s->lo = calloc((size_t)ns, sizeof *s->lo);
    s->range = calloc((size_t)ns, sizeof *s->range);
    s->pose_slot = calloc((size_t)ns, sizeof *s->pose_slot);
    if (!s->offset || !s->count || !s->constant || !s->const_quat || !s->frames || !s->values || !s->codes ||
        !s->lo || !s->range || !s->pose_slot) {
        track_sampler_free(s);
        return NULL;
    }
    int at = 0;
    for (int i = 0; i < nt; i++) {
        const bool scalar = i < ns;
        const parsed_track *p = scalar ? &t->scalars[i] : &t->rotations[i - ns];
        s->offset[i] = at;
        if (scalar) {
            const int bone = i / 6, k = i % 6;
            s->pose_slot[i] = bone * 10 + (k < 3 ? k : 7 + k - 3);
            s->lo[i] = p->lo;
            s->range[i] = p->range;
        }
        if (p->is_constant) {
            s->count[i] = 0;
            if (scalar)
                s->constant[i] = p->values[0];
            else
                quat_normalize(p->values, s->const_quat + (i - ns) * 4);
            continue;
        }
        s->count[i] = p->count;
        memcpy(s->frames + at, p->frames, (size_t)p->count * sizeof *s->frames);
        if (scalar) {
            memcpy(s->values + at, p->values, (size_t)p->count * sizeof *s->values);
            if (p->codes)
                memcpy(s->codes + at, p->codes, (size_t)p->count * sizeof *s->codes);
        } else {
            memcpy(s->values + (size_t)at * 4, p->values, (size_t)p->count * 4 * sizeof *s->values);
        }
        at += p->count;
    }
    return s;
}

/* Index lo of the key pair (lo, lo + 1) around t. */
static inline int find_pair(const uint16_t *f, int count, double t)
{
    int lo = 0, hi = count - 1;
    while (hi - lo > 1) {
        const int m = (lo + hi) >> 1;
        if (f[m] <= t)
            lo = m;
        else
            hi = m;
    }
    return lo;
}

static inline double hermite(double u, double p0, double m0, double p1, double m1)
{
    const double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * m1;
}

/* Catmull-Rom tangent at key i (one-sided at the ends), per frame. */
static inline double tangent(const uint16_t *f, const double *v, int stride, int count, int i)
{
    if (i == 0)
        return (v[stride] - v[0]) / (f[1] - f[0]);
    if (i == count - 1)
        return (v[i * stride] - v[(i - 1) * stride]) / (f[i] - f[i - 1]);
    return (v[(i + 1) * stride] - v[(i - 1) * stride]) / (f[i + 1] - f[i - 1]);
}

static inline double scalar_at(const track_sampler *s, int i, double t, double *deq)
{
    const int n = s->count[i];
    const uint16_t *f = s->frames + s->offset[i];
    const double *v = s->values + s->offset[i];
    if (s->quantized) {
        /* dequantise the (at most four) keys the segment reads */
        const uint16_t *c = s->codes + s->offset[i];
        const int lo = find_pair(f, n, t);
        const int a = lo > 0 ? lo - 1 : 0, b = lo + 2 < n ? lo + 2 : n - 1;
        for (int k = a; k <= b; k++)
            deq[k - a] = s->lo[i] + c[k] / (double)QUANT_SCALAR_STEPS * s->range[i];
        const double u = (t - f[lo]) / (f[lo + 1] - f[lo]);
        if (!s->cubic)
            return deq[lo - a] + (deq[lo + 1 - a] - deq[lo - a]) * u;
        const double h = f[lo + 1] - f[lo];
        /* The window's ends are the track's ends exactly when a = 0 or b = n - 1,
         * so the one-sided tangents apply where they should. */
        const double m0 = tangent(f + a, deq, 1, b - a + 1, lo - a) * h;
        const double m1 = tangent(f + a, deq, 1, b - a + 1, lo + 1 - a) * h;
        return hermite(u, deq[lo - a], m0, deq[lo + 1 - a], m1);
    }
    const int lo = find_pair(f, n, t);
    const double u = (t - f[lo]) / (f[lo + 1] - f[lo]);
    if (!s->cubic)
        return v[lo] + (v[lo + 1] - v[lo]) * u;
    const double h = f[lo + 1] - f[lo];
    return hermite(u, v[lo], tangent(f, v, 1, n, lo) * h, v[lo + 1], tangent(f, v, 1, n, lo + 1) * h);
}

void track_sampler_sample(const track_sampler *s, double t, double *pose)
{
    const int ns = s->bone_count * 6;
    double deq[4];
    for (int i = 0; i < ns; i++)
        pose[s->pose_slot[i]] = s->count[i] ? scalar_at(s, i, t, deq) : s->constant[i];
    for (int b = 0; b < s->bone_count; b++) {
        const int i = ns + b, n = s->count[i];
        double *out = pose + b * 10 + 3;
        if (!n) {
            memcpy(out, s->const_quat + b * 4, 4 * sizeof *out);
            continue;
        }
        const uint16_t *f = s->frames + s->offset[i];
        const double *v = s->values + (size_t)s->offset[i] * 4;
        const int lo = find_pair(f, n, t);
        const double u = (t - f[lo]) / (f[lo + 1] - f[lo]);
        double q[4];
        if (!s->cubic) {
            for (int c = 0; c < 4; c++)
                q[c] = v[lo * 4 + c] + (v[(lo + 1) * 4 + c] - v[lo * 4 + c]) * u;
        } else {
            const double h = f[lo + 1] - f[lo];
            for (int c = 0; c < 4; c++)
                q[c] = hermite(u, v[lo * 4 + c], tangent(f, v + c, 4, n, lo) * h, v[(lo + 1) * 4 + c],
                               tangent(f, v + c, 4, n, lo + 1) * h);
        }
        const double inv = 1 / sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int c = 0; c < 4; c++)
            out[c] = q[c] * inv;
    }
}
