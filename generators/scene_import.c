#include "generators/scene_import.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/limits.h"
#include "core/text_file.h"

static const char *const EXTENSIONS[] = {".fbx", ".gltf", ".glb", ".dae", ".x", ".smd", ".b3d", ".ase", ".csm", NULL};
#define PREFIX "assimp:"
#define SCENE_FRAME_TICKS_MAX 240

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    const size_t k = strlen(suffix);
    return n >= k && strncasecmp(s + n - k, suffix, k) == 0;
}

/* The path part of a spec: without the prefix and the "#animation" suffix (when what precedes
 * the last '#' is itself a file name for this reader). */
static size_t path_length(const char *spec, const char **animation)
{
    const char *hash = strrchr(spec, '#');
    *animation = NULL;
    if (hash) {
        for (int i = 0; EXTENSIONS[i]; i++)
            if (ends_with(spec, (size_t)(hash - spec), EXTENSIONS[i]) ||
                (strncmp(spec, PREFIX, strlen(PREFIX)) == 0)) {
                *animation = hash + 1;
                return (size_t)(hash - spec);
            }
    }
    return strlen(spec);
}

bool scene_is_file(const char *name)
{
    if (strncmp(name, PREFIX, strlen(PREFIX)) == 0)
        return true;
    const char *animation;
    const size_t n = path_length(name, &animation);
    for (int i = 0; EXTENSIONS[i]; i++)
        if (ends_with(name, n, EXTENSIONS[i]))
            return true;
    return false;
}

void scene_result_free(scene_result *r)
{
    if (!r)
        return;
    clip_free(r->clip);
    rig_free(r->rig);
    r->clip = NULL;
    r->rig = NULL;
}

void scene_info_free(scene_info *info)
{
    if (info)
        free(info->animations);
    if (info)
        info->animations = NULL;
}

#ifndef ANIMBENCH_HAVE_ASSIMP

bool scene_available(void)
{
    return false;
}

const char *scene_missing(void)
{
    return "built without assimp: FBX, glTF 2.0, COLLADA and the other formats it reads need libassimp-dev "
           "(apt-get install libassimp-dev, or scripts/deps.sh), then make";
}

int scene_load(const char *spec, const scene_options *o, scene_result *out, char *err, size_t err_size)
{
    (void)o;
    memset(out, 0, sizeof *out);
    snprintf(err, err_size, "%s: %s", spec, scene_missing());
    return -1;
}

int scene_load_memory(const void *data, size_t size, const char *hint, const char *animation,
                      const scene_options *o, scene_result *out, char *err, size_t err_size)
{
    (void)data, (void)size, (void)animation, (void)o;
    memset(out, 0, sizeof *out);
    snprintf(err, err_size, "a .%s scene: %s", hint, scene_missing());
    return -1;
}

int scene_describe(const char *path, scene_info *info, char *err, size_t err_size)
{
    memset(info, 0, sizeof *info);
    snprintf(err, err_size, "%s: %s", path, scene_missing());
    return -1;
}

int scene_convert(const void *scene, const char *name, const char *animation, const scene_options *o,
                  scene_result *out, char *err, size_t err_size)
{
    (void)scene, (void)animation, (void)o;
    memset(out, 0, sizeof *out);
    snprintf(err, err_size, "%s: %s", name, scene_missing());
    return -1;
}

#else

#include <assimp/cimport.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>

bool scene_available(void)
{
    return true;
}

const char *scene_missing(void)
{
    return "";
}

/* ---- names ---- */

/* An aiString's bytes: up to its length, its first NUL, and MAXLEN - 1. */
static size_t name_length(const struct aiString *s)
{
    size_t n = s->length < MAXLEN - 1 ? s->length : MAXLEN - 1;
    const char *nul = memchr(s->data, '\0', n);
    return nul ? (size_t)(nul - s->data) : n;
}

