/* libFuzzer target for the assimp reader's conversion (generators/scene_import.c, scene_convert):
 * any bytes, read as a description of an assimp scene (a node tree with transforms and names, an
 * animation with channels, keys, times, ticks per second and a length, and meshes with bones), must
 * give a message or a clip within the limits, whole.  The scene is built here from the bytes, as
 * assimp's importers build theirs, so that every field the conversion reads is hostile: NaN and
 * infinite values, keys out of order, cycles in the tree, names without their terminator, counts
 * that say more than the arrays hold.  assimp's own parsers are not fuzzed here: they are Debian's
 * library, neither built nor instrumented by us, and a first version of this target that handed
 * mutated files to aiImportFileFromMemory found, within a minute, assimp 5.2.5 spending more than
 * 20 s inside its parser (BaseImporter::ReadFile) and leaking on malformed input; reading from
 * memory is tested on the real test models instead (tests/test_scene.c).
 * AddressSanitizer and UndefinedBehaviorSanitizer watch, under libFuzzer's -rss_limit_mb. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generators/scene_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef ANIMBENCH_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/scene.h>

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t u8(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static float f32(reader *r)
{
    const uint8_t kind = u8(r);
    if (kind < 16) { /* a raw bit pattern: NaN, infinities, denormals */
        uint32_t bits = (uint32_t)u8(r) | (uint32_t)u8(r) << 8 | (uint32_t)u8(r) << 16 | (uint32_t)u8(r) << 24;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    return ((int)u8(r) - 128) / 32.0f;
}

#define MAX_NODES 64
#define MAX_CHANNELS 16
#define MAX_KEYS 64

static void name_of(reader *r, struct aiString *s)
{
    const uint8_t len = u8(r);
    s->length = len & 0x80 ? 5000u : (uint32_t)(len & 15); /* sometimes a length past MAXLEN */
    for (int i = 0; i < 8; i++)
        s->data[i] = (char)('a' + u8(r) % 8); /* few letters: names collide, channels find nodes */
    if (!(len & 0x40))
        s->data[len & 7] = '\0';
}

