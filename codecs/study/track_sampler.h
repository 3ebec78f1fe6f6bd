/* Samples a track container at any time, from its parsed keys.
 *
 * Built once from the bytes: a template pose holding every constant channel,
 * and flat arrays for the animated tracks only (on the study's walk, 23 of
 * 210).  A sample copies the template, then per animated track finds the key
 * pair around t with a branchless binary search, and evaluates a lerp or a
 * Catmull-Rom Hermite (rotations: per component, then normalised, as the
 * encoder reconstructs them).  Tangents and inverse segment lengths are
 * computed at build time with the decoder's own arithmetic; quantised scalar
 * keys stay 16-bit and are dequantised per sample. */
#ifndef ANIMBENCH_TRACK_SAMPLER_H
#define ANIMBENCH_TRACK_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "codecs/study/track_set.h"

typedef struct sampler_track {
    int slot;        /* index into the pose: a scalar value, or a rotation's x */
    int offset;      /* first key in frames[] / inv_len[] (values: x width) */
    int count;       /* keys */
    double lo, step; /* quantised scalars: value = lo + code * step */
} sampler_track;

typedef struct track_sampler {
    int bone_count, frame_count;
    bool cubic, quantized;
    double *template_pose;            /* bone_count * 10: constants in place */
    int scalar_count, rotation_count; /* animated tracks */
    sampler_track *scalars, *rotations;
    key_frame *frames; /* keys of every animated track */
    double *inv_len;   /* per key: 1 / (next key's frame - this frame) */
    double *values;    /* scalar keys (1 each, float path), rotation keys (4 each) */
    double *slopes;    /* cubic: Catmull-Rom tangent per key (and component) */
    uint16_t *codes;   /* quantised scalar keys */
    /* Every scalar channel in id order, for the study's playback table:
     * count 0 means constant (value in `constant`). */
    int all_scalar_count;
    int *all_offset, *all_count;
    double *all_constant;
} track_sampler;

track_sampler *track_sampler_create(const track_set *t);
void track_sampler_free(track_sampler *s);
/* pose: 10 doubles per bone (position, rotation x y z w, scale). */
void track_sampler_sample(const track_sampler *s, double t, double *pose);
/* The key pair (lo, lo + 1) around t: the largest lo < count - 1 with
 * frames[lo] <= t (frames[0] is 0 and t >= 0). */
int track_find_pair(const key_frame *frames, int count, double t);

#endif
