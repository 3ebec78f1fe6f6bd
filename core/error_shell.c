#include "core/error_shell.h"

#include "core/jsmath.h"
#include "core/quat.h"

static void vertex(const pose_set *p, int s, int j, int axis, double d, double out[3])
{
    const double *scale = pose_set_scale(p, s, j), *wp = pose_set_pos(p, s, j);
    double v[3] = {0, 0, 0}, r[3];
    v[axis] = d * scale[axis];
    quat_rotate(pose_set_rot(p, s, j), v, r);
    for (int i = 0; i < 3; i++)
        out[i] = wp[i] + r[i];
}

void shell_distance_m(const pose_set *a, const pose_set *b, double d, double *out)
{
    const int nb = a->rig->bone_count;
    for (int s = 0; s < a->samples; s++)
        for (int j = 0; j < nb; j++) {
            double worst = 0;
            for (int axis = 0; axis < 3; axis++) {
                double va[3], vb[3];
                vertex(a, s, j, axis, d, va);
                vertex(b, s, j, axis, d, vb);
                const double e = js_hypot3(va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]);
                if (e > worst)
                    worst = e;
            }
            out[(size_t)s * nb + j] = worst;
        }
}

void joint_displacement_m(const pose_set *a, const pose_set *b, double *out)
{
    const int nb = a->rig->bone_count;
    for (int s = 0; s < a->samples; s++)
        for (int j = 0; j < nb; j++) {
            const double *pa = pose_set_pos(a, s, j), *pb = pose_set_pos(b, s, j);
            out[(size_t)s * nb + j] = js_hypot3(pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]);
        }
}
