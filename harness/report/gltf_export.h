/* A clip as glTF 2.0 (harness/report/gltf_export.c says how), so that an original and its decoded
 * clip open side by side in any glTF viewer. */
#ifndef ANIMBENCH_GLTF_EXPORT_H
#define ANIMBENCH_GLTF_EXPORT_H

#include <stdio.h>

#include "core/clip.h"

/* Returns 0, or -1 (out of memory or a write error). */
int export_gltf(const anim_clip *clip, const char *name, FILE *out);

#endif
