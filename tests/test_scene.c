/* The assimp reader (generators/scene_import.h, issue 26): every test model that holds skeletal
 * animation imports, and its world positions are assimp's own (its node matrices multiplied down
 * the tree by its own matrix functions, at frames where every channel has a key); a BVH read by
 * assimp and by the harness's reader is the same clip in world space within 1e-6 m (the four
 * shared captures, when the data is there); a clip exported to glTF 2.0 and read back is the clip
 * within float32 rounding, squash and stretch included; bad scenes, built by hand, are refused
 * with messages (no animation, keys out of order, NaN, a tree past the depth limit, more joints,
 * frames or keys than the limits, a rate past the limit); a file with several animations takes one
 * by name or number.  Skipped, saying so, in a build without assimp or without its test models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/clip_diff.h"
#include "core/fk.h"
#include "core/limits.h"
#include "generators/clip_library.h"
#include "generators/scene_import.h"
#include "harness/report/gltf_export.h"

#define MODELS "/usr/share/assimp/models"

/* The test models that hold skeletal animation: sweeps/assimp_models.json's clips (one list, which
 * make assimp-models measures and this test imports), with the units that make them metres. */
#define SWEEP "sweeps/assimp_models.json"

static bool models_here(void)
{
    if (!scene_available()) {
        print_message("  skipped: %s\n", scene_missing());
        return false;
    }
    if (access(MODELS "/BVH/01_01.bvh", R_OK) != 0) {
        print_message("  skipped: no assimp test models in %s (apt-get install assimp-testmodels)\n", MODELS);
        return false;
    }
    return true;
}

/* The sweep's clips: spec and unit (0: the file's own); returns the count. */
#ifdef ANIMBENCH_HAVE_ASSIMP
static int sweep_clips(char (*spec)[512], double *unit, int max)
{
    FILE *f = fopen(SWEEP, "r");
    assert_non_null(f);
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    const cJSON *clips = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0), "clips"), *c;
    int count = 0;
    cJSON_ArrayForEach(c, clips)
    {
        if (count == max)
            break;
        snprintf(spec[count], 512, "%s", cJSON_GetObjectItem(c, "clip")->valuestring);
        const cJSON *u = cJSON_GetObjectItem(c, "unit_m");
        unit[count++] = u ? u->valuedouble : 0;
    }
    cJSON_Delete(root);
    return count;
}
#endif

#ifdef ANIMBENCH_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/scene.h>

/* T R S: the rotation matrix from assimp, its columns scaled (assimp 5.2.5's own
 * aiMatrix4FromScalingQuaternionPosition scales the rows instead, S R, which its aiDecomposeMatrix
 * does not invert: measured here, a scale (2, 1, 1) decomposes to (1, 2, 1)). */
static void compose(struct aiMatrix4x4 *m, const struct aiVector3D *s, const struct aiQuaternion *q,
                    const struct aiVector3D *p)
{
    struct aiMatrix3x3 r;
    aiMatrix3FromQuaternion(&r, q);
    *m = (struct aiMatrix4x4){r.a1 * s->x, r.a2 * s->y, r.a3 * s->z, p->x, r.b1 * s->x, r.b2 * s->y, r.b3 * s->z, p->y,
                              r.c1 * s->x, r.c2 * s->y, r.c3 * s->z, p->z, 0, 0, 0, 1};
}

/* assimp's world positions at tick `tick` from its own matrices: a channel's keys at that tick
 * exactly (the frame is skipped when a channel has none there), else the node's matrix. */
