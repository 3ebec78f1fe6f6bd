#include "refine.h"

#include <math.h>
#include <string.h>

#include "../core/curve.h"
#include "../core/quat.h"

typedef struct fit_target {
    const double *values; /* scalar: frame_count; rotation: frame_count * 4 */
    bool rotation;
    bool cubic;
    double *recon;
    double *err;
} fit_target;

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
        return;
    }
    for (int c = 0; c < 4; c++) {
        const curve_keys k = {t->values + c, 4, keys, key_count, t->cubic};
        curve_reconstruct_segments(&k, first, last, t->recon + c, 4);
    }
    for (int f = f0; f <= f1; f++) {
        double q[4];
        quat_normalize(t->recon + f * 4, q);
        t->err[f] = quat_angle_deg(q, t->values + f * 4);
    }
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
        double worst = -1;
        int wi = -1;
        for (int f = 0; f < n; f++)
            if (t->err[f] > worst) {
                worst = t->err[f];
                wi = f;
            }
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
    const fit_target t = {values, false, cubic, recon, err};
    return refine(&t, n, eps, keys);
}

int refine_rotation(const double *quats, int n, double eps_deg, bool cubic, int *keys,
                    double *recon, double *err)
{
    const fit_target t = {quats, true, cubic, recon, err};
    return refine(&t, n, eps_deg, keys);
}