static int name_compare(const struct aiString *a, const struct aiString *b)
{
    const size_t na = name_length(a), nb = name_length(b);
    const int c = memcmp(a->data, b->data, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

/* A name as a rig's: printable UTF-8, at most RIG_NAME_MAX - 1 bytes. */
static void rig_name(const struct aiString *s, char *out)
{
    char text[MAXLEN];
    const size_t n = name_length(s);
    memcpy(text, s->data, n);
    text[n < RIG_NAME_MAX - 1 ? n : RIG_NAME_MAX - 1] = '\0';
    utf8_printable_copy(text, out, RIG_NAME_MAX);
}

static void message_name(const struct aiString *s, char *out, size_t size)
{
    char text[MAXLEN];
    const size_t n = name_length(s);
    memcpy(text, s->data, n);
    text[n] = '\0';
    utf8_printable_copy(text, out, size < 200 ? size : 200);
}

/* ---- the node tree ---- */

typedef struct node_entry {
    const struct aiNode *node;
    int parent; /* its index here, -1 for the root */
    int joint;  /* its joint, or -1 */
    bool needed;
} node_entry;

typedef struct node_table {
    node_entry *e;
    int count, depth;
    int *by_name; /* indices sorted by name */
} node_table;

static const node_table *sort_table;
static int by_name(const void *x, const void *y)
{
    const int a = *(const int *)x, b = *(const int *)y;
    const int c = name_compare(&sort_table->e[a].node->mName, &sort_table->e[b].node->mName);
    return c ? c : (a > b) - (a < b);
}

static void table_free(node_table *t)
{
    free(t->e);
    free(t->by_name);
    memset(t, 0, sizeof *t);
}

/* Depth first, preorder, without recursion (a hostile tree may be deep or, built by hand, cyclic:
 * the node limit stops it). */
static int table_build(const struct aiNode *root, node_table *t, const char *name, char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    int capacity = 256;
    t->e = malloc((size_t)capacity * sizeof *t->e);
    int *stack = malloc((size_t)(LIMIT_DEPTH_MAX + 2) * sizeof *stack);
    unsigned *next_child = malloc((size_t)(LIMIT_DEPTH_MAX + 2) * sizeof *next_child);
    if (!t->e || !stack || !next_child) {
        free(stack);
        free(next_child);
        table_free(t);
        return snprintf(err, err_size, "out of memory"), -1;
    }
    int top = 0;
    t->e[0] = (node_entry){root, -1, -1, false};
    t->count = 1;
    stack[0] = 0;
    next_child[0] = 0;
    int rc = 0;
    while (top >= 0 && rc == 0) {
        const struct aiNode *n = t->e[stack[top]].node;
        if (next_child[top] >= n->mNumChildren || !n->mChildren) {
            top--;
            continue;
        }
        const struct aiNode *child = n->mChildren[next_child[top]++];
        if (!child)
            continue;
        if (top + 1 >= LIMIT_DEPTH_MAX) {
            rc = snprintf(err, err_size, "%s: its node tree is more than %d deep (at most %d)", name, LIMIT_DEPTH_MAX,
                          LIMIT_DEPTH_MAX);
            break;
        }
        if (t->count >= SCENE_NODES_MAX) {
            rc = snprintf(err, err_size, "%s: more than %d nodes (at most %d)", name, SCENE_NODES_MAX, SCENE_NODES_MAX);
            break;
        }
        if (t->count == capacity) {
            capacity *= 2;
            node_entry *grown = realloc(t->e, (size_t)capacity * sizeof *grown);
            if (!grown) {
                rc = snprintf(err, err_size, "out of memory");
                break;
            }
            t->e = grown;
        }
        t->e[t->count] = (node_entry){child, stack[top], -1, false};
        stack[++top] = t->count++;
        next_child[top] = 0;
        t->depth = top + 1 > t->depth ? top + 1 : t->depth;
    }
    free(stack);
    free(next_child);
    if (rc != 0) {
        table_free(t);
        return -1;
    }
    t->by_name = malloc((size_t)t->count * sizeof *t->by_name);
    if (!t->by_name) {
        table_free(t);
        return snprintf(err, err_size, "out of memory"), -1;
    }
    for (int i = 0; i < t->count; i++)
        t->by_name[i] = i;
    sort_table = t; /* qsort has no context argument; the importer runs on one thread at a time */
    qsort(t->by_name, (size_t)t->count, sizeof *t->by_name, by_name);
    return 0;
}

/* The first node of that name (in tree order), or -1. */
static int table_find(const node_table *t, const struct aiString *s)
{
    int lo = 0, hi = t->count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (name_compare(&t->e[t->by_name[mid]].node->mName, s) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->count && name_compare(&t->e[t->by_name[lo]].node->mName, s) == 0 ? t->by_name[lo] : -1;
}

/* ---- keys ---- */

static bool finite3(const struct aiVector3D *v)
{
    return isfinite(v->x) && isfinite(v->y) && isfinite(v->z);
}

/* Every key of a channel in time order and finite; counts them into *keys. */
static int check_channel(const struct aiNodeAnim *c, const char *name, double *shortest, long long *keys, char *err,
                         size_t err_size)
{
    char node[200];
    message_name(&c->mNodeName, node, sizeof node);
    const unsigned counts[3] = {c->mNumPositionKeys, c->mNumRotationKeys, c->mNumScalingKeys};
    const bool present[3] = {c->mPositionKeys != NULL, c->mRotationKeys != NULL, c->mScalingKeys != NULL};
    static const char *const KIND[3] = {"position", "rotation", "scale"};
    for (int k = 0; k < 3; k++) {
        if (counts[k] && !present[k])
            return snprintf(err, err_size, "%s: channel of node '%s' says %u %s keys and holds none", name, node,
                            counts[k], KIND[k]),
                   -1;
        *keys += counts[k];
        if (*keys > SCENE_KEYS_MAX)
            return snprintf(err, err_size, "%s: more than %d keys in the animation (at most %d)", name, SCENE_KEYS_MAX,
                            SCENE_KEYS_MAX),
                   -1;
        double previous = -INFINITY;
        for (unsigned i = 0; i < counts[k]; i++) {
            const double t = k == 1 ? c->mRotationKeys[i].mTime : k == 0 ? c->mPositionKeys[i].mTime : c->mScalingKeys[i].mTime;
            bool ok;
            if (k == 1) {
                const struct aiQuaternion *q = &c->mRotationKeys[i].mValue;
                ok = isfinite(q->w) && isfinite(q->x) && isfinite(q->y) && isfinite(q->z) &&
                     (q->w != 0 || q->x != 0 || q->y != 0 || q->z != 0);
            } else
                ok = finite3(k == 0 ? &c->mPositionKeys[i].mValue : &c->mScalingKeys[i].mValue);
            if (!isfinite(t) || !ok)
                return snprintf(err, err_size, "%s: node '%s', %s key %u: a value or its time is not finite%s", name, node,
                                KIND[k], i, k == 1 ? " (or the quaternion is 0)" : ""),
                       -1;
            if (t < previous)
                return snprintf(err, err_size, "%s: node '%s', %s key %u at %.9g ticks comes before the key before it "
                                               "(%.9g): keys out of time order",
                                name, node, KIND[k], i, t, previous),
                       -1;
            if (t > previous && i > 0 && t - previous < *shortest)
                *shortest = t - previous;
            previous = t;
        }
    }
    return 0;
}

static double key_time(const struct aiNodeAnim *c, int kind, unsigned i)
{
    return kind == 0 ? c->mPositionKeys[i].mTime : kind == 1 ? c->mRotationKeys[i].mTime : c->mScalingKeys[i].mTime;
}

/* The key pair around t: *i is the last key at or before t (0 before the first); moves forward
 * from where it was (frames are sampled in order). */
static double segment(const struct aiNodeAnim *c, int kind, unsigned count, double t, unsigned *i)
{
    while (*i + 1 < count && key_time(c, kind, *i + 1) <= t)
        (*i)++;
    if (*i + 1 >= count)
        return 0;
    const double t0 = key_time(c, kind, *i), t1 = key_time(c, kind, *i + 1);
    if (t <= t0)
        return 0;
    return t1 > t0 ? (t - t0) / (t1 - t0) : 1;
}

static void lerp3(const struct aiVector3D *a, const struct aiVector3D *b, double u, double out[3])
{
    out[0] = a->x + (b->x - (double)a->x) * u;
    out[1] = a->y + (b->y - (double)a->y) * u;
    out[2] = a->z + (b->z - (double)a->z) * u;
}

/* A finite, non-zero quaternion at unit length, whatever its magnitude (a float's up to 1e38: its
 * squares would overflow). */
static void unit_quat(double q[4])
{
    const double big = fmax(fmax(fabs(q[0]), fabs(q[1])), fmax(fabs(q[2]), fabs(q[3])));
    for (int k = 0; k < 4; k++)
        q[k] /= big;
    const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= len;
}

/* Spherical interpolation the short way round, normalised; (x, y, z, w). */
static void slerp(const struct aiQuaternion *a, const struct aiQuaternion *b, double u, double out[4])
{
    double p[4] = {a->x, a->y, a->z, a->w}, q[4] = {b->x, b->y, b->z, b->w};
    unit_quat(p);
    unit_quat(q);
    double d = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    if (d < 0) {
        d = -d;
        for (int k = 0; k < 4; k++)
            q[k] = -q[k];
    }
    double wa = 1 - u, wb = u;
    if (d < 0.9999 && u > 0 && u < 1) {
        const double angle = acos(d), s = sin(angle);
        wa = sin((1 - u) * angle) / s;
        wb = sin(u * angle) / s;
    }
    double len = 0;
    for (int k = 0; k < 4; k++) {
        out[k] = wa * p[k] + wb * q[k];
        len += out[k] * out[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 4; k++)
        out[k] /= len;
}

/* ---- the file's unit and rate ---- */

static bool metadata_number(const struct aiMetadata *m, const char *key, double *out)
{
    if (!m || !m->mKeys || !m->mValues)
        return false;
    for (unsigned i = 0; i < m->mNumProperties; i++) {
        if (name_length(&m->mKeys[i]) != strlen(key) || memcmp(m->mKeys[i].data, key, strlen(key)) != 0)
            continue;
        const struct aiMetadataEntry *e = &m->mValues[i];
        if (!e->mData)
            return false;
        switch (e->mType) {
        case AI_DOUBLE:
            *out = *(const double *)e->mData;
            return true;
        case AI_FLOAT:
            *out = *(const float *)e->mData;
            return true;
        case AI_INT32:
            *out = *(const int32_t *)e->mData;
            return true;
        default:
            return false;
        }
    }
    return false;
}

static bool metadata_text(const struct aiMetadata *m, const char *key, char *out, size_t n)
{
    if (!m || !m->mKeys || !m->mValues)
        return false;
    for (unsigned i = 0; i < m->mNumProperties; i++)
        if (name_length(&m->mKeys[i]) == strlen(key) && memcmp(m->mKeys[i].data, key, strlen(key)) == 0 &&
            m->mValues[i].mType == AI_AISTRING && m->mValues[i].mData) {
            message_name((const struct aiString *)m->mValues[i].mData, out, n);
            return true;
        }
    return false;
}

/* The unit a scene states: FBX's UnitScaleFactor, centimetres per unit. */
static double file_unit_m(const struct aiScene *sc)
{
    double f;
    if (metadata_number(sc->mMetaData, "UnitScaleFactor", &f) && isfinite(f) && f > 0 && f < 1e6)
        return f * 0.01;
    return 1;
}

static double ticks_per_second(const struct aiAnimation *an)
{
    return an->mTicksPerSecond > 0 && isfinite(an->mTicksPerSecond) ? an->mTicksPerSecond : 25;
}

/* The file's rate.  Ticks of at most 240 a second are frames (BVH's 1 / Frame Time, exactly as the
 * harness's own reader takes it; FBX, 3DS and LightWave count frames): that rate, however sparse the
 * keys.  Finer ticks (X and ASE count 4800 a second, COLLADA and glTF milliseconds) give the rate of
 * the shortest key interval, rounded to whole hertz within 0.1 %. */
static double file_rate(double shortest_ticks, double tps)
{
    if (tps <= SCENE_FRAME_TICKS_MAX)
        return tps;
    if (!(isfinite(shortest_ticks) && shortest_ticks > 0))
        return 30;
    double rate = tps / shortest_ticks;
    const double whole = round(rate);
    if (whole >= 1 && fabs(rate - whole) <= 0.001 * whole)
        rate = whole;
    return rate;
}

/* ---- the conversion ---- */

static int pick_animation(const struct aiScene *sc, const char *want, const char *name, char *err, size_t err_size)
{
    if (sc->mNumAnimations == 0 || !sc->mAnimations)
        return snprintf(err, err_size, "%s: the scene holds no animation", name), -1;
    if (!want || !*want)
        return sc->mAnimations[0] ? 0 : (snprintf(err, err_size, "%s: its first animation is missing", name), -1);
    for (unsigned i = 0; i < sc->mNumAnimations; i++) {
        const struct aiAnimation *a = sc->mAnimations[i];
        if (a && name_length(&a->mName) == strlen(want) && memcmp(a->mName.data, want, strlen(want)) == 0)
            return (int)i;
    }
    char *end;
    const long k = strtol(want, &end, 10);
    if (*end == '\0' && end != want && k >= 1 && (unsigned long)k <= sc->mNumAnimations && sc->mAnimations[k - 1])
        return (int)(k - 1);
    char names[400] = "";
    size_t at = 0;
    for (unsigned i = 0; i < sc->mNumAnimations && i < 8 && at < sizeof names - 80; i++) {
        char one[64] = "";
        if (sc->mAnimations[i])
            message_name(&sc->mAnimations[i]->mName, one, sizeof one);
        at += (size_t)snprintf(names + at, sizeof names - at, "%s#%u '%s'", i ? ", " : "", i + 1, one);
    }
    return snprintf(err, err_size, "%s: no animation '%s' (it holds %u: %s%s)", name, want, sc->mNumAnimations, names,
                    sc->mNumAnimations > 8 ? ", ..." : ""),
           -1;
}

/* Marks the rig's nodes: the skins' bones, or the animated nodes; then their ancestors. */
static int mark_joints(const struct aiScene *sc, const struct aiAnimation *an, node_table *t, int *joints)
{
    bool skinned = false;
    for (unsigned m = 0; m < sc->mNumMeshes && sc->mMeshes; m++) {
        const struct aiMesh *mesh = sc->mMeshes[m];
        if (!mesh || !mesh->mBones)
            continue;
        for (unsigned b = 0; b < mesh->mNumBones && b < SCENE_NODES_MAX; b++) {
            if (!mesh->mBones[b])
                continue;
            const int i = table_find(t, &mesh->mBones[b]->mName);
            if (i >= 0)
                t->e[i].needed = skinned = true;
        }
    }
    if (!skinned)
        for (unsigned c = 0; c < an->mNumChannels && an->mChannels; c++)
            if (an->mChannels[c]) {
                const int i = table_find(t, &an->mChannels[c]->mNodeName);
                if (i >= 0)
                    t->e[i].needed = true;
            }
    for (int i = t->count - 1; i >= 0; i--) /* children come after parents: one backward pass */
        if (t->e[i].needed && t->e[i].parent >= 0)
            t->e[t->e[i].parent].needed = true;
    *joints = 0;
    for (int i = 0; i < t->count; i++)
        if (t->e[i].needed)
            t->e[i].joint = (*joints)++;
    return skinned;
}

int scene_convert(const void *scene, const char *name, const char *animation, const scene_options *o,
                  scene_result *out, char *err, size_t err_size)
{
    const struct aiScene *sc = scene;
    memset(out, 0, sizeof *out);
    if (!sc || !sc->mRootNode)
        return snprintf(err, err_size, "%s: the scene has no root node", name), -1;
    const int which = pick_animation(sc, animation, name, err, err_size);
    if (which < 0)
        return -1;
    const struct aiAnimation *an = sc->mAnimations[which];
    if (!isfinite(an->mDuration) || an->mDuration < 0 || !(an->mTicksPerSecond >= 0) || !isfinite(an->mTicksPerSecond))
        return snprintf(err, err_size, "%s: animation #%d lasts %g ticks at %g ticks a second", name, which + 1,
                        an->mDuration, an->mTicksPerSecond),
               -1;
    node_table t;
    if (table_build(sc->mRootNode, &t, name, err, err_size) != 0)
        return -1;
    int joints = 0;
    const bool skinned = mark_joints(sc, an, &t, &joints);
    int rc = 0;
    if (joints == 0)
        rc = snprintf(err, err_size, "%s: animation #%d moves no node of the scene and it has no skin", name, which + 1);
    else if (joints > LIMIT_JOINTS_MAX)
        rc = snprintf(err, err_size, "%s: %d joints (at most %d)", name, joints, LIMIT_JOINTS_MAX);
    /* the channels of the rig's joints, their keys checked and counted before anything is allocated */
    const struct aiNodeAnim **channel = rc ? NULL : calloc((size_t)joints, sizeof *channel);
    if (!rc && !channel)
        rc = snprintf(err, err_size, "out of memory");
    double shortest = INFINITY, last_key = 0;
    long long keys = 0;
    int duplicates = 0;
    for (unsigned c = 0; !rc && c < an->mNumChannels && an->mChannels; c++) {
        const struct aiNodeAnim *ch = an->mChannels[c];
        if (!ch)
            continue;
        const int i = table_find(&t, &ch->mNodeName);
        if (i < 0 || t.e[i].joint < 0)
            continue; /* a camera's or a mesh's channel, not the skeleton's */
        if (check_channel(ch, name, &shortest, &keys, err, err_size) != 0) {
            rc = -1;
            break;
        }
        for (int k = 0; k < 3; k++) {
            const unsigned n = k == 0 ? ch->mNumPositionKeys : k == 1 ? ch->mNumRotationKeys : ch->mNumScalingKeys;
            if (n)
                last_key = fmax(last_key, key_time(ch, k, n - 1));
        }
        if (channel[t.e[i].joint])
            duplicates++;
        else
            channel[t.e[i].joint] = ch;
    }
    const double tps = ticks_per_second(an);
    const double span = an->mDuration > 0 ? an->mDuration : last_key;
    const double rate = o->fps_given ? o->fps : file_rate(shortest, tps);
    /* a length within a thousandth of a frame of a whole number of frames is that many (key times in
     * float32 seconds or in milliseconds fall a little short) */
    const double frames = floor(span / tps * rate + 1e-3) + 1;
    if (!rc && clip_limits_check(frames, joints, rate, err, err_size) != 0) {
        char why[256];
        snprintf(why, sizeof why, "%s", err);
        rc = snprintf(err, err_size, "%s: animation #%d (%.6g s at %.6g frames a second): %s", name, which + 1,
                      span / tps, rate, why);
    }
    anim_rig *rig = rc ? NULL : rig_create(joints);
    anim_clip *clip = rig ? clip_create_rest(rig, (int)frames, rate) : NULL;
    double *local = clip ? malloc((size_t)joints * 10 * sizeof *local) : NULL; /* static TRS per joint */
    double *world_scale = local ? malloc((size_t)joints * 3 * sizeof *world_scale) : NULL;
    if (!rc && !world_scale) {
        rc = snprintf(err, err_size, "out of memory");
    }
    const double unit = o->unit_given ? o->unit_m : file_unit_m(sc);
    double worst_shear = 0;
    /* the rig: names, parents, the nodes' own transforms */
    for (int i = 0; !rc && i < t.count; i++) {
        const int j = t.e[i].joint;
        if (j < 0)
            continue;
        rig_name(&t.e[i].node->mName, rig->names[j]);
        rig->parents[j] = t.e[i].parent >= 0 ? t.e[t.e[i].parent].joint : -1;
        struct aiVector3D s, p;
        struct aiQuaternion q;
        aiDecomposeMatrix(&t.e[i].node->mTransformation, &s, &q, &p);
        double *l = local + (size_t)j * 10;
        double qv[4] = {q.x, q.y, q.z, q.w};
        const bool q_ok = isfinite(qv[0]) && isfinite(qv[1]) && isfinite(qv[2]) && isfinite(qv[3]) &&
                          (qv[0] != 0 || qv[1] != 0 || qv[2] != 0 || qv[3] != 0);
        if (!finite3(&s) || !finite3(&p) || !q_ok) {
            char node[200];
            message_name(&t.e[i].node->mName, node, sizeof node);
            rc = snprintf(err, err_size, "%s: node '%s': its transform is not finite or cannot be split into "
                                         "translation, rotation and scale", name, node);
            break;
        }
        l[0] = p.x * unit;
        l[1] = p.y * unit;
        l[2] = p.z * unit;
        unit_quat(qv);
        memcpy(l + 3, qv, sizeof qv);
        l[7] = s.x;
        l[8] = s.y;
        l[9] = s.z;
    }
    /* every frame: channels sampled, else the node's own; then a grandparent's scale into the offset */
    for (int j = 0; !rc && j < joints; j++) {
        const struct aiNodeAnim *ch = channel[j];
        unsigned at[3] = {0, 0, 0};
        const double *l = local + (size_t)j * 10;
        double *rot = clip_rot_track(clip, j);
        for (int f = 0; f < clip->frame_count; f++) {
            const double tick = (double)f * tps / rate;
            double v[4];
            if (ch && ch->mNumPositionKeys) {
                const double u = segment(ch, 0, ch->mNumPositionKeys, tick, &at[0]);
                const unsigned b = at[0] + 1 < ch->mNumPositionKeys ? at[0] + 1 : at[0];
                lerp3(&ch->mPositionKeys[at[0]].mValue, &ch->mPositionKeys[b].mValue, u, v);
                for (int a = 0; a < 3; a++)
                    v[a] *= unit;
            } else
                memcpy(v, l, 3 * sizeof *v);
            for (int a = 0; a < 3; a++)
                clip_pos_channel(clip, j, a)[f] = v[a];
            if (ch && ch->mNumRotationKeys) {
                const double u = segment(ch, 1, ch->mNumRotationKeys, tick, &at[1]);
                const unsigned b = at[1] + 1 < ch->mNumRotationKeys ? at[1] + 1 : at[1];
                slerp(&ch->mRotationKeys[at[1]].mValue, &ch->mRotationKeys[b].mValue, u, rot + (size_t)f * 4);
            } else
                memcpy(rot + (size_t)f * 4, l + 3, 4 * sizeof *l);
            if (ch && ch->mNumScalingKeys) {
                const double u = segment(ch, 2, ch->mNumScalingKeys, tick, &at[2]);
                const unsigned b = at[2] + 1 < ch->mNumScalingKeys ? at[2] + 1 : at[2];
                lerp3(&ch->mScalingKeys[at[2]].mValue, &ch->mScalingKeys[b].mValue, u, v);
            } else
                memcpy(v, l + 7, 3 * sizeof *v);
            for (int a = 0; a < 3; a++)
                clip_scl_channel(clip, j, a)[f] = v[a];
        }
    }
    for (int f = 0; !rc && f < clip->frame_count; f++)
        for (int j = 0; j < joints; j++) {
            const int p = rig->parents[j], g = p >= 0 ? rig->parents[p] : -1;
            for (int a = 0; a < 3; a++)
                world_scale[j * 3 + a] = clip_scl_channel(clip, j, a)[f] * (p >= 0 ? world_scale[p * 3 + a] : 1);
            if (g < 0)
                continue;
            const double *s = world_scale + g * 3;
            for (int a = 0; a < 3; a++)
                clip_pos_channel(clip, j, a)[f] *= s[a];
            const double lo = fmin(fmin(fabs(s[0]), fabs(s[1])), fabs(s[2])), hi = fmax(fmax(fabs(s[0]), fabs(s[1])), fabs(s[2]));
            if (hi > 0 && (hi - lo) / hi > worst_shear)
                worst_shear = (hi - lo) / hi;
        }
    /* rest offsets: the nodes' own translations, under their own scales */
    for (int j = 0; !rc && j < joints; j++) {
        const int p = rig->parents[j], g = p >= 0 ? rig->parents[p] : -1;
        for (int a = 0; a < 3; a++) {
            world_scale[j * 3 + a] = local[j * 10 + 7 + a] * (p >= 0 ? world_scale[p * 3 + a] : 1);
            rig->rest_offsets[j * 3 + a] = local[j * 10 + a] * (g >= 0 ? world_scale[g * 3 + a] : 1);
        }
    }
    for (int f = 0; !rc && f < clip->frame_count; f++)
        for (int j = 0; !rc && j < joints; j++)
            for (int a = 0; !rc && a < 3; a++)
                if (!isfinite(clip_pos_channel(clip, j, a)[f]) || fabs(clip_pos_channel(clip, j, a)[f]) > LIMIT_POSITION_M ||
                    !isfinite(clip_scl_channel(clip, j, a)[f])) {
                    rc = snprintf(err, err_size, "%s: joint '%s' at frame %d: a translation past %g m or a value not "
                                                 "finite (after the unit, %g m)",
                                  name, rig->names[j], f, LIMIT_POSITION_M, unit);
                }
    free(channel);
    free(local);
    free(world_scale);
    if (rc) {
        clip_free(clip);
        rig_free(rig);
        table_free(&t);
        return -1;
    }
    out->rig = rig;
    out->clip = clip;
    out->unit_m = unit;
    if (name_length(&an->mName))
        message_name(&an->mName, out->animation, sizeof out->animation);
    else
        snprintf(out->animation, sizeof out->animation, "#%d", which + 1);
    size_t w = 0;
    out->uneven_scale = worst_shear;
    if (worst_shear > 1e-6)
        w += (size_t)snprintf(out->warning + w, sizeof out->warning - w,
                              "%s: a joint two levels above another is scaled unevenly (by up to %.3g %% between "
                              "axes): the harness's forward kinematics reproduces its world positions only for even "
                              "scales; ",
                              name, worst_shear * 100);
    if (duplicates && w < sizeof out->warning)
        w += (size_t)snprintf(out->warning + w, sizeof out->warning - w,
                              "%s: %d channels name a node another channel already moves: the first kept; ", name,
                              duplicates);
    if (!(an->mTicksPerSecond > 0) && w < sizeof out->warning)
        w += (size_t)snprintf(out->warning + w, sizeof out->warning - w,
                              "%s: the animation does not say its ticks per second: 25 taken (assimp's default); ", name);
    if (w >= 2 && w < sizeof out->warning)
        out->warning[w - 2] = '\0';
    (void)skinned;
    table_free(&t);
    /* the extent, as the BVH importer's: rest offsets, roots left out */
    double *wp = malloc((size_t)joints * 3 * sizeof *wp);
    if (wp) {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int j = 0; j < joints; j++)
            for (int a = 0; a < 3; a++) {
                wp[j * 3 + a] = rig->rest_offsets[j * 3 + a] + (rig->parents[j] >= 0 ? wp[rig->parents[j] * 3 + a] : 0);
                if (rig->parents[j] >= 0) {
                    lo[a] = fmin(lo[a], wp[j * 3 + a]);
                    hi[a] = fmax(hi[a], wp[j * 3 + a]);
                }
            }
        for (int a = 0; a < 3; a++)
            if (hi[a] >= lo[a])
                out->extent_m = fmax(out->extent_m, hi[a] - lo[a]);
        free(wp);
    }
    return 0;
}

/* ---- files ---- */

static unsigned import_flags(void)
{
    return 0; /* no post-processing: no axis conversion, no global scale, the file's nodes as they are */
}

static int check_file(const char *path, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return snprintf(err, err_size, "%s: cannot open (no such file, or not readable)", path), -1;
    if (!S_ISREG(st.st_mode))
        return snprintf(err, err_size, "%s: not a regular file", path), -1;
    if ((unsigned long long)st.st_size > LIMIT_BVH_FILE_BYTES)
        return snprintf(err, err_size, "%s: %lld bytes (a scene file holds at most %llu)", path, (long long)st.st_size,
                        LIMIT_BVH_FILE_BYTES),
               -1;
    return 0;
}

int scene_load(const char *spec, const scene_options *o, scene_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    const char *animation;
    const char *body = strncmp(spec, PREFIX, strlen(PREFIX)) == 0 ? spec + strlen(PREFIX) : spec;
    const size_t n = path_length(body, &animation);
    char path[4096];
    if (n >= sizeof path)
        return snprintf(err, err_size, "a path of %zu bytes (at most %zu)", n, sizeof path - 1), -1;
    memcpy(path, body, n);
    path[n] = '\0';
    if (check_file(path, err, err_size) != 0)
        return -1;
    const struct aiScene *sc = aiImportFile(path, import_flags());
    if (!sc)
        return snprintf(err, err_size, "%s: assimp cannot read it: %s", path, aiGetErrorString()), -1;
    const int rc = scene_convert(sc, path, animation, o, out, err, err_size);
    aiReleaseImport(sc);
    return rc;
}

int scene_load_memory(const void *data, size_t size, const char *hint, const char *animation,
                      const scene_options *o, scene_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (size > LIMIT_BVH_FILE_BYTES || size > 0xFFFFFFFFu)
        return snprintf(err, err_size, "a .%s scene of %zu bytes (at most %llu)", hint, size, LIMIT_BVH_FILE_BYTES), -1;
    const struct aiScene *sc = aiImportFileFromMemory(data, (unsigned)size, import_flags(), hint);
    if (!sc)
        return snprintf(err, err_size, "a .%s scene: assimp cannot read it: %s", hint, aiGetErrorString()), -1;
    char name[64];
    snprintf(name, sizeof name, "a .%.20s scene in memory", hint);
    const int rc = scene_convert(sc, name, animation, o, out, err, err_size);
    aiReleaseImport(sc);
    return rc;
}

int scene_describe(const char *spec, scene_info *info, char *err, size_t err_size)
{
    memset(info, 0, sizeof *info);
    const char *animation;
    const char *body = strncmp(spec, PREFIX, strlen(PREFIX)) == 0 ? spec + strlen(PREFIX) : spec;
    const size_t n = path_length(body, &animation);
    char path[4096];
    if (n >= sizeof path)
        return snprintf(err, err_size, "a path of %zu bytes (at most %zu)", n, sizeof path - 1), -1;
    memcpy(path, body, n);
    path[n] = '\0';
    if (check_file(path, err, err_size) != 0)
        return -1;
    const struct aiScene *sc = aiImportFile(path, import_flags());
    if (!sc)
        return snprintf(err, err_size, "%s: assimp cannot read it: %s", path, aiGetErrorString()), -1;
    node_table t;
    int rc = 0;
    if (!sc->mRootNode)
        rc = snprintf(err, err_size, "%s: the scene has no root node", path);
    else if (table_build(sc->mRootNode, &t, path, err, err_size) != 0)
        rc = -1;
    if (rc == 0) {
        info->nodes = t.count;
        info->depth = t.depth;
        info->meshes = (int)sc->mNumMeshes;
        for (unsigned m = 0; m < sc->mNumMeshes && sc->mMeshes; m++)
            if (sc->mMeshes[m] && sc->mMeshes[m]->mNumBones) {
                info->skinned_meshes++;
                info->bones += (int)sc->mMeshes[m]->mNumBones;
            }
        metadata_text(sc->mMetaData, "SourceAsset_Format", info->format, sizeof info->format);
        info->unit_m = file_unit_m(sc);
        info->animation_count = (int)sc->mNumAnimations;
        info->animations = calloc((size_t)info->animation_count + 1, sizeof *info->animations);
        if (!info->animations)
            rc = snprintf(err, err_size, "out of memory");
        for (int a = 0; rc == 0 && a < info->animation_count && sc->mAnimations; a++) {
            const struct aiAnimation *an = sc->mAnimations[a];
            scene_animation_info *ai = &info->animations[a];
            if (!an)
                continue;
            message_name(&an->mName, ai->name, sizeof ai->name);
            ai->channels = (int)an->mNumChannels;
            double shortest = INFINITY, last = 0;
            for (unsigned c = 0; c < an->mNumChannels && an->mChannels; c++) {
                const struct aiNodeAnim *ch = an->mChannels[c];
                if (!ch)
                    continue;
                ai->keys += (int)(ch->mNumPositionKeys + ch->mNumRotationKeys + ch->mNumScalingKeys);
                for (int k = 0; k < 3; k++) {
                    const unsigned count = k == 0 ? ch->mNumPositionKeys : k == 1 ? ch->mNumRotationKeys : ch->mNumScalingKeys;
                    const bool present = k == 0 ? ch->mPositionKeys != NULL : k == 1 ? ch->mRotationKeys != NULL : ch->mScalingKeys != NULL;
                    for (unsigned i = 1; present && i < count; i++) {
                        const double d = key_time(ch, k, i) - key_time(ch, k, i - 1);
                        if (d > 0 && d < shortest)
                            shortest = d;
                    }
                    if (present && count)
                        last = fmax(last, key_time(ch, k, count - 1));
                }
            }
            const double tps = ticks_per_second(an);
            ai->seconds = (an->mDuration > 0 ? an->mDuration : last) / tps;
            ai->rate_hz = file_rate(shortest, tps);
        }
        if (rc == 0 && info->animation_count > 0 && sc->mAnimations[0]) {
            const struct aiAnimation *an = sc->mAnimations[0];
            char *moved = calloc((size_t)t.count, 1);
            for (unsigned c = 0; moved && c < an->mNumChannels && an->mChannels; c++)
                if (an->mChannels[c]) {
                    const int i = table_find(&t, &an->mChannels[c]->mNodeName);
                    if (i >= 0)
                        moved[i] = 1;
                }
            for (int i = 0; moved && i < t.count; i++) {
                info->animated_nodes += moved[i];
                info->linked_nodes += moved[i] && t.e[i].parent >= 0 && moved[t.e[i].parent];
            }
            free(moved);
            int joints = 0;
            mark_joints(sc, an, &t, &joints);
            info->joints = joints;
        }
        table_free(&t);
    }
    aiReleaseImport(sc);
    if (rc != 0)
        scene_info_free(info);
    return rc ? -1 : 0;
}

#endif
