#include "codecs/keys/refine.h"

#include <math.h>
#include <string.h>

#include "core/curve.h"
#include "core/quat.h"

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

/* Keys live in a list threaded through the frames (next_key[f] is the key
 * after key f, -1 marks a frame that is not a key; prev_key likewise), so
 * inserting one costs O(1), not a shift of every later key.  The largest
 * error is kept in a max-tree over blocks of REFINE_BLOCK frames, so finding
 * it costs O(log n), not a scan of the channel.  Each insertion then costs
 * the frames of the segments it changes plus O(log n): the whole refinement
 * grows as n log n at worst, where refitting every channel per key, as the
 * study does, grows as n^2. */
typedef struct fit_target {
    const double *values; /* scalar: frame_count; rotation: frame_count * 4 */
    bool rotation;
    bool cubic;
    int n;
    double *recon;
    double *err;
    double *tree; /* tree[leaves + b]: largest err of block b (NaN ignored); tree[i]: max of children */
    int leaves;   /* a power of two >= the block count */
    int *next_key;
    int *prev_key;
} fit_target;

static int block_count(int n)
{
    return (n + REFINE_BLOCK - 1) / REFINE_BLOCK;
}

static int tree_leaves(int n)
{
    int leaves = 1;
    while (leaves < block_count(n))
        leaves *= 2;
    return leaves;
}

static inline double larger(double a, double b)
{
    return b > a ? b : a;
}

static void update_block_max(const fit_target *t, int f0, int f1)
{
    const int b0 = f0 / REFINE_BLOCK, b1 = f1 / REFINE_BLOCK;
    for (int b = b0; b <= b1; b++) {
        const int end = (b + 1) * REFINE_BLOCK < t->n ? (b + 1) * REFINE_BLOCK : t->n;
        double m = -INFINITY;
        for (int f = b * REFINE_BLOCK; f < end; f++)
            if (t->err[f] > m)
                m = t->err[f];
        t->tree[t->leaves + b] = m;
    }
    for (int lo = (t->leaves + b0) / 2, hi = (t->leaves + b1) / 2; lo >= 1; lo /= 2, hi /= 2)
        for (int i = lo; i <= hi; i++)
            t->tree[i] = larger(t->tree[2 * i], t->tree[2 * i + 1]);
}

/* The first frame holding the largest error (NaN never counts), or -1:
 * the first block holding the maximum, then the first frame in it. */
