#include "codecs/keys/key_select.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/curve.h"
#include "core/quat.h"
#include "codecs/keys/refine.h"

const char *const KEY_STRATEGY_NAMES[KEY_STRATEGY_COUNT] = {"refine", "optimal", "greedy", "peucker"};

struct key_workspace {
    int capacity;
    double *recon;   /* n * 4 */
    double *err;     /* refine_err_scratch(n) */
    double *tangent; /* n * 4: dense tangents, per frame (and component) */
    int *best, *parent, *other, *merged;
};

key_workspace *key_workspace_create(int n)
{
    key_workspace *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const size_t m = n > 2 ? (size_t)n : 2;
    w->capacity = n;
    w->recon = malloc(m * 4 * sizeof *w->recon);
    w->err = malloc(refine_err_scratch((int)m) * sizeof *w->err);
    w->tangent = malloc(m * 4 * sizeof *w->tangent);
    w->best = malloc(m * sizeof *w->best);
    w->parent = malloc(m * sizeof *w->parent);
    w->other = malloc(m * sizeof *w->other);
    w->merged = malloc(m * sizeof *w->merged);
    if (!w->recon || !w->err || !w->tangent || !w->best || !w->parent || !w->other || !w->merged) {
        key_workspace_free(w);
        return NULL;
    }
    return w;
}

void key_workspace_free(key_workspace *w)
{
    if (!w)
        return;
    free(w->recon);
    free(w->err);
    free(w->tangent);
    free(w->best);
    free(w->parent);
    free(w->other);
    free(w->merged);
    free(w);
}

/* One channel under one tolerance. */
typedef struct channel {
    const double *v;
    int n;
    bool rotation;
    double eps;
    double cos_half; /* rotation: cos(eps / 2), the |dot| at exactly eps */
    double slack;    /* scalar: the width of the band around a slope bound that is checked exactly */
} channel;

/* |normalize(r) . q| to a few ulps (refine.c ranks frames the same way). */
static inline double approx_abs_dot(const double r[4], const double q[4])
{
    const double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
    if (rr == 0)
        return 0;
    const double d = fabs(r[0] * q[0] + r[1] * q[1] + r[2] * q[2] + r[3] * q[3]) / sqrt(rr);
    return d < 1 ? d : 1;
}

/* The study's angle of a reconstructed rotation to the original, in degrees. */
static double rotation_error(const double r[4], const double q[4])
{
    double u[4];
    quat_normalize(r, u);
    return quat_angle_deg(u, q);
}

/* Whether a reconstructed rotation is within eps: decided by |dot| unless it
 * is within 1e-12 of the bound (the approximation is a few ulps off), and
 * then by the exact angle. */
static inline bool rotation_ok(const channel *c, const double r[4], const double q[4])
{
    const double d = approx_abs_dot(r, q);
    if (d > c->cos_half + 1e-12)
        return true;
    if (d < c->cos_half - 1e-12)
        return false;
    return rotation_error(r, q) <= c->eps;
}

/* Linear segment a..b at interior frame f, core/curve.c's arithmetic. */
static inline bool linear_frame_ok(const channel *c, int a, int b, int f)
{
    const double u = (double)(f - a) / (b - a);
    if (!c->rotation)
        return fabs(c->v[a] + (c->v[b] - c->v[a]) * u - c->v[f]) <= c->eps;
    const double *p0 = c->v + (size_t)a * 4, *p1 = c->v + (size_t)b * 4;
    const double r[4] = {p0[0] + (p1[0] - p0[0]) * u, p0[1] + (p1[1] - p0[1]) * u, p0[2] + (p1[2] - p0[2]) * u,
                         p0[3] + (p1[3] - p0[3]) * u};
    return rotation_ok(c, r, c->v + (size_t)f * 4);
}

static inline double hermite(double u, double p0, double m0, double p1, double m1)
{
    return (2 * u * u * u - 3 * u * u + 1) * p0 + (u * u * u - 2 * u * u + u) * m0 +
           (-2 * u * u * u + 3 * u * u) * p1 + (u * u * u - u * u) * m1;
}

/* Hermite segment a..b with the dense tangents at its ends (value per frame). */
static inline bool dense_frame_ok(const channel *c, const double *tangent, int a, int b, int f)
{
    const int h = b - a;
    const double u = (double)(f - a) / h;
    if (!c->rotation)
        return fabs(hermite(u, c->v[a], tangent[a] * h, c->v[b], tangent[b] * h) - c->v[f]) <= c->eps;
    double r[4];
    for (int k = 0; k < 4; k++)
        r[k] = hermite(u, c->v[(size_t)a * 4 + k], tangent[(size_t)a * 4 + k] * h, c->v[(size_t)b * 4 + k],
                       tangent[(size_t)b * 4 + k] * h);
    return rotation_ok(c, r, c->v + (size_t)f * 4);
}

