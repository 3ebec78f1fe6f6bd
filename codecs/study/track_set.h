/* Keys read back from a track container (codecs/study/study_container.h), by the
 * decoder alone: bounds-checked, every count and index validated before it
 * is used, so truncated or corrupted bytes give an error, never a read past
 * the buffer. */
#ifndef ANIMBENCH_TRACK_SET_H
#define ANIMBENCH_TRACK_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "core/clip.h"
#include "codecs/study/study_container.h"

/* A key's frame: 16 bits in the study's layout, 32 in the wide one. */
typedef uint32_t key_frame;

typedef struct parsed_track {
    bool is_constant;
    int count;         /* keys; 1 when constant */
    key_frame *frames; /* count frame indices (constant: {0}) */
    double *values;   /* decoded: count (scalar) or count * 4 (rotation) */
    uint16_t *codes;  /* quantised scalar: the stored codes, else NULL */
    double lo, range; /* quantised scalar: the stored range */
} parsed_track;

typedef struct track_set {
    int bone_count, frame_count;
    double fps; /* 0 when the layout does not store it (the study's) */
    bool cubic, quantized, wide, delta_times;
    parsed_track *scalars;   /* bone_count * 6, id order */
    parsed_track *rotations; /* bone_count */
} track_set;

/* The study's layout stores neither interpolation, quantisation nor frame
 * count: cubic and quantized come from the codec row, and the frame count
 * from the last key of the animated tracks.  The self-contained layout
 * carries all three (and whether key times are deltas), and they must
 * agree with the row. */
track_set *track_set_parse(const uint8_t *bytes, size_t size, container_layout layout, bool cubic,
                           bool quantized, bool delta_times, int bone_count, char *err, size_t err_size);
void track_set_free(track_set *t);

/* The clip the keys describe, reconstructed with the encoder's arithmetic
 * (core/curve.h).  NULL when out of memory. */
anim_clip *track_set_to_clip(const track_set *t, const anim_rig *rig);

#endif
