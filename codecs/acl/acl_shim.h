/* The C face of ACL (the Animation Compression Library, C++): the only
 * place the project touches C++ is codecs/acl_shim.cpp, behind these
 * functions.  Everything here is in ACL's own terms: float transforms of
 * 10 values per joint (rotation x y z w, translation, scale), lengths in
 * centimetres, time in seconds.  codecs/acl/acl_codec.c maps the clip model to
 * and from them (codecs/acl/acl_codec.c). */
#ifndef ANIMBENCH_ACL_SHIM_H
#define ANIMBENCH_ACL_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_SHIM_STRIDE 10 /* rotation (4), translation (3), scale (3) */

typedef struct acl_shim_settings {
    float precision_cm;      /* error threshold of ACL's shell metric */
    float shell_distance_cm; /* virtual vertex distance */
    int highest_level;       /* 0: ACL's default settings (level automatic); 1: level highest */
} acl_shim_settings;

typedef struct acl_shim_result {
    uint8_t *bytes; /* ACL's compressed buffer, whole; free() it */
    size_t size;
    double reported_error_cm; /* ACL's calculate_compression_error on its own decode */
    int reported_joint;       /* where it is, or -1 */
    double reported_time_s;
} acl_shim_result;

/* transforms: frames * joints * ACL_SHIM_STRIDE floats, frame-major.
 * parents: -1 for a root.  rest_translations: joints * 3 floats, the rig's
 * rest offsets (the bind pose): ACL's default sub-track values, so a
 * translation equal to its rest offset is not stored; the decoder is given
 * the same from the rig.  Returns 0, or -1 with a message. */
int acl_shim_compress(const float *transforms, const int *parents, const float *rest_translations, int joints,
                      int frames, float sample_rate, const acl_shim_settings *settings, acl_shim_result *out,
                      char *err, size_t err_size);

/* "ACL 2.1.0, RTM 2.2.0": the library versions this shim was compiled against. */
const char *acl_shim_version(void);

typedef struct acl_shim_reader acl_shim_reader;

/* Validates the buffer as ACL does (tag, version, size, hash), then checks it
 * holds transform tracks for `joints` joints.  NULL with a message when not. */
acl_shim_reader *acl_shim_open(const uint8_t *bytes, size_t size, int joints, const float *rest_translations,
                               char *err, size_t err_size);
/* Frames a decoder rebuilds (a looping clip's repeated first frame included). */
int acl_shim_frames(const acl_shim_reader *r);
float acl_shim_sample_rate(const acl_shim_reader *r);
/* out: joints * ACL_SHIM_STRIDE floats.  t in frames; a whole frame is read
 * without interpolation, a time between frames is interpolated by ACL. */
void acl_shim_sample(acl_shim_reader *r, double t, float *out);
void acl_shim_close(acl_shim_reader *r);

#ifdef __cplusplus
}
#endif

#endif
