/* The study's channel view of a clip: per bone 3 position and 3 scale scalar
 * channels (id = bone * 6 + k, k = 0..2 position, 3..5 scale) and one
 * rotation track, hemisphere-aligned along time so that each quaternion
 * component is a continuous curve. */
#ifndef ANIMBENCH_CHANNELS_H
#define ANIMBENCH_CHANNELS_H

#include <stdbool.h>

#include "core/clip.h"

/* The study's constant tests. */
#define CONSTANT_SCALAR_RANGE 1e-7   /* max - min below this */
#define CONSTANT_ROTATION_DEG 1e-4   /* every frame within this angle of frame 0 */

typedef enum { CHANNEL_POSITION = 0, CHANNEL_SCALE = 1 } channel_kind;

typedef struct scalar_channel {
    int id;
    channel_kind kind;
    int bone, axis;
    const double *values; /* frame_count values, owned by the clip */
    bool is_constant;
} scalar_channel;

typedef struct rotation_track {
    int bone;
    double *quats; /* frame_count * 4, aligned copy, owned by the view */
    bool is_constant;
} rotation_track;

typedef struct channel_view {
    const anim_clip *clip;
    int frame_count;
    int scalar_count;   /* bone_count * 6 */
    int rotation_count; /* bone_count */
    scalar_channel *scalars;
    rotation_track *rotations;
    double *aligned;
} channel_view;

/* NULL when out of memory.  The view borrows the clip, which must outlive it. */
channel_view *channels_create(const anim_clip *clip);
void channels_free(channel_view *view);
int channels_constant_scalars(const channel_view *view);
int channels_constant_rotations(const channel_view *view);

bool scalar_is_constant(const double *values, int count);
bool rotation_is_constant(const double *quats, int count);
/* Flips q[f] when its dot with the (already aligned) q[f-1] is negative. */
void hemisphere_align(double *quats, int count);

#endif