static int worst_frame(const fit_target *t, double *worst)
{
    const double m = t->tree[1];
    *worst = m;
    if (!(m > -INFINITY))
        return -1;
    int i = 1;
    while (i < t->leaves)
        i = t->tree[2 * i] == m ? 2 * i : 2 * i + 1;
    for (int f = (i - t->leaves) * REFINE_BLOCK;; f++)
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

/* Recomputes reconstruction and error over segments first..last of the
 * keys in k (a window of the channel's keys, see insert_key). */
static void update_errors(const fit_target *t, const curve_keys *k, int first, int last)
{
    const int f0 = k->frames[first], f1 = k->frames[last + 1];
    if (!t->rotation) {
        curve_reconstruct_segments(k, first, last, t->recon, 1);
        for (int f = f0; f <= f1; f++)
            t->err[f] = fabs(t->recon[f] - t->values[f]);
    } else {
        curve_reconstruct_segments4(k, first, last, t->recon);
        for (int f = f0; f <= f1; f++)
            t->err[f] = -approx_abs_dot(t->recon + f * 4, t->values + f * 4);
    }
    exclude_keys(t, k->frames, first, last);
    update_block_max(t, f0, f1);
}

/* The angle is 2 acos(d) with d = min(1, |q . r|), a decreasing function of
 * d; so rotation errors are ranked by -d (approximated to a few ulps) and
 * the study's exact angle is computed only for frames that can be the
 * worst.  Two frames can have the same angle only when their d differ by
 * far less than 1e-12 (the slope of acos is at least 1), so every frame
 * within that window of the smallest d is measured exactly and the first
 * with the largest angle wins, as in the study.  The tree is walked left to
 * right, entering only subtrees that hold a candidate. */
static void exact_worst_in(const fit_target *t, int node, double threshold, double *best,
                           int *best_frame)
{
    if (!(t->tree[node] >= threshold))
        return;
    if (node < t->leaves) {
        exact_worst_in(t, 2 * node, threshold, best, best_frame);
        exact_worst_in(t, 2 * node + 1, threshold, best, best_frame);
        return;
    }
    const int f0 = (node - t->leaves) * REFINE_BLOCK;
    const int f1 = f0 + REFINE_BLOCK < t->n ? f0 + REFINE_BLOCK : t->n;
    for (int f = f0; f < f1; f++) {
        if (!(t->err[f] >= threshold))
            continue;
        double q[4];
        quat_normalize(t->recon + f * 4, q);
        const double a = quat_angle_deg(q, t->values + f * 4);
        if (a > *best) {
            *best = a;
            *best_frame = f;
        }
    }
}

static int worst_rotation_frame(const fit_target *t, int candidate, double *angle)
{
    const double dmin = -t->err[candidate];
    double best = -1;
    int best_frame = candidate;
    exact_worst_in(t, 1, -(dmin + 1e-12), &best, &best_frame);
    *angle = best;
    return best_frame;
}

/* Inserts frame f (not a key) and refits the segments it changes: the two
 * halves of the split, and for cubic two more on each side, whose tangents
 * moved.  Those are reconstructed from a window of the keys around f, wide
 * enough that every tangent they use sees the same neighbours as in the
 * whole channel, and whose ends are the channel's ends where it reaches
 * them: the arithmetic is the full refit's, so the keys are the study's. */
static void insert_key(const fit_target *t, int f)
{
    int left = f - 1;
    while (t->next_key[left] < 0)
        left--; /* bounded by the segment being split, which is refit anyway */
    const int right = t->next_key[left];
    t->next_key[left] = f;
    t->next_key[f] = right;
    t->prev_key[f] = left;
    t->prev_key[right] = f;

    enum { LEFT = 3, RIGHT = 4 };
    int window[LEFT + 1 + RIGHT], before[LEFT], nb = 0, na = 0;
    for (int k = left; k >= 0 && nb < LEFT; k = t->prev_key[k])
        before[nb++] = k;
    for (int i = 0; i < nb; i++)
        window[i] = before[nb - 1 - i];
    window[nb] = f;
    for (int k = right; k < t->n && na < RIGHT; k = t->next_key[k])
        window[nb + 1 + na++] = k;
    const int count = nb + 1 + na;
    const int reach = t->cubic ? 2 : 1;
    const int first = nb > reach ? nb - reach : 0;
    const int last = nb + reach - 1 < count - 2 ? nb + reach - 1 : count - 2;
    const curve_keys k = {t->values, t->rotation ? 4 : 1, window, count, t->cubic};
    update_errors(t, &k, first, last);
}

/* keys[f] is the key after key f (n past the last): writes the keys in
 * order to keys[0..count-1], in place.  The i-th key is written at i <= its
 * frame, and every entry still to be read lies beyond it. */
static int keys_from_list(int *keys, int n, int count)
{
    int i = 0;
    for (int f = 0; f < n;) {
        const int next = keys[f];
        keys[i++] = f;
        f = next;
    }
    return count;
}

/* The worst frame strictly inside segment a..b (keys a and b), reconstructed
 * linearly into recon, ranked as worst_frame and worst_rotation_frame rank
 * the whole channel: the first largest error, NaN never counting; for
 * rotations the exact angle among frames within 1e-12 of the smallest d. */
static int worst_in_segment(const fit_target *t, int a, int b, double *worst)
{
    const int frames[2] = {a, b};
    const curve_keys k = {t->values, t->rotation ? 4 : 1, frames, 2, false};
    double m = -INFINITY;
    int w = -1;
    if (!t->rotation) {
        /* core/curve.c's linear segment, term for term, without storing it:
         * the scan is the whole cost of a long channel's first splits */
        const double p0 = t->values[a], p1 = t->values[b], d = p1 - p0;
        const int h = b - a;
        for (int f = a + 1; f < b; f++) {
            const double e = fabs(p0 + d * ((double)(f - a) / h) - t->values[f]);
            if (e > m) {
                m = e;
                w = f;
            }
        }
        *worst = m;
        return w;
    }
    curve_reconstruct_segments4(&k, 0, 0, t->recon);
    for (int f = a + 1; f < b; f++) {
        t->err[f] = -approx_abs_dot(t->recon + f * 4, t->values + f * 4);
        if (t->err[f] > m) {
            m = t->err[f];
            w = f;
        }
    }
    *worst = m;
    if (w < 0)
        return -1;
    const double threshold = -(-m + 1e-12);
    double best = -1;
    for (int f = a + 1; f < b; f++) {
        if (!(t->err[f] >= threshold))
            continue;
        double q[4];
        quat_normalize(t->recon + f * 4, q);
        const double angle = quat_angle_deg(q, t->values + f * 4);
        if (angle > best) {
            best = angle;
            w = f;
        }
    }
    *worst = best;
    return w;
}

/* Linear keys: a key changes only the segment it splits, so which segments
 * are split, and where, does not depend on the order: the whole channel's
 * worst-first refinement and this leftmost-first one give the same keys
 * (the test against the study's fit checks it).  Leftmost-first refits
 * one segment at a time, in the cache, where worst-first jumps across the
 * channel at every key: at 10^6 frames that made linear twice as slow per
 * key as at 10^5. */
static int refine_linear(fit_target *t, double eps, int *keys)
{
    const int n = t->n;
    int count = 2;
    for (int f = 0; f < n; f++)
        keys[f] = -1;
    keys[0] = n - 1;
    keys[n - 1] = n;
    for (int a = 0; a < n - 1;) {
        const int b = keys[a];
        double worst;
        const int w = worst_in_segment(t, a, b, &worst);
        if (w >= 0 && worst > eps) {
            keys[a] = w; /* refine a..w next, w..b after it */
            keys[w] = b;
            count++;
        } else {
            a = b;
        }
    }
    return keys_from_list(keys, n, count);
}

static int refine(fit_target *t, double eps, int *keys)
{
    const int n = t->n;
    if (n <= 2) {
        for (int i = 0; i < n; i++)
            keys[i] = i;
        return n;
    }
    if (!t->cubic)
        return refine_linear(t, eps, keys);
    /* next_key shares the output array: the keys are compacted into it at the end */
    t->next_key = keys;
    for (int f = 0; f < n; f++)
        keys[f] = t->prev_key[f] = -1;
    for (int i = 1; i < 2 * t->leaves; i++)
        t->tree[i] = -INFINITY;
    keys[0] = n - 1;
    keys[n - 1] = n; /* past the end: the list's terminator */
    t->prev_key[n - 1] = 0;
    const int ends[2] = {0, n - 1};
    const curve_keys k = {t->values, t->rotation ? 4 : 1, ends, 2, t->cubic};
    update_errors(t, &k, 0, 0);
    int count = 2;
    for (;;) {
        double worst;
        int wi = worst_frame(t, &worst);
        if (t->rotation && wi >= 0)
            wi = worst_rotation_frame(t, wi, &worst);
        if (worst <= eps || count >= n)
            break;
        insert_key(t, wi);
        count++;
    }
    return keys_from_list(keys, n, count);
}

static fit_target target(const double *values, int n, bool rotation, bool cubic, double *recon,
                         double *scratch)
{
    fit_target t = {values, rotation, cubic, n, recon, scratch, NULL, 0, NULL, NULL};
    t.leaves = tree_leaves(n);
    t.tree = scratch + n;
    t.prev_key = (int *)(t.tree + 2 * (size_t)t.leaves);
    return t;
}

size_t refine_err_scratch(int n)
{
    const size_t ints_as_doubles = ((size_t)n * sizeof(int) + sizeof(double) - 1) / sizeof(double);
    return (size_t)n + 2 * (size_t)tree_leaves(n) + ints_as_doubles;
}

int refine_scalar(const double *values, int n, double eps, bool cubic, int *keys,
                  double *recon, double *err)
{
    fit_target t = target(values, n, false, cubic, recon, err);
    return refine(&t, eps, keys);
}

int refine_rotation(const double *quats, int n, double eps_deg, bool cubic, int *keys,
                    double *recon, double *err)
{
    fit_target t = target(quats, n, true, cubic, recon, err);
    return refine(&t, eps_deg, keys);
}
