#include "core/error_contact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_effectors.h"

static double horizontal_distance(const double *a, const double *b, int up)
{
    double s = 0;
    for (int i = 0; i < 3; i++)
        if (i != up)
            s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

int foot_contact(const pose_set *o, const pose_set *d, double fps, const contact_params *p, contact_report *out)
{
    memset(out, 0, sizeof *out);
    const anim_rig *rig = o->rig;
    const int n = o->samples, up = p->up_axis;
    unsigned char *feet = calloc((size_t)rig->bone_count, 1);
    unsigned char *planted = calloc((size_t)n, 1);
    if (!feet || !planted) {
        free(feet);
        free(planted);
        return -1;
    }
    out->feet = foot_mask(rig, feet);
    double slide_sum = 0, sink_sum = 0;
    for (int j = 0; j < rig->bone_count; j++) {
        if (!feet[j] || n < 2)
            continue;
        double lowest = INFINITY;
        for (int f = 0; f < n; f++)
            lowest = fmin(lowest, pose_set_pos(o, f, j)[up]);
        for (int f = 0; f < n; f++) {
            const int a = f > 0 ? f - 1 : f, b = f + 1 < n ? f + 1 : f;
            const double speed = horizontal_distance(pose_set_pos(o, b, j), pose_set_pos(o, a, j), up) * fps / (b - a);
            planted[f] = pose_set_pos(o, f, j)[up] <= lowest + p->height_m && speed <= p->speed_mps;
        }
        int start = -1;
        for (int f = 0; f < n; f++) {
            if (!planted[f]) {
                start = -1;
                continue;
            }
            if (start < 0) {
                start = f;
                out->contacts++;
            }
            const double *o0 = pose_set_pos(o, start, j), *d0 = pose_set_pos(d, start, j);
            const double *of = pose_set_pos(o, f, j), *df = pose_set_pos(d, f, j);
            double moved[3];
            for (int i = 0; i < 3; i++)
                moved[i] = (df[i] - d0[i]) - (of[i] - o0[i]);
            const double zero[3] = {0, 0, 0};
            const double slide = horizontal_distance(moved, zero, up);
            const double sink = fmax(0, of[up] - df[up]);
            out->slide_max_m = fmax(out->slide_max_m, slide);
            out->sink_max_m = fmax(out->sink_max_m, sink);
            slide_sum += slide;
            sink_sum += sink;
            out->planted_frames++;
        }
    }
    if (out->planted_frames) {
        out->slide_mean_m = slide_sum / out->planted_frames;
        out->sink_mean_m = sink_sum / out->planted_frames;
    }
    free(feet);
    free(planted);
    return 0;
}
