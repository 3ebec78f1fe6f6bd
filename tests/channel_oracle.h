/* The tests' own measure of a channel under a set of keys, from core/curve.h's
 * reconstruction and the study's error per frame: shared by the quadratic
 * refine oracle (test_core.c) and the enumeration of key subsets
 * (test_key_select.c), independent of codecs/. */
#ifndef ANIMBENCH_TESTS_CHANNEL_ORACLE_H
#define ANIMBENCH_TESTS_CHANNEL_ORACLE_H

#include <stdbool.h>

/* The largest error over the frames that are not keys (scalar: |recon - v|;
 * rotation: the angle in degrees of the renormalised reconstruction), NaN
 * never counting, and in *worst_frame the first frame holding it (-1, and
 * -INFINITY returned, when every frame is a key).  recon holds n * 4 doubles. */
double channel_worst_error(const double *v, int n, bool rotation, bool cubic, const int *keys, int count,
                           double *recon, int *worst_frame);

#endif
