/* Clips from animation files through the Open Asset Import Library (assimp), over its C API: FBX,
 * glTF 2.0 (.gltf, .glb), COLLADA (.dae), DirectX (.x), Valve SMD, Blitz3D (.b3d), 3ds Max ASE,
 * CharacterStudio motion (.csm), and BVH through assimp (an "assimp:" prefix on any file forces
 * this reader; a plain .bvh goes to generators/bvh.h).  Optional at build time: without the library
 * every call says what is missing and the package to install.
 *
 * What becomes the rig: the joints of the file's skins (every mesh's bones, by node name) and
 * their ancestors up to the scene's root node; for a file without a skin, the animated nodes and
 * their ancestors.  Joints in depth-first order of the node tree, names kept (cut to 63 bytes).  A
 * joint's rest offset is its node's translation.
 *
 * What becomes the clip: one of the file's animations (the first, or FILE#NAME, or FILE#N counting
 * from 1), every channel's keys sampled at the frames: position and scale keys linearly, rotation
 * keys by spherical interpolation the short way round (what assimp 5.2's own evaluator does: its
 * keys carry no interpolation mode), each channel with its own key times, the first key's value
 * before it and the last's after; a joint without a channel, or a channel without keys of a kind,
 * holds its node's transform.  Frames at the file's rate or at --fps: ticks of at most 240 a second
 * are frames (BVH's 1 / Frame Time exactly, FBX's, 3DS's and LightWave's frame counts); finer ticks
 * (X and ASE count 4800 a second, COLLADA and glTF milliseconds) give the reciprocal of the shortest
 * interval between two keys of any channel, rounded to whole hertz within 0.1 %; ticks per second 0
 * is taken as 25, assimp's own default.  A length within a thousandth of a frame of a whole number
 * of frames is that many.
 *
 * Conventions: lengths in metres: --unit-m when given, else the file's own unit where assimp
 * reports one (FBX: UnitScaleFactor centimetres per unit), else 1 (glTF 2.0 is in metres by its
 * specification; COLLADA's <unit> is applied by assimp to the root node, which is a joint here; BVH,
 * X, SMD and the others state no unit).  Axes as assimp gives them, no post-processing flag set
 * (flags 0: no axis conversion, no global scale): a file's own up axis is kept, and --up says
 * which is up for the foot-contact metric.  Rotations are assimp's quaternions (a format's Euler
 * order is applied by its importer).  The harness's forward kinematics applies a joint's scale to
 * its children's offsets only (core/fk.h), a scene's composes it down the tree: each translation is
 * multiplied by its grandparent's accumulated scale so that world positions agree (exactly for
 * uniform scales; a non-uniform scale under a rotation shears, which no local translation can
 * hold: the clip then carries a warning with the largest difference).
 *
 * Bad input gets a message naming the file: a file assimp cannot read (assimp's own message), no
 * animation, no joint, a joint, node, key or frame count or a depth over core/limits.h's limits
 * (checked before this reader allocates), keys out of time order, a NaN or infinite value. */
#ifndef ANIMBENCH_SCENE_IMPORT_H
#define ANIMBENCH_SCENE_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/clip.h"

#define SCENE_NODES_MAX 1048576  /* nodes a scene may hold, joints or not */
#define SCENE_KEYS_MAX 16777216  /* keys of every channel of the animation read, together */

typedef struct scene_options {
    double unit_m; /* metres per file unit, when unit_given */
    bool unit_given;
    double fps; /* frames per second, when fps_given */
    bool fps_given;
} scene_options;

typedef struct scene_result {
    anim_rig *rig;
    anim_clip *clip;
    double unit_m;        /* the unit applied */
    double extent_m;      /* the skeleton's largest extent in its rest pose (roots left out), metres */
    double uneven_scale;  /* the largest (max - min) / max of a grandparent's accumulated scale's axes */
    char animation[128];  /* the animation read: its name, or "#N" when it has none */
    char warning[600];    /* "" or what the harness cannot represent exactly */
} scene_result;

/* One animation of a file, as `animbench scene` lists them. */
typedef struct scene_animation_info {
    char name[128];
    double seconds, rate_hz; /* the rate the reader would sample it at */
    int channels, keys;
} scene_animation_info;

typedef struct scene_info {
    int nodes, meshes, skinned_meshes, bones, depth;
    int joints; /* the rig the first animation gives */
    int animated_nodes, linked_nodes; /* the first animation's nodes, and those under another of them */
    int animation_count;
    scene_animation_info *animations; /* animation_count */
    char format[96];                  /* the importer assimp used, when it says */
    double unit_m;                    /* what the reader would apply without --unit-m */
} scene_info;

/* Whether this build has assimp; when not, scene_missing() says what to install. */
bool scene_available(void);
const char *scene_missing(void);

/* True when name is for this reader: an "assimp:" prefix, or a file ending in one of the
 * extensions above (any case), with or without a "#animation" suffix. */
bool scene_is_file(const char *name);

/* Reads spec (a path, an optional "assimp:" prefix, an optional "#NAME" or "#N" suffix).
 * Returns 0, or -1 with the message in err (and nothing allocated). */
int scene_load(const char *spec, const scene_options *o, scene_result *out, char *err, size_t err_size);
/* The same from bytes in memory; hint is the format's extension ("gltf", "fbx", ...). */
int scene_load_memory(const void *data, size_t size, const char *hint, const char *animation,
                      const scene_options *o, scene_result *out, char *err, size_t err_size);
void scene_result_free(scene_result *r);

/* What a file holds; free with scene_info_free.  0, or -1 with a message. */
int scene_describe(const char *path, scene_info *info, char *err, size_t err_size);
void scene_info_free(scene_info *info);

/* The conversion itself, from a scene assimp (or a test, or the fuzz target) built; scene is a
 * const struct aiScene *.  name appears in messages. */
int scene_convert(const void *scene, const char *name, const char *animation, const scene_options *o,
                  scene_result *out, char *err, size_t err_size);

#endif
