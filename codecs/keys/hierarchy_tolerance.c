#include "codecs/keys/hierarchy_tolerance.h"

#include <math.h>
#include <stdlib.h>

#include "core/quat.h"

static double largest_abs(const double *v, int n)
{
    double m = 0;
    for (int f = 0; f < n; f++)
        m = fabs(v[f]) > m ? fabs(v[f]) : m;
    return m;
}

int hierarchy_tolerances(const channel_view *view, double tol_m, double distance_m, double *eps_scalar,
                         double *eps_rotation_deg)
{
    const anim_clip *clip = view->clip;
    const anim_rig *rig = clip->rig;
    const int nb = rig->bone_count, n = clip->frame_count;
    double *scale = malloc((size_t)nb * sizeof *scale), *length = malloc((size_t)nb * sizeof *length);
    double *offset = malloc((size_t)nb * sizeof *offset);
    if (!scale || !length || !offset) {
        free(scale);
        free(length);
        free(offset);
        return -1;
    }
    for (int b = 0; b < nb; b++) {
        double s = 0;
        for (int a = 0; a < 3; a++) {
            const double m = largest_abs(clip_scl_channel(clip, b, a), n);
            s = m > s ? m : s;
        }
        scale[b] = s;
        length[b] = distance_m * scale[b];
        offset[b] = distance_m;
    }
    for (int b = nb - 1; b >= 0; b--) {
        const int p = rig->parents[b];
        if (p < 0)
            continue;
        double reach = 0;
        for (int f = 0; f < n; f++) {
            double r = 0;
            for (int a = 0; a < 3; a++) {
                const double t = clip_pos_channel(clip, b, a)[f];
                r += t * t;
            }
            reach = r > reach ? r : reach;
        }
        const double via = length[b] + sqrt(reach) * scale[p];
        length[p] = via > length[p] ? via : length[p];
        offset[p] = sqrt(reach) > offset[p] ? sqrt(reach) : offset[p];
    }
    for (int i = 0; i < view->scalar_count; i++) {
        const scalar_channel *ch = &view->scalars[i];
        const int p = rig->parents[ch->bone];
        const double parent_scale = p >= 0 ? scale[p] : 1;
        eps_scalar[i] = ch->kind == CHANNEL_POSITION ? tol_m / (parent_scale > 0 ? parent_scale : 1)
                                                     : tol_m / (offset[ch->bone] > 0 ? offset[ch->bone] : 1);
    }
    for (int i = 0; i < view->rotation_count; i++) {
        const double len = length[view->rotations[i].bone];
        const double chord = len > 0 ? tol_m / (2 * len) : 1;
        eps_rotation_deg[i] = 2 * asin(chord < 1 ? chord : 1) * 180 / ANIM_PI;
    }
    free(scale);
    free(length);
    free(offset);
    return 0;
}
