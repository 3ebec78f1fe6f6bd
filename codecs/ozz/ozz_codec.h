/* ozz-animation's rows of the registry (codecs/ozz/ozz_codec.c). */
#ifndef ANIMBENCH_OZZ_CODEC_H
#define ANIMBENCH_OZZ_CODEC_H

#include "codecs/codec.h"

typedef struct ozz_row_config {
    int optimize; /* 1: its AnimationOptimizer before the builder; 0: the builder alone (its runtime format) */
} ozz_row_config;

#define OZZ_DEFAULT_TOLERANCE_MM 1.0 /* AnimationOptimizer::Setting's default tolerance, 1e-3 m */
#define OZZ_DEFAULT_DISTANCE_M 0.1   /* and its distance, 1e-1 m */
#define OZZ_FRAMES_MAX 65535         /* its runtime animation's time points are indexed in 16 bits */

#define OZZ_UNAVAILABLE_REASON                                                                                  \
    "built without ozz-animation: its sources were not found; set OZZ_DIR to ozz-animation's source folder "    \
    "(its include/ and src/; default ../shared/third_party/ozz) and rebuild (make clean all)"

#ifdef ANIMBENCH_HAVE_OZZ
#define OZZ_ROW_FLAGS (CODEC_COMPOSED_SCALE | CODEC_FLOAT_DECODE)
#else
#define OZZ_ROW_FLAGS (CODEC_COMPOSED_SCALE | CODEC_FLOAT_DECODE | CODEC_UNAVAILABLE)
#endif

extern const codec_ops OZZ_CODEC_OPS;

/* "ozz-animation 0.16.0", or "not built" with the reason. */
const char *ozz_codec_library(void);

#endif
