#include "core/curve.h"

static inline double key_value(const curve_keys *k, int i)
{
    return k->values[(long)k->frames[i] * k->stride];
}

double curve_slope(const curve_keys *k, int i)
{
    const int *f = k->frames;
    if (i == 0)
        return (key_value(k, 1) - key_value(k, 0)) / (f[1] - f[0]);
    if (i == k->count - 1)
        return (key_value(k, i) - key_value(k, i - 1)) / (f[i] - f[i - 1]);
    return (key_value(k, i + 1) - key_value(k, i - 1)) / (f[i + 1] - f[i - 1]);
}

/* Operand order is the study's, term for term; see core/jsmath.h. */
static inline double hermite(double u, double p0, double m0, double p1, double m1)
{
    return (2 * u * u * u - 3 * u * u + 1) * p0 + (u * u * u - 2 * u * u + u) * m0 +
           (-2 * u * u * u + 3 * u * u) * p1 + (u * u * u - u * u) * m1;
}

typedef struct segment {
    int t0, t1, h;
    double p0, p1, m0, m1;
} segment;

static segment segment_setup(const curve_keys *k, int seg)
{
    segment s;
    s.t0 = k->frames[seg];
    s.t1 = k->frames[seg + 1];
    s.h = s.t1 - s.t0;
    s.p0 = key_value(k, seg);
    s.p1 = key_value(k, seg + 1);
    s.m0 = k->cubic ? curve_slope(k, seg) * s.h : 0;
    s.m1 = k->cubic ? curve_slope(k, seg + 1) * s.h : 0;
    return s;
}

static inline double segment_at(const segment *s, bool cubic, int f)
{
    const double u = (double)(f - s->t0) / s->h;
    return cubic ? hermite(u, s->p0, s->m0, s->p1, s->m1) : s->p0 + (s->p1 - s->p0) * u;
}

double curve_segment_value(const curve_keys *k, int seg, int f)
{
    const segment s = segment_setup(k, seg);
    return segment_at(&s, k->cubic, f);
}

void curve_reconstruct_segments(const curve_keys *k, int first, int last, double *out,
                                int out_stride)
{
    for (int seg = first; seg <= last; seg++) {
        const segment s = segment_setup(k, seg);
        for (int f = s.t0; f <= s.t1; f++)
            out[(long)f * out_stride] = segment_at(&s, k->cubic, f);
    }
    /* In a full pass the next segment overwrites its first frame. */
    if (last + 1 <= k->count - 2) {
        const segment s = segment_setup(k, last + 1);
        out[(long)s.t0 * out_stride] = segment_at(&s, k->cubic, s.t0);
    }
}

void curve_reconstruct(const curve_keys *k, int frame_count, double *out, int out_stride)
{
    if (k->count < 2) {
        for (int f = 0; f < frame_count; f++)
            out[(long)f * out_stride] = 0.0;
        return;
    }
    curve_reconstruct_segments(k, 0, k->count - 2, out, out_stride);
}

typedef struct segment4 {
    int t0, t1, h;
    double p0[4], p1[4], m0[4], m1[4];
} segment4;

static double slope4(const curve_keys *k, int i, int c)
{
    const int *f = k->frames;
    const double *v = k->values;
    if (i == 0)
        return (v[f[1] * 4 + c] - v[f[0] * 4 + c]) / (f[1] - f[0]);
    if (i == k->count - 1)
        return (v[f[i] * 4 + c] - v[f[i - 1] * 4 + c]) / (f[i] - f[i - 1]);
    return (v[f[i + 1] * 4 + c] - v[f[i - 1] * 4 + c]) / (f[i + 1] - f[i - 1]);
}

static segment4 segment4_setup(const curve_keys *k, int seg)
{
    segment4 s;
    s.t0 = k->frames[seg];
    s.t1 = k->frames[seg + 1];
    s.h = s.t1 - s.t0;
    for (int c = 0; c < 4; c++) {
        s.p0[c] = k->values[s.t0 * 4 + c];
        s.p1[c] = k->values[s.t1 * 4 + c];
        s.m0[c] = k->cubic ? slope4(k, seg, c) * s.h : 0;
        s.m1[c] = k->cubic ? slope4(k, seg + 1, c) * s.h : 0;
    }
    return s;
}

static inline void segment4_at(const segment4 *s, bool cubic, int f, double *out)
{
    const double u = (double)(f - s->t0) / s->h;
    for (int c = 0; c < 4; c++)
        out[c] = cubic ? hermite(u, s->p0[c], s->m0[c], s->p1[c], s->m1[c])
                       : s->p0[c] + (s->p1[c] - s->p0[c]) * u;
}

void curve_reconstruct_segments4(const curve_keys *k, int first, int last, double *out)
{
    for (int seg = first; seg <= last; seg++) {
        const segment4 s = segment4_setup(k, seg);
        for (int f = s.t0; f <= s.t1; f++)
            segment4_at(&s, k->cubic, f, out + (long)f * 4);
    }
    if (last + 1 <= k->count - 2) {
        const segment4 s = segment4_setup(k, last + 1);
        segment4_at(&s, k->cubic, s.t0, out + (long)s.t0 * 4);
    }
}

void curve_reconstruct4(const curve_keys *k, int frame_count, double *out)
{
    if (k->count < 2) {
        for (long i = 0; i < (long)frame_count * 4; i++)
            out[i] = 0.0;
        return;
    }
    curve_reconstruct_segments4(k, 0, k->count - 2, out);
}