static bool assimp_world(const struct aiScene *sc, const struct aiAnimation *an, double tick, const anim_rig *rig,
                         double unit, double *world)
{
    /* depth first over the tree, a matrix stack */
    const struct aiNode *stack[300];
    struct aiMatrix4x4 mats[300];
    unsigned next[300];
    int top = 0;
    stack[0] = sc->mRootNode;
    next[0] = 0;
    aiIdentityMatrix4(&mats[0]);
    struct aiMatrix4x4 local;
    bool ok = true;
#define LOCAL_OF(node)                                                                                                   \
    do {                                                                                                                 \
        local = (node)->mTransformation;                                                                                 \
        for (unsigned c = 0; c < an->mNumChannels; c++) {                                                                \
            const struct aiNodeAnim *ch = an->mChannels[c];                                                              \
            if (strcmp(ch->mNodeName.data, (node)->mName.data) != 0)                                                     \
                continue;                                                                                                \
            struct aiVector3D s, p;                                                                                      \
            struct aiQuaternion q;                                                                                       \
            aiDecomposeMatrix(&(node)->mTransformation, &s, &q, &p);                                                     \
            int found = 0;                                                                                               \
            for (unsigned k = 0; k < ch->mNumPositionKeys; k++)                                                          \
                if (fabs(ch->mPositionKeys[k].mTime - tick) <= 1e-9 * fmax(1, tick))                                                                  \
                    p = ch->mPositionKeys[k].mValue, found |= 1;                                                         \
            for (unsigned k = 0; k < ch->mNumRotationKeys; k++)                                                          \
                if (fabs(ch->mRotationKeys[k].mTime - tick) <= 1e-9 * fmax(1, tick))                                                                  \
                    q = ch->mRotationKeys[k].mValue, found |= 2;                                                         \
            for (unsigned k = 0; k < ch->mNumScalingKeys; k++)                                                           \
                if (fabs(ch->mScalingKeys[k].mTime - tick) <= 1e-9 * fmax(1, tick))                                                                   \
                    s = ch->mScalingKeys[k].mValue, found |= 4;                                                          \
            if (((ch->mNumPositionKeys > 1) && !(found & 1)) || ((ch->mNumRotationKeys > 1) && !(found & 2)) ||          \
                ((ch->mNumScalingKeys > 1) && !(found & 4)))                                                             \
                ok = false;                                                                                              \
            if (ch->mNumPositionKeys == 1)                                                                               \
                p = ch->mPositionKeys[0].mValue;                                                                         \
            if (ch->mNumRotationKeys == 1)                                                                               \
                q = ch->mRotationKeys[0].mValue;                                                                         \
            if (ch->mNumScalingKeys == 1)                                                                                \
                s = ch->mScalingKeys[0].mValue;                                                                          \
            compose(&local, &s, &q, &p);                                                                                 \
            break;                                                                                                       \
        }                                                                                                                \
    } while (0)
    LOCAL_OF(sc->mRootNode);
    aiMultiplyMatrix4(&mats[0], &local);
    for (;;) {
        const struct aiNode *n = stack[top];
        const int j = rig_find_bone(rig, n->mName.data);
        if (next[top] == 0 && j >= 0) {
            world[j * 3] = mats[top].a4 * unit;
            world[j * 3 + 1] = mats[top].b4 * unit;
            world[j * 3 + 2] = mats[top].c4 * unit;
        }
        if (next[top] >= n->mNumChildren) {
            if (top-- == 0)
                break;
            continue;
        }
        const struct aiNode *child = n->mChildren[next[top]++];
        stack[top + 1] = child;
        next[top + 1] = 0;
        mats[top + 1] = mats[top];
        LOCAL_OF(child);
        aiMultiplyMatrix4(&mats[top + 1], &local);
        top++;
    }
#undef LOCAL_OF
    return ok;
}
#endif

/* Every skeletal test model imports, and at frames where every channel has a key its world
 * positions are assimp's: within 1e-5 of the skeleton's size (assimp's matrices are float32). */