/* Every interior frame of segment a..b within tolerance; the frame in *hint
 * (the last one to fail) is tried first, and a failing frame is left there:
 * neighbouring segments tend to fail at the same frame, so most rejections
 * cost one evaluation. */
static bool segment_ok(const channel *c, const double *tangent, int a, int b, int *hint)
{
    const int h = *hint;
    if (h > a && h < b && !(tangent ? dense_frame_ok(c, tangent, a, b, h) : linear_frame_ok(c, a, b, h)))
        return false;
    for (int f = a + 1; f < b; f++)
        if (f != h && !(tangent ? dense_frame_ok(c, tangent, a, b, f) : linear_frame_ok(c, a, b, f))) {
            *hint = f;
            return false;
        }
    return true;
}

/* The cone of slopes from key i (scalar, linear): a line from v[i] keeps
 * frame k within eps iff its slope lies in [(v[k] - eps - v[i]) / (k - i),
 * (v[k] + eps - v[i]) / (k - i)]; segment i..j is valid iff its slope lies
 * in the intersection over its interior frames.  Slopes within `slack` of a
 * bound are decided by the exact check, so the result is the decoder's
 * arithmetic's, not the cone's. */
typedef struct cone {
    int i;
    double lo, hi;
} cone;

static cone cone_start(int i)
{
    return (cone){i, -INFINITY, INFINITY};
}

/* Whether segment i..j is valid, given a cone holding frames i+1..j-1. */
static bool cone_admits(const channel *c, const cone *k, int j, int *hint)
{
    const double s = (c->v[j] - c->v[k->i]) / (j - k->i);
    if (s >= k->lo + c->slack && s <= k->hi - c->slack)
        return true;
    if (s < k->lo - c->slack || s > k->hi + c->slack)
        return false;
    return segment_ok(c, NULL, k->i, j, hint);
}

/* Adds frame j; false when the cone has closed (no later segment from i can be valid). */
static bool cone_add(const channel *c, cone *k, int j)
{
    const double d = j - k->i;
    const double lo = (c->v[j] - c->eps - c->v[k->i]) / d, hi = (c->v[j] + c->eps - c->v[k->i]) / d;
    if (lo > k->lo)
        k->lo = lo;
    if (hi < k->hi)
        k->hi = hi;
    return k->lo <= k->hi + c->slack;
}

static void dense_tangents(const channel *c, double *tangent)
{
    const int n = c->n, w = c->rotation ? 4 : 1;
    for (int f = 0; f < n; f++)
        for (int k = 0; k < w; k++) {
            const int a = f > 0 ? f - 1 : 0, b = f < n - 1 ? f + 1 : n - 1;
            tangent[(size_t)f * w + k] = (c->v[(size_t)b * w + k] - c->v[(size_t)a * w + k]) / (b - a);
        }
}

/* The fewest keys by dynamic programming: best[j] is the fewest keys
 * covering frames 0..j with a key at j.  A pair (i, j) is evaluated only
 * when it could improve best[j]. */
static int optimal_keys(const channel *c, const double *tangent, key_workspace *w, int *keys)
{
    const int n = c->n;
    int *best = w->best, *parent = w->parent;
    for (int f = 0; f < n; f++)
        best[f] = INT_MAX;
    best[0] = 1;
    parent[0] = -1;
    const bool use_cone = !c->rotation && !tangent;
    for (int i = 0; i < n - 1; i++) {
        const int next = best[i] + 1;
        int hint = -1;
        cone k = cone_start(i);
        for (int j = i + 1; j < n; j++) {
            if (next < best[j]) {
                const bool ok = j == i + 1 || (use_cone ? cone_admits(c, &k, j, &hint)
                                                        : segment_ok(c, tangent, i, j, &hint));
                if (ok) {
                    best[j] = next;
                    parent[j] = i;
                }
            }
            if (use_cone && !cone_add(c, &k, j))
                break;
        }
    }
    int count = best[n - 1];
    for (int f = n - 1, at = count - 1; f >= 0; f = parent[f])
        keys[at--] = f;
    return count;
}

