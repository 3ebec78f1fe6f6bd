#include "core/metrics.h"

#include <stdlib.h>
#include <string.h>

#include "core/error_shell.h"
#include "core/rate.h"

void metric_params_default(metric_params *p)
{
    p->shell_distance_m = SHELL_DISTANCE_DEFAULT_M;
    p->precision_m = SHELL_PRECISION_DEFAULT_M;
    p->substeps = 4;
    p->contact.height_m = CONTACT_HEIGHT_DEFAULT_M;
    p->contact.speed_mps = CONTACT_SPEED_DEFAULT_MPS;
    p->contact.up_axis = 1;
}

int between_frame_times(int frames, int substeps, double *out)
{
    int n = 0;
    for (int f = 0; f + 1 < frames; f++)
        for (int k = 1; k < substeps; k++)
            out[n++] = f + (double)k / substeps;
    return n;
}

static double fraction_above(const double *v, long n, double limit)
{
    long above = 0;
    for (long i = 0; i < n; i++)
        above += v[i] > limit;
    return n ? (double)above / n : 0;
}

/* Joint displacement and shell distance of one pair of sets. */
static void pair_stats(const pose_set *a, const pose_set *b, const metric_params *p, double *disp, double *shell,
                       double *scratch, error_distribution *joint, error_distribution *sh, double *above)
{
    const int nb = a->rig->bone_count;
    joint_displacement_m(a, b, disp);
    shell_distance_m(a, b, p->shell_distance_m, shell);
    error_distribution_of(disp, a->samples, nb, NULL, scratch, joint);
    error_distribution_of(shell, a->samples, nb, NULL, scratch, sh);
    *above = fraction_above(shell, (long)a->samples * nb, p->precision_m);
}

int metrics_compute(const pose_set *o, const pose_set *d, const pose_set *ob, const pose_set *db, double fps,
                    size_t bytes, const metric_params *p, metrics_report *out)
{
    memset(out, 0, sizeof *out);
    const anim_rig *rig = o->rig;
    const int nb = rig->bone_count;
    const int most = o->samples > (ob ? ob->samples : 0) ? o->samples : ob->samples;
    const size_t n = (size_t)most * nb;
    double *disp = malloc(n * sizeof *disp), *shell = malloc(n * sizeof *shell), *scratch = malloc(n * sizeof *scratch);
    unsigned char *effectors = calloc((size_t)nb, 1);
    out->limbs = calloc((size_t)nb, sizeof *out->limbs);
    if (!disp || !shell || !scratch || !effectors || !out->limbs) {
        free(disp), free(shell), free(scratch), free(effectors);
        metrics_report_free(out);
        return -1;
    }
    int rc = 0;
    out->substeps = ob ? p->substeps : 0;
    if (ob && db)
        pair_stats(ob, db, p, disp, shell, scratch, &out->between_joint_m, &out->between_shell_m,
                   &out->between_shell_above_precision);
    /* at the frames last, so disp holds the frames' displacement below */
    pair_stats(o, d, p, disp, shell, scratch, &out->joint_m, &out->shell_m, &out->shell_above_precision);
    out->effector_count = end_effector_mask(rig, effectors);
    error_distribution_of(disp, o->samples, nb, effectors, scratch, &out->effector_m);
    out->limb_count = limb_errors(rig, effectors, disp, o->samples, out->limbs);
    if (foot_contact(o, d, fps, &p->contact, &out->contact) != 0)
        rc = -1;
    out->bits_per_joint_sample = bits_per_joint_sample(bytes, o->samples, nb);
    out->acl_raw_ratio = acl_raw_ratio(bytes, o->samples, nb);
    free(disp), free(shell), free(scratch), free(effectors);
    return rc;
}

void metrics_report_free(metrics_report *r)
{
    free(r->limbs);
    r->limbs = NULL;
}
