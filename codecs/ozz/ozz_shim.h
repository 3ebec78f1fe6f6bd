/* ozz-animation v0.16 behind C functions: the one place the ozz rows touch C++ is
 * codecs/ozz/ozz_shim.cpp.  Transforms cross this line as float32, per frame and joint:
 * translation (3, metres), rotation (4, x y z w), scale (3), in ozz's conventions (scale composed
 * down the chain); codecs/ozz/ozz_codec.c maps the clip model to and from them.  Time is in
 * seconds, keys at f / fps. */
#ifndef ANIMBENCH_OZZ_SHIM_H
#define ANIMBENCH_OZZ_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ozz_shim_clip {
    int bones, frames;
    double fps;
    const int *parents;        /* -1 for a root; a parent comes before its children */
    const float *rest;         /* bones x 3: rest translations (the skeleton's bind pose) */
    const float *transforms;   /* frames x bones x 10 */
} ozz_shim_clip;

/* Builds ozz's runtime animation from the clip (optimize: its AnimationOptimizer first, with
 * tolerance and distance in metres, its hierarchical tolerance; else the builder alone) and
 * serializes it with ozz's archive into a malloc'd buffer (*bytes, the caller frees it).  The
 * animation's name carries the frame rate ("fps 30.003"), so that the bytes alone say where the
 * frames are.  Returns 0, or -1 with a message. */
int ozz_shim_encode(const ozz_shim_clip *clip, int optimize, float tolerance_m, float distance_m, uint8_t **bytes,
                    size_t *size, char *err, size_t err_size);

typedef struct ozz_shim_sampler ozz_shim_sampler;

/* Checks the bytes (ozz_shim.cpp says what ozz's archive checks and what the shim adds), loads the
 * animation with ozz's archive and makes a SamplingJob context for it.  bones must equal its track
 * count; parents (the rig's) give the track order.  *frames and *fps: the grid the name and the
 * duration give.  NULL with a message. */
ozz_shim_sampler *ozz_shim_sampler_create(const uint8_t *bytes, size_t size, int bones, const int *parents,
                                          int *frames, double *fps, char *err, size_t err_size);
/* Samples at time t in frames (0 <= t <= frames - 1) into out: bones x 10 floats, ozz's locals. */
void ozz_shim_sample(ozz_shim_sampler *s, double t, float *out);
void ozz_shim_sampler_free(ozz_shim_sampler *s);

/* "ozz-animation 0.16.0" */
const char *ozz_shim_version(void);

#ifdef __cplusplus
}
#endif

#endif