static void test_models_against_assimp(void **state)
{
    (void)state;
    if (!models_here())
        return;
#ifdef ANIMBENCH_HAVE_ASSIMP
    static char spec[64][512];
    double units[64];
    const int files = sweep_clips(spec, units, 64);
    assert_true(files >= 20);
    int checked = 0;
    for (int i = 0; i < files; i++) {
        scene_result r;
        char err[1024];
        const scene_options o = {units[i], units[i] > 0, 0, false};
        if (scene_load(spec[i], &o, &r, err, sizeof err) != 0)
            fail_msg("%s: %s", spec[i], err);
        char path[512];
        snprintf(path, sizeof path, "%s", spec[i] + 7); /* without "assimp:" */
        char *hash = strchr(path + strlen(MODELS), '#');
        if (hash)
            *hash = '\0';
        const struct aiScene *sc = aiImportFile(path, 0);
        assert_non_null(sc);
        int which = 0;
        for (unsigned a = 0; hash && a < sc->mNumAnimations; a++)
            if (strcmp(sc->mAnimations[a]->mName.data, r.animation) == 0)
                which = (int)a;
        const struct aiAnimation *an = sc->mAnimations[which];
        const double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25;
        const int nb = r.rig->bone_count;
        double *ours = malloc((size_t)nb * 7 * sizeof *ours), *theirs = malloc((size_t)nb * 3 * sizeof *theirs);
        double worst = 0, size = fmax(r.extent_m, 0.01);
        int compared = 0;
        for (int f = 0; f < r.clip->frame_count && compared < 40; f += 1 + r.clip->frame_count / 40) {
            const double tick = (double)f * tps / r.clip->fps;
            if (!assimp_world(sc, an, tick, r.rig, r.unit_m, theirs))
                continue;
            fk_frame(r.clip, f, ours, ours + nb * 3);
            for (int j = 0; j < nb; j++)
                for (int a = 0; a < 3; a++)
                {
                    worst = fmax(worst, fabs(ours[j * 3 + a] - theirs[j * 3 + a]));
                }
            compared++;
        }
        print_message("  %-40s %3d joints, %5d frames at %6.4g fps: %2d frames against assimp's matrices, "
                      "%.3g m apart at most (skeleton %.3g m)%s%s\n",
                      spec[i] + 7 + strlen(MODELS) + 1, nb, r.clip->frame_count, r.clip->fps, compared, worst, r.extent_m,
                      r.warning[0] ? "; " : "", r.warning);
        checked += compared > 0;
        /* an uneven scale two levels up is what the harness's FK cannot hold: it costs up to that share
         * of the skeleton's size (the clip says so in its warning) */
        if (!(worst <= (1e-5 + 2 * r.uneven_scale) * size + 1e-7))
            fail_msg("%s: world positions %.3g m from assimp's", spec[i], worst);
        free(ours);
        free(theirs);
        aiReleaseImport(sc);
        scene_result_free(&r);
    }
    /* a file whose channels never all have a key at one frame cannot be checked this way */
    print_message("  %d of %d files checked against assimp's matrices\n", checked, files);
    assert_true(checked >= files - 2);
#endif
}

/* The shared captures through assimp and through the harness's BVH reader: the same clip in world
 * space, within 1e-6 m (assimp keeps float32), the joints assimp adds (end sites) named. */
static void test_bvh_two_readers(void **state)
{
    (void)state;
    if (!scene_available()) {
        print_message("  skipped: %s\n", scene_missing());
        return;
    }
    static const struct {
        const char *file;
        double unit_m;
    } CAPTURES[] = {{"bvh/cmu_01_01_mb.bvh", 0.056444},
                    {"bvh/cmu_01_03_mb.bvh", 0.056444},
                    {"bvh/cmu_jumping_jacks_30hz.bvh", 0.056444},
                    {"bvh/fair1_zombie_30hz.bvh", 0.04}};
    for (size_t i = 0; i < sizeof CAPTURES / sizeof *CAPTURES; i++) {
        char ours_name[512], theirs_name[520], err[1024];
        snprintf(ours_name, sizeof ours_name, "data:%s", CAPTURES[i].file);
        snprintf(theirs_name, sizeof theirs_name, "assimp:data:%s", CAPTURES[i].file);
        clip_params p = CLIP_DEFAULTS;
        p.unit_m = CAPTURES[i].unit_m;
        p.unit_given = true;
        clip_source *a = clip_source_load(ours_name, &p, err, sizeof err);
        if (!a) {
            print_message("  %s: skipped (%s)\n", CAPTURES[i].file, err);
            continue;
        }
        clip_source *b = clip_source_load(theirs_name, &p, err, sizeof err);
        if (!b)
            fail_msg("%s through assimp: %s", CAPTURES[i].file, err);
        clip_diff_result d;
        if (clip_diff(a->clip, b->clip, &d, err, sizeof err) != 0)
            fail_msg("%s: %s", CAPTURES[i].file, err);
        print_message("  %-34s %d frames, %d joints shared, %d only assimp's: max %.3g m (%s, frame %d), "
                      "mean %.3g m, %.3g deg\n",
                      CAPTURES[i].file, d.frames, d.shared, d.only_b, d.max_m, a->rig->names[d.max_joint_a],
                      d.max_frame, d.mean_m, d.max_deg);
        assert_int_equal(d.frames, a->clip->frame_count);
        assert_int_equal(a->clip->frame_count, b->clip->frame_count);
        assert_int_equal(d.shared, a->rig->bone_count);
        assert_int_equal(d.only_a, 0);
        if (!(d.max_m <= 1e-6))
            fail_msg("%s: the two readers differ by %.3g m", CAPTURES[i].file, d.max_m);
        clip_diff_free(&d);
        clip_source_free(a);
        clip_source_free(b);
    }
}

