/* The codec interface.  Every codec is one row of the table in
 * codecs/registry.c: a name, a description, and functions.
 *
 * Shared knowledge: an encoder sees the clip; its decoder sees only the
 * bytes, the rig (bone count, hierarchy, names: what a game ships once per
 * character, not per clip) and its own row (which codec it is, with the
 * row's fixed settings).  Nothing else passes from encoder to decoder.
 *
 * Time for samplers is in frames: t = 2.5 is halfway between frames 2 and 3. */
#ifndef ANIMBENCH_CODEC_H
#define ANIMBENCH_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "core/channels.h"
#include "core/clip.h"

/* A parameter a codec row declares: `list` prints it, `run --param
 * NAME=VALUE` and sweep definitions ("params") set it, results record it by
 * name, `match` searches the row's quality knob. */
typedef enum codec_param_type { PARAM_REAL, PARAM_INT, PARAM_CHOICE } codec_param_type;
typedef struct codec_param_decl {
    const char *name;
    codec_param_type type;
    double def, lo, hi; /* REAL: lo to hi (lo excluded when lo_open); INT: integers lo to hi; CHOICE: an index */
    bool lo_open;
    const char *unit; /* "mm", "frames", "bits", or "" */
    const char *doc;  /* one line */
    const char *const *choices; /* CHOICE: the names, NULL-terminated */
    /* the quality knob: +1 when a larger value gives fewer bytes and more error, -1 when it gives
     * more bytes and less error; 0 for every other parameter */
    int knob;
} codec_param_decl;

#define CODEC_MAX_PARAMS 8

/* The study's three parameters keep their fields (its codecs read them);
 * every other declared parameter is in value[], at its declared index. */
typedef struct codec_params {
    double tol_mm;  /* distance tolerance; codecs that reduce keys use it */
    double lever_m; /* lever arm turning tol_mm into an angle (study: 0.35) */
    int step;       /* a whole-number parameter for codecs that take one */
    double value[CODEC_MAX_PARAMS];
} codec_params;

typedef struct codec_input {
    const anim_clip *clip;
    const channel_view *view; /* the study's channel view of clip */
    bool encode_only;         /* only the bytes are wanted: encoder_recon and key_frames may stay NULL */
} codec_input;

/* Where a stream's bytes go, for codecs that say: named parts whose sizes
 * add up to the stream's.  `run` prints them; results record them. */
#define CODEC_PARTS_MAX 12
typedef struct codec_part {
    const char *name; /* a static string */
    long bytes;
} codec_part;

typedef struct codec_output {
    byte_buffer bytes;
    anim_clip *encoder_recon; /* what the encoder expects a decoder to rebuild, or NULL */
    long keys;                /* keys stored (the study's count), or -1 */
    int *key_frames;          /* every stored key's frame index, or NULL */
    long key_frame_count;
    long key_time_bytes;      /* bytes of the stream spent on key times (frame indices or deltas), or -1 */
    /* The error the codec itself says it met (ACL's calculate_compression_error),
     * in mm of its own metric, where it is, and its frame; for the record. */
    bool has_reported_error;
    double reported_error_mm;
    int reported_joint, reported_frame;
    int part_count;
    codec_part parts[CODEC_PARTS_MAX];
} codec_output;

void codec_output_init(codec_output *o);
void codec_output_free(codec_output *o);

/* A pose is 10 doubles per bone: position (3), rotation (4, x y z w), scale (3). */
#define POSE_STRIDE 10

typedef struct codec_sampler codec_sampler;

enum codec_flags {
    /* 1 << 0 and 1 << 1 were "uses tol_mm", "uses step": rows declare their parameters now */
    CODEC_NOT_SELF_CONTAINED = 1 << 2, /* its bytes alone do not decode to what it measures */
    CODEC_UNAVAILABLE = 1 << 3, /* not built here (a missing optional library): its ops only fail, saying why */
    /* between frames a joint's scale is a product of interpolated values (ACL composes scale
     * down the chain): it may leave the range of the frames around it by a second-order amount */
    CODEC_COMPOSED_SCALE = 1 << 4,
    /* interpolates in float32 (ACL): between frames a value may leave the range of the frames
     * around it by float rounding, a few units in the last place */
    CODEC_FLOAT_DECODE = 1 << 5,
    /* its sampler holds more than its stream plus a small context (harness/measure/runtime.h): it
     * decodes or expands the stream when it is created.  Declared so that `list` can say it;
     * measured by `run` and `bench`, and tests/test_runtime.c holds every row's declaration to
     * the measurement on the study's clips */
    CODEC_DECODES_AHEAD = 1 << 6
};

