/* The one table of codecs.  A codec is a module exporting a codec_ops; a
 * row names it, says what it is, and gives its fixed settings.  Adding a
 * codec is one file plus one row here (README, "Adding a codec").
 * The raw layout is row one: every other row is read against it. */
#include <math.h>
#include <string.h>

#include "acl_codec.h"
#include "codec.h"
#include "raw_codec.h"
#include "track_codecs.h"

extern const codec_ops EVERY_NTH_OPS;

#define TRACKS(reduce, cubic, quant, drop, layout) \
    (&(const track_codec_config){reduce, cubic, quant, drop, layout})
/* the files the study's rows are built from (a row's cache key: codec.h) */
#define TRACK_SOURCES                                                                                      \
    "track_codecs.c track_codecs.h study_plan.c study_plan.h refine.c refine.h study_container.c "        \
    "study_container.h track_set.c track_set.h track_sampler.c track_sampler.h quantize.c quantize.h"
#define ACL_SOURCES "acl_codec.c acl_codec.h acl_shim.cpp acl_shim.h lib:acl"

/* Declared parameters (codec.h): the study's tolerance rows, every-nth, ACL. */
static const codec_param_decl STUDY_TOLERANCE[] = {
    {"tol_mm", PARAM_REAL, 1.0, 0, INFINITY, true, "mm",
     "tolerance: a position channel within it, a rotation within tol_mm / lever_m radians", NULL, +1},
    {"lever_m", PARAM_REAL, 0.35, 0, INFINITY, true, "m", "lever arm turning tol_mm into an angle (the study's 0.35)",
     NULL, 0},
};
static const codec_param_decl EVERY_NTH_STEP[] = {
    {"step", PARAM_INT, 2, 1, 65536, false, "frames", "keep every step-th frame (and the last)", NULL, +1},
};
static const codec_param_decl ACL_PRECISION[] = {
    {"tol_mm", PARAM_REAL, 0.1, 0, INFINITY, true, "mm",
     "ACL's precision: the shell error it keeps every joint within (its default 0.1 mm)", NULL, +1},
};
#define TOLERANCE_PARAMS STUDY_TOLERANCE, 2
#define NO_PARAMS NULL, 0

static const codec CODECS[] = {
    {"raw", "study 1: every channel of every frame as float32 (16-byte zero header)", 0, NULL, &RAW_CODEC_OPS, 1, "raw_codec.c raw_codec.h", NO_PARAMS},
    {"const", "study 2: constant channels stored once, the rest every frame (lossless)", 0,
     TRACKS(false, false, false, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"linear-all", "study 3: linear keyframe reduction of every channel, constants included",
     0, TRACKS(true, false, false, false, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear", "study 4: constant removal + linear keyframe reduction", 0,
     TRACKS(true, false, false, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic", "study 5: constant removal + Catmull-Rom cubic keyframe reduction", 0,
     TRACKS(true, true, false, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-q", "study 6: cubic keys, 16-bit pos/scale, smallest-3 quats (study layout: not self-contained)",
     CODEC_NOT_SELF_CONTAINED, TRACKS(true, true, true, true, LAYOUT_STUDY),
     &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"quant", "study 7: constant removal + quantisation of every frame (study layout: not self-contained)",
     CODEC_NOT_SELF_CONTAINED, TRACKS(false, false, true, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"const-sc", "study 2 in a self-contained layout (header with frames, fps, flags; 32-bit indices past 65,535 frames)", 0,
     TRACKS(false, false, false, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"linear-sc", "study 4 in a self-contained layout (header with frames, fps, flags; 32-bit indices past 65,535 frames)",
     0, TRACKS(true, false, false, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-sc", "study 5 in a self-contained layout (header with frames, fps, flags; 32-bit indices past 65,535 frames)",
     0, TRACKS(true, true, false, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-q-sc", "study 6 in a self-contained layout (header with frames, fps, flags; constants stored)",
     0, TRACKS(true, true, true, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"quant-sc", "study 7 in a self-contained layout (header with frames, fps, flags; constants stored)", 0,
     TRACKS(false, false, true, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"every-nth", "README example: every Nth frame as float32, linear in between", 0, NULL,
     &EVERY_NTH_OPS, 1, "every_nth.c", EVERY_NTH_STEP, 1},
    {"acl", "ACL v2.1 (Unreal's codec): default settings, variable bit rates, shell metric at 30 mm; "
            "--tol-mm is its precision (ACL's default 0.1 mm)",
     ACL_ROW_FLAGS, (&(const acl_row_config){0}), &ACL_CODEC_OPS, 1, ACL_SOURCES, ACL_PRECISION, 1},
    {"acl-highest", "ACL v2.1 at compression level highest; otherwise as acl", ACL_ROW_FLAGS,
     (&(const acl_row_config){1}), &ACL_CODEC_OPS, 1, ACL_SOURCES, ACL_PRECISION, 1},
};

/* Rows added at run time: codecs that exist only in a test build. */
#define EXTRA_MAX 8
static const codec *extra[EXTRA_MAX];
static int extra_count;

int codec_register(const codec *c)
{
    if (extra_count == EXTRA_MAX || codec_find(c->name))
        return -1;
    extra[extra_count++] = c;
    return 0;
}

int codec_count(void)
{
    return (int)(sizeof CODECS / sizeof CODECS[0]) + extra_count;
}

const codec *codec_at(int index)
{
    const int table = (int)(sizeof CODECS / sizeof CODECS[0]);
    if (index >= 0 && index < table)
        return &CODECS[index];
    return index >= table && index < table + extra_count ? extra[index - table] : NULL;
}

const codec *codec_find(const char *name)
{
    for (int i = 0; i < codec_count(); i++)
        if (strcmp(codec_at(i)->name, name) == 0)
            return codec_at(i);
    return NULL;
}
