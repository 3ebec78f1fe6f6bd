/* Every error metric of a measured point, from the original's and the
 * decoded clip's world transforms at the frames and between them.  Each
 * metric is defined in its own file: error_joint.h (the study's),
 * error_shell.h (ACL's shell distance), error_distribution.h (statistics),
 * error_effectors.h (end effectors, limbs), error_contact.h (foot contact),
 * rate.h.  Lengths are kept in metres here and printed in millimetres. */
#ifndef ANIMBENCH_METRICS_H
#define ANIMBENCH_METRICS_H

#include <stddef.h>

#include "core/error_contact.h"
#include "core/error_distribution.h"
#include "core/error_effectors.h"
#include "core/pose_set.h"

typedef struct metric_params {
    double shell_distance_m; /* 0.03, ACL's */
    double precision_m;      /* 0.0001, ACL's default 0.01 cm */
    int substeps;            /* 4: times f + k/4, k = 1..3, inside every frame interval */
    contact_params contact;
} metric_params;

void metric_params_default(metric_params *p);

typedef struct metrics_report {
    error_distribution joint_m;       /* joint displacement at the frames */
    error_distribution shell_m;       /* shell distance at the frames */
    double shell_above_precision;     /* fraction of joint-samples above precision_m */
    int substeps;
    error_distribution between_joint_m, between_shell_m; /* at the sub-steps between frames */
    double between_shell_above_precision;
    int effector_count;
    error_distribution effector_m;    /* joint displacement of the end effectors, at the frames */
    int limb_count;
    limb_error *limbs;                /* per end effector */
    contact_report contact;
    double bits_per_joint_sample, acl_raw_ratio;
} metrics_report;

/* The times between frames: f + k / substeps for k = 1 .. substeps - 1 and
 * f = 0 .. frames - 2.  out needs (frames - 1) * (substeps - 1) doubles;
 * returns the count. */
int between_frame_times(int frames, int substeps, double *out);

/* between sets may be NULL (no sub-steps).  Returns 0, or -1 out of memory. */
int metrics_compute(const pose_set *original, const pose_set *decoded, const pose_set *original_between,
                    const pose_set *decoded_between, double fps, size_t bytes, const metric_params *p,
                    metrics_report *out);
void metrics_report_free(metrics_report *r);

#endif