/* Export to glTF 2.0, read back through assimp: the clip within float32 rounding. */
static void test_gltf_round_trip(void **state)
{
    (void)state;
    if (!scene_available()) {
        print_message("  skipped: %s\n", scene_missing());
        return;
    }
    static const char *const CLIPS[] = {"walk", "jump", "mocap", "random:bones=30,frames=50,branching=2,seed=9"};
    for (size_t i = 0; i < sizeof CLIPS / sizeof *CLIPS; i++) {
        char err[1024];
        clip_params p = CLIP_DEFAULTS;
        clip_source *src = clip_source_load(CLIPS[i], &p, err, sizeof err);
        assert_non_null(src);
        char path[64];
        snprintf(path, sizeof path, "/tmp/animbench_test_%d_%zu.gltf", (int)getpid(), i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(export_gltf(src->clip, src->name, f), 0);
        fclose(f);
        clip_source *back = clip_source_load(path, &p, err, sizeof err);
        if (!back)
            fail_msg("%s: %s", CLIPS[i], err);
        clip_diff_result d;
        if (clip_diff(src->clip, back->clip, &d, err, sizeof err) != 0)
            fail_msg("%s: %s", CLIPS[i], err);
        print_message("  %-44s %4d frames, %2d joints: max %.3g m, %.3g deg\n", CLIPS[i], d.frames, d.shared, d.max_m,
                      d.max_deg);
        assert_int_equal(back->clip->frame_count, src->clip->frame_count);
        assert_int_equal(d.shared, src->rig->bone_count);
        assert_true(d.only_a == 0 && d.only_b == 0);
        if (!(d.max_m <= 1e-5 && d.max_deg <= 1e-3))
            fail_msg("%s: %.3g m, %.3g deg after the round trip", CLIPS[i], d.max_m, d.max_deg);
        clip_diff_free(&d);
        clip_source_free(back);
        clip_source_free(src);
        unlink(path);
    }
}

/* Several animations: by name and by number; an unknown one is named with the ones there are. */
static void test_animations_by_name(void **state)
{
    (void)state;
    if (!models_here())
        return;
    scene_result r;
    char err[1024];
    const scene_options o = {0.01, true, 0, false};
    assert_int_equal(scene_load(MODELS "/X/Testwuson.X#Wuson_Walk", &o, &r, err, sizeof err), 0);
    assert_string_equal(r.animation, "Wuson_Walk");
    const int walk_frames = r.clip->frame_count;
    scene_result_free(&r);
    assert_int_equal(scene_load(MODELS "/X/Testwuson.X#2", &o, &r, err, sizeof err), 0);
    assert_int_equal(r.clip->frame_count, walk_frames);
    scene_result_free(&r);
    assert_int_equal(scene_load(MODELS "/X/Testwuson.X#Jump", &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "no animation 'Jump'"));
    assert_non_null(strstr(err, "#1 'Wuson_Run'"));
    /* the bind pose: one pose, not an animation */
    assert_int_equal(scene_load(MODELS "/X/Testwuson.X#3", &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "frames"));
    /* --fps resamples */
    const scene_options at60 = {0.01, true, 60, true};
    assert_int_equal(scene_load(MODELS "/X/Testwuson.X#2", &at60, &r, err, sizeof err), 0);
    assert_true(r.clip->fps == 60 && r.clip->frame_count > walk_frames);
    scene_result_free(&r);
}

/* assimp reading from memory gives the clip it reads from the file. */
static void test_from_memory(void **state)
{
    (void)state;
    if (!models_here())
        return;
    static const struct {
        const char *file, *hint;
    } FILES[] = {{"Collada/box_nested_animation.dae", "dae"}, {"X/anim_test.x", "x"}, {"FBX/huesitos.fbx", "fbx"},
                 {"BVH/Boxing_Toes.bvh", "bvh"}};
    for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
        char path[512], err[1024];
        snprintf(path, sizeof path, "%s/%s", MODELS, FILES[i].file);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        const long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *bytes = malloc((size_t)n);
        assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
        fclose(f);
        const scene_options o = {0.01, true, 0, false};
        scene_result a, b;
        assert_int_equal(scene_load(path, &o, &a, err, sizeof err), 0);
        if (scene_load_memory(bytes, (size_t)n, FILES[i].hint, NULL, &o, &b, err, sizeof err) != 0)
            fail_msg("%s from memory: %s", FILES[i].file, err);
        clip_diff_result d;
        assert_int_equal(clip_diff(a.clip, b.clip, &d, err, sizeof err), 0);
        assert_true(d.max_m == 0 && d.only_a == 0 && d.only_b == 0);
        clip_diff_free(&d);
        scene_result_free(&a);
        scene_result_free(&b);
        free(bytes);
    }
}

