/* Samples a track container at any time, from its parsed keys: per track a
 * binary search for the key pair around t, then a lerp or a Catmull-Rom
 * Hermite (rotations: per component, then normalised, as the encoder
 * reconstructs them); quantised scalars are dequantised on the fly.
 *
 * All keys live in a few flat arrays so one pose walks memory forward. */
#ifndef ANIMBENCH_TRACK_SAMPLER_H
#define ANIMBENCH_TRACK_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "track_set.h"

typedef struct track_sampler {
    int bone_count, frame_count;
    bool cubic, quantized;
    int track_count;       /* bone_count * 7: scalars in id order, then rotations */
    int *offset, *count;   /* per track, into frames / values / codes */
    double *constant;      /* per track: the value (rotations: 4 per track, below) */
    double *const_quat;    /* per rotation track */
    uint16_t *frames;
    double *values;        /* scalar keys: 1 each; rotation keys: 4 each, at offset * 4 */
    uint16_t *codes;       /* quantised scalar keys */
    double *lo, *range;    /* per scalar track */
    int *pose_slot;        /* per scalar track: index into a pose */
} track_sampler;

track_sampler *track_sampler_create(const track_set *t);
void track_sampler_free(track_sampler *s);
/* pose: 10 doubles per bone (position, rotation x y z w, scale). */
void track_sampler_sample(const track_sampler *s, double t, double *pose);

#endif