static int greedy_keys(const channel *c, const double *tangent, int *keys)
{
    const int n = c->n;
    int count = 0;
    keys[count++] = 0;
    for (int a = 0; a < n - 1;) {
        int b = a + 1, hint = -1;
        cone k = cone_start(a);
        const bool use_cone = !c->rotation && !tangent;
        while (b + 1 < n) {
            bool ok;
            if (use_cone) {
                if (!cone_add(c, &k, b))
                    break;
                ok = cone_admits(c, &k, b + 1, &hint);
            } else {
                ok = segment_ok(c, tangent, a, b + 1, &hint);
            }
            if (!ok)
                break;
            b++;
        }
        keys[count++] = b;
        a = b;
    }
    return count;
}

/* Error of frame f under the straight chord a..b (the value's, or the angle's). */
static double chord_error(const channel *c, int a, int b, int f)
{
    const double u = (double)(f - a) / (b - a);
    if (!c->rotation)
        return fabs(c->v[a] + (c->v[b] - c->v[a]) * u - c->v[f]);
    const double *p0 = c->v + (size_t)a * 4, *p1 = c->v + (size_t)b * 4;
    const double r[4] = {p0[0] + (p1[0] - p0[0]) * u, p0[1] + (p1[1] - p0[1]) * u, p0[2] + (p1[2] - p0[2]) * u,
                         p0[3] + (p1[3] - p0[3]) * u};
    return rotation_error(r, c->v + (size_t)f * 4);
}

/* Douglas-Peucker with an explicit stack of segments (depth can reach n). */
static int peucker_keys(const channel *c, key_workspace *w, int *keys)
{
    const int n = c->n;
    int *is_key = w->best, *stack = w->parent, top = 0;
    memset(is_key, 0, (size_t)n * sizeof *is_key);
    is_key[0] = is_key[n - 1] = 1;
    stack[top++] = 0; /* segments as their left key; the right one is found by scanning is_key */
    while (top > 0) {
        const int a = stack[--top];
        int b = a + 1;
        while (!is_key[b])
            b++;
        double worst = -1;
        int at = -1;
        for (int f = a + 1; f < b; f++) {
            const double e = chord_error(c, a, b, f);
            if (e > worst) {
                worst = e;
                at = f;
            }
        }
        if (at >= 0 && worst > c->eps) {
            is_key[at] = 1;
            stack[top++] = a;
            stack[top++] = at;
        }
    }
    int count = 0;
    for (int f = 0; f < n; f++)
        if (is_key[f])
            keys[count++] = f;
    return count;
}

/* Non-key frames of keys[first]..keys[last] within tolerance, given recon
 * over those frames. */
static bool span_ok(const channel *c, const double *recon, const int *keys, int first, int last, int *worst_at)
{
    *worst_at = -1;
    double worst = -1;
    for (int s = first; s < last; s++)
        for (int f = keys[s] + 1; f < keys[s + 1]; f++) {
            double e;
            if (!c->rotation) {
                e = fabs(recon[f] - c->v[f]);
            } else {
                if (rotation_ok(c, recon + (size_t)f * 4, c->v + (size_t)f * 4))
                    continue;
                e = rotation_error(recon + (size_t)f * 4, c->v + (size_t)f * 4);
            }
            if (e > c->eps && e > worst) {
                worst = e;
                *worst_at = f;
            }
        }
    return *worst_at < 0;
}

static void reconstruct(const channel *c, const int *keys, int count, bool cubic, int first, int last,
                        double *recon)
{
    const curve_keys k = {c->v, c->rotation ? 4 : 1, keys, count, cubic};
    if (c->rotation)
        curve_reconstruct_segments4(&k, first, last, recon);
    else
        curve_reconstruct_segments(&k, first, last, recon, 1);
}

/* Re-derives Catmull-Rom tangents from the keys and inserts the worst frame
 * of every segment that exceeds the tolerance, until none does. */
static int cubic_repair(const channel *c, key_workspace *w, int *keys, int count)
{
    for (;;) {
        reconstruct(c, keys, count, true, 0, count - 2, w->recon);
        int added = 0, *insert = w->other;
        for (int s = 0; s < count - 1; s++) {
            int at;
            if (!span_ok(c, w->recon, keys, s, s + 1, &at))
                insert[added++] = at;
        }
        if (added == 0)
            return count;
        int *merged = w->merged, m = 0;
        for (int i = 0, j = 0; i < count || j < added;)
            merged[m++] = j >= added || (i < count && keys[i] < insert[j]) ? keys[i++] : insert[j++];
        memcpy(keys, merged, (size_t)m * sizeof *keys);
        count = m;
    }
}