#ifdef ANIMBENCH_HAVE_ASSIMP
/* A scene by hand: a chain of `depth` nodes under a root, each moved by a channel of `keys` keys. */
typedef struct hand_scene {
    struct aiScene scene;
    struct aiNode *nodes;
    struct aiNode **child_ptr;
    struct aiAnimation anim, *anim_ptr;
    struct aiNodeAnim *channels, **channel_ptr;
    struct aiVectorKey *pos;
    struct aiQuatKey *rot;
} hand_scene;

static void set_name(struct aiString *s, const char *text)
{
    s->length = (uint32_t)strlen(text);
    memcpy(s->data, text, s->length + 1);
}

static hand_scene *hand_make(int depth, int keys, double tps)
{
    hand_scene *h = calloc(1, sizeof *h);
    h->nodes = calloc((size_t)depth + 1, sizeof *h->nodes);
    h->child_ptr = calloc((size_t)depth + 1, sizeof *h->child_ptr);
    h->channels = calloc((size_t)depth, sizeof *h->channels);
    h->channel_ptr = calloc((size_t)depth, sizeof *h->channel_ptr);
    h->pos = calloc((size_t)depth * (size_t)keys, sizeof *h->pos);
    h->rot = calloc((size_t)depth * (size_t)keys, sizeof *h->rot);
    for (int i = 0; i <= depth; i++) {
        struct aiNode *n = &h->nodes[i];
        char name[32];
        snprintf(name, sizeof name, i ? "joint%d" : "root", i);
        set_name(&n->mName, name);
        aiIdentityMatrix4(&n->mTransformation);
        n->mTransformation.b4 = 0.1f;
        if (i < depth) {
            h->child_ptr[i] = &h->nodes[i + 1];
            n->mNumChildren = 1;
            n->mChildren = &h->child_ptr[i];
        }
        if (i > 0)
            n->mParent = &h->nodes[i - 1];
    }
    for (int c = 0; c < depth; c++) {
        struct aiNodeAnim *ch = &h->channels[c];
        h->channel_ptr[c] = ch;
        set_name(&ch->mNodeName, h->nodes[c + 1].mName.data);
        ch->mNumPositionKeys = ch->mNumRotationKeys = (unsigned)keys;
        ch->mPositionKeys = h->pos + (size_t)c * keys;
        ch->mRotationKeys = h->rot + (size_t)c * keys;
        for (int k = 0; k < keys; k++) {
            ch->mPositionKeys[k].mTime = ch->mRotationKeys[k].mTime = k;
            ch->mPositionKeys[k].mValue.y = 0.1f;
            ch->mRotationKeys[k].mValue.w = 1;
            ch->mRotationKeys[k].mValue.x = 0.01f * k;
        }
    }
    set_name(&h->anim.mName, "by hand");
    h->anim.mDuration = keys - 1;
    h->anim.mTicksPerSecond = tps;
    h->anim.mNumChannels = (unsigned)depth;
    h->anim.mChannels = h->channel_ptr;
    h->anim_ptr = &h->anim;
    h->scene.mRootNode = &h->nodes[0];
    h->scene.mNumAnimations = 1;
    h->scene.mAnimations = &h->anim_ptr;
    return h;
}

static void hand_free(hand_scene *h)
{
    free(h->nodes);
    free(h->child_ptr);
    free(h->channels);
    free(h->channel_ptr);
    free(h->pos);
    free(h->rot);
    free(h);
}

static void refused(hand_scene *h, const char *expect)
{
    scene_result r;
    char err[1024] = "";
    const scene_options o = {1, true, 0, false};
    if (scene_convert(&h->scene, "hand.fbx", NULL, &o, &r, err, sizeof err) == 0)
        fail_msg("accepted; expected a message with '%s'", expect);
    if (!strstr(err, expect))
        fail_msg("the message '%s' does not say '%s'", err, expect);
    assert_non_null(strstr(err, "hand.fbx"));
    assert_null(r.clip);
}
#endif

