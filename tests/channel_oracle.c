#include "channel_oracle.h"

#include <math.h>

#include "core/curve.h"
#include "core/quat.h"

double channel_worst_error(const double *v, int n, bool rotation, bool cubic, const int *keys, int count,
                           double *recon, int *worst_frame)
{
    const curve_keys k = {v, rotation ? 4 : 1, keys, count, cubic};
    if (rotation)
        curve_reconstruct4(&k, n, recon);
    else
        curve_reconstruct(&k, n, recon, 1);
    double worst = -INFINITY;
    *worst_frame = -1;
    for (int f = 0, ki = 0; f < n; f++) {
        if (ki < count && keys[ki] == f) {
            ki++;
            continue;
        }
        double e;
        if (rotation) {
            double r[4];
            quat_normalize(recon + f * 4, r);
            e = quat_angle_deg(r, v + f * 4);
        } else {
            e = fabs(recon[f] - v[f]);
        }
        if (e > worst) {
            worst = e;
            *worst_frame = f;
        }
    }
    return worst;
}
