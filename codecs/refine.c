#include "refine.h"

#include <math.h>
#include <string.h>

#include "../core/curve.h"
#include "../core/quat.h"

/* |normalize(r) . q| to within a few ulps, without the study's Kahan
 * normalisation; used only to rank frames, see worst_rotation_frame. */
static inline double approx_abs_dot(const double r[4], const double q[4])
{
    const double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
    if (rr == 0)
        return 0; /* the study normalises a zero quaternion to zero: 180 degrees */
    const double d = fabs(r[0] * q[0] + r[1] * q[1] + r[2] * q[2] + r[3] * q[3]) / sqrt(rr);
    return d < 1 ? d : 1;
}

typedef struct fit_target {
    const double *values; /* scalar: frame_count; rotation: frame_count * 4 */
    bool rotation;
    bool cubic;
    int n;
    double *recon;
    double *err;
    double *block_max; /* largest err of each REFINE_BLOCK frames, NaN ignored */
} fit_target;

static void update_block_max(const fit_target *t, int f0, int f1)
{
    for (int b = f0 / REFINE_BLOCK; b <= f1 / REFINE_BLOCK; b++) {
        const int end = (b + 1) * REFINE_BLOCK < t->n ? (b + 1) * REFINE_BLOCK : t->n;
        double m = -INFINITY;
        for (int f = b * REFINE_BLOCK; f < end; f++)
            if (t->err[f] > m)
                m = t->err[f];
        t->block_max[b] = m;
    }
}

/* The first frame holding the largest error (NaN never counts), or -1:
 * the first block holding the maximum, then the first frame in it. */
static int worst_frame(const fit_target *t, double *worst)
{
    const int blocks = (t->n + REFINE_BLOCK - 1) / REFINE_BLOCK;
    double m = -INFINITY;
    int wb = -1;
    for (int b = 0; b < blocks; b++)
        if (t->block_max[b] > m) {
            m = t->block_max[b];
            wb = b;
        }
    *worst = m;
    if (wb < 0)
        return -1;
    for (int f = wb * REFINE_BLOCK;; f++)
        if (t->err[f] == m)
            return f;
}

/* A key frame can keep a rounding error (a renormalised rotation is a few
 * ulps off its original) that a tolerance near 0 does not forgive; the study
 * would then insert the same frame again, a stream no decoder accepts.  A
 * key is as close as the curve gets, so it never counts as the worst frame.
 * Wherever the study's keys were valid this changes nothing: a key frame
 * was then never the worst above the tolerance. */
static void exclude_keys(const fit_target *t, const int *keys, int first, int last)
{
    for (int i = first; i <= last + 1; i++)
        t->err[keys[i]] = -INFINITY;
}

/* Recomputes reconstruction and error over segments first..last. */
static void update_errors(const fit_target *t, const int *keys, int key_count, int first,
                          int last)
{
    const int f0 = keys[first], f1 = keys[last + 1];
    if (!t->rotation) {
        const curve_keys k = {t->values, 1, keys, key_count, t->cubic};
        curve_reconstruct_segments(&k, first, last, t->recon, 1);
        for (int f = f0; f <= f1; f++)
            t->err[f] = fabs(t->recon[f] - t->values[f]);
        exclude_keys(t, keys, first, last);
        update_block_max(t, f0, f1);
        return;
    }
    const curve_keys k = {t->values, 4, keys, key_count, t->cubic};
    curve_reconstruct_segments4(&k, first, last, t->recon);
    for (int f = f0; f <= f1; f++)
        t->err[f] = -approx_abs_dot(t->recon + f * 4, t->values + f * 4);
    exclude_keys(t, keys, first, last);
    update_block_max(t, f0, f1);
}

/* The angle is 2 acos(d) with d = min(1, |q . r|), a decreasing function of
 * d; so rotation errors are ranked by -d (approximated to a few ulps) and
 * the study's exact angle is computed only for frames that can be the
 * worst.  Two frames can have the same angle only when their d differ by
 * far less than 1e-12 (the slope of acos is at least 1), so every frame
 * within that window of the smallest d is measured exactly and the first
 * with the largest angle wins, as in the study. */
static int worst_rotation_frame(const fit_target *t, int candidate, double *angle)
{
    const double dmin = -t->err[candidate];
    const double threshold = -(dmin + 1e-12); /* -err <= dmin + 1e-12 */
    double best = -1;
    int best_frame = candidate;
    for (int f = 0; f < t->n; f++) {
        if (f % REFINE_BLOCK == 0 && !(t->block_max[f / REFINE_BLOCK] >= threshold)) {
            f += REFINE_BLOCK - 1;
            continue;
        }
        if (!(t->err[f] >= threshold))
            continue;
        double q[4];
        quat_normalize(t->recon + f * 4, q);
        const double a = quat_angle_deg(q, t->values + f * 4);
        if (a > best) {
            best = a;
            best_frame = f;
        }
    }
    *angle = best;
    return best_frame;
}

static int refine(const fit_target *t, int n, double eps, int *keys)
{
    if (n <= 2) {
        for (int i = 0; i < n; i++)
            keys[i] = i;
        return n;
    }
    int count = 2;
    keys[0] = 0;
    keys[1] = n - 1;
    update_errors(t, keys, count, 0, 0);
    for (;;) {
        double worst;
        int wi = worst_frame(t, &worst);
        if (t->rotation && wi >= 0)
            wi = worst_rotation_frame(t, wi, &worst);
        if (worst <= eps || count >= n)
            return count;
        int lo = 0;
        while (keys[lo] < wi)
            lo++;
        memmove(keys + lo + 1, keys + lo, (size_t)(count - lo) * sizeof *keys);
        keys[lo] = wi;
        count++;
        int first = t->cubic ? lo - 2 : lo - 1, last = t->cubic ? lo + 1 : lo;
        if (first < 0)
            first = 0;
        if (last > count - 2)
            last = count - 2;
        update_errors(t, keys, count, first, last);
    }
}

int refine_scalar(const double *values, int n, double eps, bool cubic, int *keys,
                  double *recon, double *err)
{
    const fit_target t = {values, false, cubic, n, recon, err, err + n};
    return refine(&t, n, eps, keys);
}

int refine_rotation(const double *quats, int n, double eps_deg, bool cubic, int *keys,
                    double *recon, double *err)
{
    const fit_target t = {quats, true, cubic, n, recon, err, err + n};
    return refine(&t, n, eps_deg, keys);
}
