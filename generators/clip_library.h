/* Clips by name: the study's generated clips ("walk", "jump", "mocap"), and
 * motion capture files (a path ending in .bvh: generators/bvh.h). */
#ifndef ANIMBENCH_CLIP_LIBRARY_H
#define ANIMBENCH_CLIP_LIBRARY_H

#include <stddef.h>
#include <stdint.h>

#include "core/clip.h"
#include "generators/study_clips.h"

typedef struct clip_source {
    char name[256];
    char generator[64];   /* "study-walk", "study-jump", "study-mocap", "bvh" */
    clip_params params; /* generated clips */
    anim_rig *rig;        /* owned */
    anim_clip *clip;      /* owned */
    uint64_t sample_hash; /* FNV-1a over every sample's bytes, frame rate and hierarchy */
    double *jitter;       /* mocap: the LCG draws of every frame (frames * WALK_JITTER_DRAWS) */
    char path[4096];      /* imported: the file */
    char frame_time[64];  /* imported: Frame Time as written */
    char warning[1400];   /* "" or what looks wrong (a unit far from human scale); the harness prints it */
} clip_source;

/* An imported skeleton whose largest extent in its rest pose falls outside this
 * range is most likely read with the wrong unit. */
#define CLIP_HUMAN_EXTENT_MIN_M 0.3
#define CLIP_HUMAN_EXTENT_MAX_M 3.0

/* The shared data folder: $ANIMBENCH_DATA, or ../shared/data. */
const char *clip_data_folder(void);
/* A clip name with its "data:" prefix, if any, replaced by the data folder
 * ("data:bvh/x.bvh" -> "../shared/data/bvh/x.bvh"); other names unchanged. */
void clip_resolve(const char *name, char *out, size_t n);

/* True when name is an import (a path ending in .bvh, any case). */
int clip_is_file(const char *name);
/* A clip name, a .bvh file, or a folder: the clips it stands for (a folder:
 * its .bvh files, sorted).  Returns the count (0 with a message in err when
 * a folder holds none or cannot be read); free with clip_names_free. */
int clip_expand(const char *spec, char ***names, char *err, size_t err_size);
void clip_names_free(char **names, int count);

/* The original's pose at any time t in frames (10 doubles per bone).  The
 * generated clips are functions of time and are evaluated exactly; the
 * mocap jitter, drawn per frame, is interpolated linearly between frames;
 * a clip without a generator (an import) is interpolated from its frames:
 * lerp for positions and scales, normalised lerp the short way round for
 * rotations.  At integer t every source returns its frame exactly. */
void clip_source_pose_at(const clip_source *s, double t, double *pose);
/* (The frame interpolation used for imported clips is core/clip.h's clip_interpolate_pose.) */

/* Returns NULL with a message when the name is not a known clip or the
 * file cannot be read. */
clip_source *clip_source_load(const char *name, const clip_params *params, char *err, size_t err_size);
void clip_source_free(clip_source *s);

/* Hash of a clip's samples, rig and rate: two clips with the same hash are
 * the same data. */
uint64_t clip_hash(const anim_clip *clip);

/* The generated clip names, NULL-terminated. */
extern const char *const STUDY_CLIP_NAMES[];

#endif