struct codec;

/* What a codec module implements; rows of the registry point at it. */
typedef struct codec_ops {
    /* Returns 0, or -1 with a message in err. */
    int (*encode)(const struct codec *c, const codec_input *in, const codec_params *p, codec_output *out,
                  char *err, size_t err_size);
    /* Decodes bytes alone into a new clip (fps as stored, or 0 when the
     * stream does not say).  Returns NULL with a message on bad bytes. */
    anim_clip *(*decode)(const struct codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                         char *err, size_t err_size);
    /* A sampler built from the bytes alone, for decode timings. */
    codec_sampler *(*sampler_create)(const struct codec *c, const uint8_t *bytes, size_t size,
                                     const anim_rig *rig, char *err, size_t err_size);
    /* Fills pose (POSE_STRIDE * bones doubles) at time t in frames, 0 <= t <= frames - 1. */
    void (*sample)(codec_sampler *s, double t, double *pose);
    void (*sampler_free)(codec_sampler *s);
} codec_ops;

/* One row of the registry: a variant is another row with another config. */
typedef struct codec {
    const char *name;
    const char *description;
    unsigned flags;
    const void *config; /* the row's fixed settings, read by its ops */
    const codec_ops *ops;
    /* What a stored point of this row is keyed on, besides the measuring code:
     * the row's own version (its author bumps it when the row's bytes change
     * for a reason its files do not show, such as a new config in the
     * registry) and the files of codecs/ its bytes come from ("lib:acl" for
     * ACL's headers).  Editing one codec re-measures only its rows. */
    int version;
    const char *sources;
    const codec_param_decl *params; /* what it declares, in order */
    int param_count;
} codec;

const codec *codec_find(const char *name);
int codec_count(void);
const codec *codec_at(int index);
/* Adds a row after the table's (tests add codecs that exist only in the test
 * build); returns 0, or -1 when the name is taken or the extra rows are full. */
int codec_register(const codec *c);
/* Why a row flagged CODEC_UNAVAILABLE cannot run in this build (the library it needs, and how to
 * build it in); NULL for a row that can. */
const char *codec_unavailable_reason(const codec *c);

/* Parameters: the row's defaults (the study's 1 mm, 0.35 m and step 2 for the
 * fields of the rows that do not declare them). */
void codec_params_init(const codec *c, codec_params *p);
/* The row's defaults with the study's three settings in their fields (its other parameters, such
 * as shellpack-ra's section length, at their declared defaults). */
codec_params codec_params_with(const codec *c, double tol_mm, double lever_m, int step);
/* The index of a declared parameter, or -1. */
int codec_param_index(const codec *c, const char *name);
/* The row's quality knob, or -1 when it has none. */
int codec_knob(const codec *c);
double codec_param_get(const codec *c, const codec_params *p, int index);
/* Sets parameter `index` to v after checking its type and range; 0, or -1
 * with "codec X: parameter Y: ... (range)" in err. */
int codec_param_set(const codec *c, codec_params *p, int index, double v, char *err, size_t err_size);
/* The same from text: a number, or a choice's name; an unknown name is an
 * error that lists the row's parameters. */
int codec_param_set_text(const codec *c, codec_params *p, const char *name, const char *text, char *err,
                         size_t err_size);
/* "real above 0 mm, default 1; the quality knob: larger is fewer bytes" */
void codec_param_describe(const codec_param_decl *d, char *out, size_t n);
/* A value as text: a choice's name, else %.17g. */
void codec_param_text(const codec_param_decl *d, double v, char *out, size_t n);
/* " name=value" for every declared parameter, in order: part of a point's key. */
void codec_params_format(const codec *c, const codec_params *p, char *out, size_t n);

#endif
