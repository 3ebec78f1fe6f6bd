/* Random rigs and clips for scale studies, every one a pure function of its
 * parameters: `random:bones=60,frames=600,rate=60,seed=7` (every parameter
 * optional; README, "Random rigs and clips").
 *
 * The rig is a random tree drawn with PCG32: each bone after the root hangs
 * from an earlier bone chosen among those with room (fewer than `branching`
 * children, shallower than `depth`), at a random direction and a length of
 * 5 to 40 cm.  Each joint gets limits (5 to 60 degrees per axis) and its
 * rotation is a sum of three sinusoids (0.2 to 3 Hz) within them, a slow
 * aperiodic drift (a smooth sum of random bumps), and occasional snaps (a
 * step to a new pose over two frames).  The root walks forward at 0.5 to
 * 2 m/s, bobbing; while the bob is in its lowest third the root height is
 * held (a contact).  The draws come in a fixed order from one PCG32 stream
 * seeded with `seed`, so the same parameters give the same bytes on every
 * compiler and level. */
#ifndef ANIMBENCH_RANDOM_CLIP_H
#define ANIMBENCH_RANDOM_CLIP_H

#include <stddef.h>
#include <stdint.h>

#include "core/clip.h"

typedef struct random_clip_params {
    int bones;     /* 30 */
    int frames;    /* 600 */
    double rate;   /* 60 Hz */
    uint32_t seed; /* 1 */
    int branching; /* 3: the most children a bone has */
    int depth;     /* 8: the longest chain from the root */
} random_clip_params;

/* True when name starts with "random:" (or is "random"). */
int random_clip_is_name(const char *name);
/* Parses "random:key=value,..." against the defaults; 0, or -1 with a
 * message naming the key and its range (unknown keys are errors). */
int random_clip_parse(const char *name, random_clip_params *out, char *err, size_t err_size);
/* The rig and clip; 0, or -1 with a message (out of memory, or limits). */
int random_clip_make(const random_clip_params *p, anim_rig **rig, anim_clip **clip, char *err, size_t err_size);

#endif