static void convert_described(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    static struct aiNode nodes[MAX_NODES];
    static struct aiNode *children[MAX_NODES][4];
    static struct aiNodeAnim channels[MAX_CHANNELS], *channel_ptr[MAX_CHANNELS];
    static struct aiVectorKey pos[MAX_CHANNELS][MAX_KEYS], scl[MAX_CHANNELS][MAX_KEYS];
    static struct aiQuatKey rot[MAX_CHANNELS][MAX_KEYS];
    static struct aiMesh mesh, *mesh_ptr;
    static struct aiBone bones[8], *bone_ptr[8];
    memset(nodes, 0, sizeof nodes);
    memset(children, 0, sizeof children);
    memset(channels, 0, sizeof channels);
    memset(&mesh, 0, sizeof mesh);
    memset(bones, 0, sizeof bones);
    const int n = 1 + u8(&r) % MAX_NODES;
    for (int i = 0; i < n; i++) {
        struct aiNode *node = &nodes[i];
        name_of(&r, &node->mName);
        float *m = &node->mTransformation.a1;
        const uint8_t shape = u8(&r);
        for (int k = 0; k < 16; k++) /* identity, a translation, or anything */
            m[k] = shape < 128 ? (k % 5 == 0 ? 1.0f : 0.0f) : f32(&r);
        if (shape < 128)
            node->mTransformation.b4 = f32(&r);
        if (i > 0) { /* a parent before it (or, now and then, any node: a cycle) */
            const uint8_t b = u8(&r);
            const int parent = b & 0x80 ? b % n : b % i;
            struct aiNode *p = &nodes[parent];
            if (p->mNumChildren < 4) {
                children[parent][p->mNumChildren++] = node;
                p->mChildren = children[parent];
            }
            node->mParent = p;
        }
    }
    const int nc = u8(&r) % (MAX_CHANNELS + 1);
    for (int c = 0; c < nc; c++) {
        struct aiNodeAnim *ch = &channels[c];
        channel_ptr[c] = ch;
        name_of(&r, &ch->mNodeName);
        const unsigned counts[3] = {u8(&r) % (MAX_KEYS + 1), u8(&r) % (MAX_KEYS + 1), u8(&r) % (MAX_KEYS + 1)};
        ch->mNumPositionKeys = counts[0];
        ch->mNumRotationKeys = counts[1];
        ch->mNumScalingKeys = counts[2];
        ch->mPositionKeys = (u8(&r) & 7) == 0 ? NULL : pos[c]; /* now and then a count with no keys */
        ch->mRotationKeys = (u8(&r) & 7) == 0 ? NULL : rot[c];
        ch->mScalingKeys = (u8(&r) & 7) == 0 ? NULL : scl[c];
        double t = 0;
        for (unsigned k = 0; k < MAX_KEYS; k++) {
            const uint8_t step = u8(&r);
            t += step == 255 ? -1.0 : step == 254 ? (double)f32(&r) : step % 4; /* backwards, anything, or ahead */
            pos[c][k] = (struct aiVectorKey){t, {f32(&r), f32(&r), f32(&r)}};
            scl[c][k] = (struct aiVectorKey){t, {1 + f32(&r), 1, 1}};
            rot[c][k] = (struct aiQuatKey){t, {1 + f32(&r), f32(&r), f32(&r), f32(&r)}};
        }
    }
    const int nb = u8(&r) % 9;
    for (int b = 0; b < nb; b++) {
        name_of(&r, &bones[b].mName);
        bone_ptr[b] = &bones[b];
    }
    mesh.mNumBones = (unsigned)nb;
    mesh.mBones = nb ? bone_ptr : NULL;
    mesh_ptr = &mesh;
    struct aiAnimation anim;
    memset(&anim, 0, sizeof anim);
    struct aiAnimation *anim_ptr = &anim;
    name_of(&r, &anim.mName);
    const uint8_t timing = u8(&r);
    anim.mDuration = timing & 1 ? (double)f32(&r) * 64 : (double)(timing >> 1);
    anim.mTicksPerSecond = timing & 2 ? (double)f32(&r) * 100 : 30;
    anim.mNumChannels = (unsigned)nc;
    anim.mChannels = nc ? channel_ptr : NULL;
    struct aiScene scene;
    memset(&scene, 0, sizeof scene);
    scene.mRootNode = &nodes[0];
    scene.mNumAnimations = u8(&r) % 4 == 0 ? 0 : 1;
    scene.mAnimations = &anim_ptr;
    scene.mNumMeshes = nb ? 1 : 0;
    scene.mMeshes = &mesh_ptr;
    const scene_options o = {1, true, (r.n && u8(&r) < 16) ? (double)f32(&r) * 100 : 0, false};
    scene_options opt = o;
    opt.fps_given = opt.fps != 0;
    scene_result out;
    char err[1024];
    if (scene_convert(&scene, "fuzz.fbx", NULL, &opt, &out, err, sizeof err) != 0) {
        if (!err[0] || out.clip)
            abort(); /* a refusal always says why, and leaves nothing */
        return;
    }
    /* a clip must be whole and finite */
    const size_t samples = (size_t)out.rig->bone_count * (size_t)out.clip->frame_count;
    for (size_t i = 0; i < samples * 3; i++)
        if (!isfinite(out.clip->pos[i]) || !isfinite(out.clip->scl[i]))
            abort();
    for (size_t i = 0; i < samples * 4; i++)
        if (!isfinite(out.clip->rot[i]))
            abort();
    for (int j = 0; j < out.rig->bone_count; j++)
        if (out.rig->parents[j] >= j)
            abort(); /* parents before children */
    scene_result_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    convert_described(data, size);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    return 0;
}
#endif
