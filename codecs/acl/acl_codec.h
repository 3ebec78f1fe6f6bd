/* ACL rows of the registry (codecs/acl/acl_codec.c). */
#ifndef ANIMBENCH_ACL_CODEC_H
#define ANIMBENCH_ACL_CODEC_H

#include "core/limits.h"
#include "codecs/codec.h"

typedef struct acl_row_config {
    int highest_level; /* 0: ACL's default settings (level automatic); 1: compression level highest */
} acl_row_config;

#define ACL_SHELL_DISTANCE_MM 30.0   /* ACL's default virtual vertex distance, 3 cm */
#define ACL_DEFAULT_PRECISION_MM 0.1 /* ACL's default precision, 0.01 cm */
#define ACL_DECODE_FRAMES_MAX LIMIT_FRAMES_MAX /* the clip model's frame limit, as every decoder */

#define ACL_UNAVAILABLE_REASON                                                                                  \
    "built without ACL: its headers were not found; set ACL_DIR and RTM_DIR to ACL's and RTM's source folders " \
    "(defaults ../shared/third_party/acl and ../shared/third_party/rtm) and rebuild (make clean all)"

#ifdef ANIMBENCH_HAVE_ACL
#define ACL_ROW_FLAGS (CODEC_COMPOSED_SCALE | CODEC_FLOAT_DECODE)
#else
#define ACL_ROW_FLAGS (CODEC_COMPOSED_SCALE | CODEC_FLOAT_DECODE | CODEC_UNAVAILABLE)
#endif

extern const codec_ops ACL_CODEC_OPS;

/* The ACL build: "ACL 2.1.0, RTM 2.2.0", or "not built" with the reason. */
const char *acl_codec_library(void);

/* Bone b's local transform at frame f as ACL is given it (and as the SJSON
 * export writes it): rotation x y z w, translation in centimetres, and the
 * scale s(b) / s(parent(b)) that makes ACL's composed scale equal ours. */
void acl_local_transform(const anim_clip *c, int bone, int frame, double out[10]);

#endif