/* Removes every key (left to right) whose removal keeps the frames of the
 * segments it changes within tolerance.  After removing key idx the changed
 * segments are idx-2..idx (in the shortened list): their tangents see keys
 * idx-3..idx+2, the window reconstructed. */
static int cubic_reduce(const channel *c, key_workspace *w, int *keys, int count)
{
    int *trial = w->merged;
    for (int idx = 1; idx < count - 1;) {
        const int lo = idx - 3 > 0 ? idx - 3 : 0, hi = idx + 3 < count - 1 ? idx + 3 : count - 1;
        int m = 0;
        for (int i = lo; i <= hi; i++)
            if (i != idx)
                trial[m++] = keys[i];
        /* the window's own ends are the channel's only where lo and hi reach them */
        const int removed_at = idx - lo; /* index in trial of the key after the removed one */
        const int first = removed_at - 2 > 0 ? removed_at - 2 : 0;
        const int last = removed_at < m - 2 ? removed_at : m - 2;
        const int seg_lo = lo == 0 ? first : (first > 1 ? first : 1);
        const int seg_hi = hi == count - 1 ? last : (last < m - 3 ? last : m - 3);
        bool ok = true;
        if (seg_lo <= seg_hi) {
            int at;
            reconstruct(c, trial, m, true, seg_lo, seg_hi, w->recon);
            ok = span_ok(c, w->recon, trial, seg_lo, seg_hi + 1, &at);
        }
        if (ok) {
            memmove(keys + idx, keys + idx + 1, (size_t)(count - idx - 1) * sizeof *keys);
            count--;
        } else {
            idx++;
        }
    }
    return count;
}

bool keys_within_tolerance(const double *values, int n, bool rotation, bool cubic, double eps, const int *keys,
                           int count, double *recon)
{
    if (count < 1 || keys[0] != 0 || keys[count - 1] != n - 1)
        return false;
    for (int i = 1; i < count; i++)
        if (keys[i] <= keys[i - 1])
            return false;
    if (count < 2)
        return n == 1;
    const double half = eps / 2 * ANIM_PI / 180;
    const channel c = {values, n, rotation, eps, cos(half < ANIM_PI / 2 ? half : ANIM_PI / 2), 0};
    reconstruct(&c, keys, count, cubic, 0, count - 2, recon);
    int at;
    return span_ok(&c, recon, keys, 0, count - 1, &at);
}

int select_keys(key_workspace *w, key_strategy s, const double *values, int n, bool rotation, bool cubic,
                double eps, int *keys)
{
    if (n > w->capacity)
        return -1;
    if (n <= 2) {
        for (int i = 0; i < n; i++)
            keys[i] = i;
        return n;
    }
    if (s == KEYS_REFINE)
        return rotation ? refine_rotation(values, n, eps, cubic, keys, w->recon, w->err)
                        : refine_scalar(values, n, eps, cubic, keys, w->recon, w->err);
    double largest = 0;
    if (!rotation)
        for (int f = 0; f < n; f++)
            largest = fabs(values[f]) > largest ? fabs(values[f]) : largest;
    const double half = eps / 2 * ANIM_PI / 180;
    const channel c = {values, n, rotation, eps, cos(half < ANIM_PI / 2 ? half : ANIM_PI / 2),
                       1e-12 * (largest + eps)};
    double *tangent = NULL;
    if (cubic && s != KEYS_PEUCKER) {
        dense_tangents(&c, w->tangent);
        tangent = w->tangent;
    }
    int count = s == KEYS_OPTIMAL  ? optimal_keys(&c, tangent, w, keys)
                : s == KEYS_GREEDY ? greedy_keys(&c, tangent, keys)
                                   : peucker_keys(&c, w, keys);
    if (cubic) {
        count = cubic_repair(&c, w, keys, count);
        count = cubic_reduce(&c, w, keys, count);
        if (s == KEYS_OPTIMAL) {
            /* the dense tangents are a model of the decoder's, not its own:
             * refine or greedy can still find fewer keys, and then theirs are
             * the answer */
            int *other = w->parent;
            for (int alt = 0; alt < 2; alt++) {
                const int r = alt == 0 ? select_keys(w, KEYS_REFINE, values, n, rotation, true, eps, other)
                                       : select_keys(w, KEYS_GREEDY, values, n, rotation, true, eps, other);
                if (r < count) {
                    memcpy(keys, other, (size_t)r * sizeof *keys);
                    count = r;
                }
            }
        }
    }
    return count;
}
