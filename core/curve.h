/* Reconstruction of a sampled channel from a subset of its frames (keys),
 * exactly as the study's reconScalar: linear, or cubic Hermite with
 * non-uniform Catmull-Rom tangents (one-sided at the first and last key).
 *
 * Values may be strided (a quaternion component is every 4th double). */
#ifndef ANIMBENCH_CURVE_H
#define ANIMBENCH_CURVE_H

#include <stdbool.h>

typedef struct curve_keys {
    const double *values; /* indexed by frame * stride; only key frames are read */
    int stride;
    const int *frames; /* ascending frame indices of the keys */
    int count;
    bool cubic;
} curve_keys;

/* Catmull-Rom tangent at key i, in value per frame. */
double curve_slope(const curve_keys *k, int i);

/* Value of segment seg (keys seg..seg+1) at integer frame f in [keys[seg], keys[seg+1]]. */
double curve_segment_value(const curve_keys *k, int seg, int f);

/* Writes out[f * out_stride] for the frames of segments first..last, in the
 * study's order, so a partial rewrite after inserting a key is bit-identical
 * to a full one.  With fewer than two keys the study writes zeros. */
void curve_reconstruct_segments(const curve_keys *k, int first, int last, double *out,
                                int out_stride);
void curve_reconstruct(const curve_keys *k, int frame_count, double *out, int out_stride);

/* The same for the four components of a quaternion track (values and out
 * are frame * 4 + component; k->stride is ignored), in one pass: each
 * component's arithmetic is the scalar one, so results are identical. */
void curve_reconstruct_segments4(const curve_keys *k, int first, int last, double *out);
void curve_reconstruct4(const curve_keys *k, int frame_count, double *out);

#endif