/* Bad scenes, each refused with a message naming the file and the problem. */
static void test_bad_scenes(void **state)
{
    (void)state;
    if (!scene_available()) {
        print_message("  skipped: %s\n", scene_missing());
        return;
    }
#ifdef ANIMBENCH_HAVE_ASSIMP
    scene_result r;
    char err[1024];
    const scene_options o = {1, true, 0, false};
    hand_scene *h = hand_make(5, 10, 30);
    assert_int_equal(scene_convert(&h->scene, "hand.fbx", NULL, &o, &r, err, sizeof err), 0);
    assert_int_equal(r.rig->bone_count, 6);
    assert_int_equal(r.clip->frame_count, 10);
    assert_true(r.clip->fps == 30);
    scene_result_free(&r);
    h->scene.mNumAnimations = 0;
    refused(h, "no animation");
    h->scene.mNumAnimations = 1;
    h->channels[2].mRotationKeys[4].mTime = 2.5; /* before key 3's */
    refused(h, "out of time order");
    h->channels[2].mRotationKeys[4].mTime = 4;
    h->channels[1].mPositionKeys[3].mValue.x = NAN;
    refused(h, "not finite");
    h->channels[1].mPositionKeys[3].mValue.x = 0;
    h->channels[1].mRotationKeys[3].mValue = (struct aiQuaternion){0, 0, 0, 0};
    refused(h, "quaternion is 0");
    h->channels[1].mRotationKeys[3].mValue.w = 1;
    h->anim.mDuration = 1e12; /* a clip past the frame limit */
    refused(h, "frames");
    h->anim.mDuration = 9;
    h->anim.mTicksPerSecond = 1e9; /* ticks past 240 a second: the rate of the keys, 1e9 a second, past the limit */
    refused(h, "frames a second");
    h->anim.mTicksPerSecond = 30;
    h->nodes[3].mTransformation.a1 = INFINITY;
    refused(h, "not finite");
    hand_free(h);
    /* a tree past the depth limit */
    h = hand_make(LIMIT_DEPTH_MAX + 4, 3, 30);
    refused(h, "deep");
    hand_free(h);
    /* more joints than the limit: a root with many animated children */
    h = hand_make(1, 3, 30);
    const int wide = LIMIT_JOINTS_MAX + 1;
    struct aiNode *kids = calloc((size_t)wide, sizeof *kids);
    struct aiNode **kid_ptr = calloc((size_t)wide, sizeof *kid_ptr);
    struct aiNodeAnim *chans = calloc((size_t)wide, sizeof *chans), **chan_ptr = calloc((size_t)wide, sizeof *chan_ptr);
    struct aiVectorKey one = {0, {0, 0, 0}};
    for (int i = 0; i < wide; i++) {
        char name[32];
        snprintf(name, sizeof name, "kid%d", i);
        set_name(&kids[i].mName, name);
        aiIdentityMatrix4(&kids[i].mTransformation);
        kid_ptr[i] = &kids[i];
        set_name(&chans[i].mNodeName, name);
        chans[i].mNumPositionKeys = 1;
        chans[i].mPositionKeys = &one;
        chan_ptr[i] = &chans[i];
    }
    h->nodes[0].mNumChildren = (unsigned)wide;
    h->nodes[0].mChildren = kid_ptr;
    h->anim.mNumChannels = (unsigned)wide;
    h->anim.mChannels = chan_ptr;
    h->anim.mDuration = 2;
    refused(h, "joints");
    free(kids);
    free(kid_ptr);
    free(chans);
    free(chan_ptr);
    hand_free(h);
    /* files: missing, not a scene, a scene without animation */
    assert_int_equal(scene_load("/nonexistent/x.fbx", &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
    char path[64];
    snprintf(path, sizeof path, "/tmp/animbench_test_%d.gltf", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs("{\"asset\": {\"version\": \"2.0\"}, \"scenes\": [{\"nodes\": [0]}], \"nodes\": [{\"name\": \"a\"}]}", f);
    fclose(f);
    assert_int_equal(scene_load(path, &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "no animation"));
    f = fopen(path, "w");
    fputs("this is not glTF", f);
    fclose(f);
    assert_int_equal(scene_load(path, &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "assimp cannot read it"));
    unlink(path);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_against_assimp), cmocka_unit_test(test_bvh_two_readers),
        cmocka_unit_test(test_gltf_round_trip),       cmocka_unit_test(test_animations_by_name),
        cmocka_unit_test(test_from_memory),           cmocka_unit_test(test_bad_scenes),
    };
    return cmocka_run_group_tests_name("scene", tests, NULL, NULL);
}
