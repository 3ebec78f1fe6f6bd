/* BVH motion capture: import (and export, harness side: export.h).
 *
 * Reads the hierarchy (ROOT, JOINT, End Site, OFFSET, CHANNELS with any
 * channels in any order on any joint, several roots) and the motion
 * (Frames, Frame Time kept exactly as written, the values), with CRLF, LF,
 * CR or mixed line endings, tabs and spaces anywhere.
 *
 * Semantics, as Blender and most readers take them: a joint's local
 * translation is its OFFSET, except on the axes it has position channels
 * for, which give the translation directly; its rotation is the product of
 * its rotation channels in the order listed (CHANNELS ... Zrotation
 * Xrotation Yrotation means R = Rz Rx Ry), angles in degrees.  Lengths are
 * multiplied by unit_m to give metres.  End sites are kept on the rig for
 * export, not as joints.
 *
 * Bad input gets an error "FILE:LINE:COLUMN: expected X, found 'Y'"; the
 * parser never reads past the buffer it is given. */
#ifndef ANIMBENCH_BVH_H
#define ANIMBENCH_BVH_H

#include <stddef.h>

#include "core/clip.h"

typedef struct bvh_options {
    double unit_m; /* metres per file unit (CMU: 0.056444) */
} bvh_options;

typedef struct bvh_result {
    anim_rig *rig;
    anim_clip *clip;
    char frame_time[64]; /* as written in the file */
    int channel_count;
    double extent_m; /* the skeleton's largest extent in its rest pose, metres */
} bvh_result;

/* text need not be NUL-terminated.  name appears in messages.  Returns 0, or
 * -1 with the message in err (and nothing allocated). */
int bvh_parse(const char *text, size_t size, const char *name, const bvh_options *opt, bvh_result *out, char *err,
              size_t err_size);
/* Reads a file as a stream: a regular file of at most LIMIT_BVH_FILE_BYTES. */
int bvh_load(const char *path, const bvh_options *opt, bvh_result *out, char *err, size_t err_size);
void bvh_result_free(bvh_result *r);

#endif
