/* Equal-error search: the smallest stream of a codec whose decoded clip
 * meets a target on one metric.
 *
 * The codec's quality knob is searched (tol_mm for tolerance codecs, a
 * larger value trading error for bytes; step for step codecs), every
 * candidate encoded, decoded from its bytes alone and measured.  A real knob
 * is scanned in octaves up from the target until the error is 16x past it
 * (halved down when nothing met it), then the bracket between the loosest
 * setting that met the target and the next one tried is bisected
 * geometrically 12 times.  Curves that are not monotone: a dip that falls on
 * the octave grid is found, and the answer is the fewest bytes among every
 * evaluated point that met the target (the trail lists them all); a dip
 * narrower than an octave between grid points can be missed.  A step knob
 * doubles from 1, then bisects integers.  A codec that cannot reach the
 * target at its finest setting gets that floor, not a point. */
#ifndef ANIMBENCH_MATCH_H
#define ANIMBENCH_MATCH_H

#include <stdbool.h>

#include "harness/measure/measure.h"

typedef enum match_metric {
    MATCH_JOINT_MAX,
    MATCH_JOINT_P99,
    MATCH_SHELL_MAX,
    MATCH_SHELL_P99,
    MATCH_BETWEEN_MAX,
    MATCH_BETWEEN_SHELL_MAX,
    MATCH_EFFECTOR_MAX,
    MATCH_METRIC_COUNT
} match_metric;

extern const char *const MATCH_METRIC_NAMES[MATCH_METRIC_COUNT]; /* "joint_max_mm", ... */
/* Returns the metric of that name, or -1. */
int match_metric_find(const char *name);
/* The metric's value in mm for a decoded point, or NaN when it was not measured. */
double match_metric_mm(const point_result *r, match_metric m);

#define MATCH_TRAIL_MAX 64

typedef struct match_step {
    double knob;  /* tol_mm, or step */
    size_t bytes;
    double value_mm; /* the metric; NaN when the stream did not decode */
} match_step;

typedef struct match_result {
    bool reachable;
    double knob;       /* the chosen setting */
    point_result point; /* its measurement (owned; point_result_free it) */
    double floor_mm;    /* the lowest value of the metric seen (when not reachable: how close it got) */
    double finest_knob; /* where */
    int decode_failures; /* settings whose stream did not decode (counted, never chosen) */
    int encodes;
    int trail_count;
    match_step trail[MATCH_TRAIL_MAX];
} match_result;

/* base gives the parameters other than the knob.  Returns 0 (reachable or
 * not: see out->reachable), or -1 with a message (an encode failed, or the
 * codec has no quality knob). */
int match_search(const measured_clip *mc, const codec *c, const codec_params *base, match_metric metric,
                 double target_mm, match_result *out, char *err, size_t err_size);
/* The same, trying `hint` first as one more candidate (NaN: none), e.g. the
 * setting a reference codec was measured at, so a codec compared with itself
 * is found at exactly its own point. */
int match_search_hint(const measured_clip *mc, const codec *c, const codec_params *base, match_metric metric,
                      double target_mm, double hint, match_result *out, char *err, size_t err_size);
void match_result_free(match_result *r);

#endif
