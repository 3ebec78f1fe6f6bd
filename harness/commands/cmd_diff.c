/* `animbench diff A B`: two clips in world space over the joints they share by name (core/clip_diff.h),
 * and the joints only one of them has; `animbench scene FILE`: what a scene file holds, as the
 * assimp reader sees it (generators/scene_import.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clip_diff.h"
#include "generators/clip_library.h"
#include "generators/scene_import.h"
#include "harness/commands/cli_flags.h"
#include "harness/commands/commands.h"

#define DIFF_USAGE                                                                                         \
    "usage: animbench diff A B [--within M] " CLI_CLIP_FLAGS_USAGE "\n"                                      \
    "  Two clips (any clip name: a .bvh, a scene file, assimp:FILE, walk, ...) frame by frame in world\n"    \
    "  space over the joints they share by name: the largest and mean distance between their positions\n"  \
    "  and where, the largest angle between their rotations, and the joints only one of them has.  The\n"   \
    "  clip flags apply to both.  --within M: exit status 3 when the largest distance is over M metres.\n"

static void list_joints(const char *what, const anim_rig *rig, const int *joints, int n)
{
    if (n == 0)
        return;
    printf("only in %s: %d joint%s:", what, n, n == 1 ? "" : "s");
    for (int i = 0; i < n && i < 12; i++)
        printf(" %s", rig->names[joints[i]]);
    printf("%s\n", n > 12 ? " ..." : "");
}

int cmd_diff(int argc, char **argv)
{
    if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        printf("%s", DIFF_USAGE);
        return 0;
    }
    if (argc < 2 || strncmp(argv[0], "--", 2) == 0 || strncmp(argv[1], "--", 2) == 0) {
        fprintf(stderr, "animbench diff: needs two clips first\n%s", DIFF_USAGE);
        return 2;
    }
    clip_params cp = CLIP_DEFAULTS;
    double within = -1;
    const cli_option options[] = {{"--within", CLI_REAL, &within, 0, INFINITY, 0}};
    const int parsed = cli_parse("diff", argc - 2, argv + 2, options, 1, &cp, DIFF_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    char err[1024];
    clip_source *a = clip_source_load(argv[0], &cp, err, sizeof err);
    if (!a) {
        fprintf(stderr, "animbench diff: %s\n", err);
        return 2;
    }
    clip_source *b = clip_source_load(argv[1], &cp, err, sizeof err);
    if (!b) {
        fprintf(stderr, "animbench diff: %s\n", err);
        clip_source_free(a);
        return 2;
    }
    for (int k = 0; k < 2; k++) {
        const clip_source *s = k ? b : a;
        if (s->warning[0])
            fprintf(stderr, "animbench diff: warning: %s\n", s->warning);
    }
    clip_diff_result r;
    int rc = 0;
    if (clip_diff(a->clip, b->clip, &r, err, sizeof err) != 0) {
        fprintf(stderr, "animbench diff: %s and %s: %s\n", a->name, b->name, err);
        rc = 1;
    } else {
        printf("A %s: %d frames at %g fps, %d joints\n", a->name, a->clip->frame_count, a->clip->fps,
               a->rig->bone_count);
        printf("B %s: %d frames at %g fps, %d joints\n", b->name, b->clip->frame_count, b->clip->fps,
               b->rig->bone_count);
        if (a->clip->frame_count != b->clip->frame_count)
            printf("frames: %d compared (the clips have %d and %d)\n", r.frames, a->clip->frame_count,
                   b->clip->frame_count);
        printf("shared joints: %d\n", r.shared);
        printf("world position: max %.9g m (%s, frame %d), mean %.9g m\n", r.max_m, a->rig->names[r.max_joint_a],
               r.max_frame, r.mean_m);
        printf("world rotation: max %.9g deg (%s, frame %d)\n", r.max_deg, a->rig->names[r.max_deg_joint_a],
               r.max_deg_frame);
        list_joints("A", a->rig, r.only_a_joints, r.only_a);
        list_joints("B", b->rig, r.only_b_joints, r.only_b);
        if (within >= 0 && !(r.max_m <= within)) {
            printf("over %g m: the clips differ\n", within);
            rc = 3;
        }
        clip_diff_free(&r);
    }
    clip_source_free(a);
    clip_source_free(b);
    return rc;
}

#define SCENE_USAGE                                                                                        \
    "usage: animbench scene FILE\n"                                                                          \
    "  What a scene file (FBX, glTF 2.0, COLLADA, ...; assimp:FILE for any format assimp reads) holds as\n"  \
    "  the harness's assimp reader sees it: nodes, skins, the unit it would apply, and each animation with\n" \
    "  its name, length, channels, keys and the rate it would be sampled at (FILE#N or FILE#NAME takes one).\n"

int cmd_scene(int argc, char **argv)
{
    if (argc != 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        fprintf(argc == 1 ? stdout : stderr, "%s", SCENE_USAGE);
        return argc == 1 ? 0 : 2;
    }
    char name[4096], err[1024];
    clip_resolve(argv[0], name, sizeof name);
    scene_info info;
    if (scene_describe(name, &info, err, sizeof err) != 0) {
        fprintf(stderr, "animbench scene: %s\n", err);
        return 2;
    }
    printf("%s\nformat: %s\n", strncmp(name, "assimp:", 7) == 0 ? name + 7 : name,
           info.format[0] ? info.format : "(assimp does not name its importer)");
    printf("nodes: %d, %d deep; meshes: %d, %d with a skin (%d bones); unit %g m (without --unit-m)\n", info.nodes,
           info.depth, info.meshes, info.skinned_meshes, info.bones, info.unit_m);
    printf("animations: %d%s\n", info.animation_count,
           info.animation_count ? "" : " (nothing to measure: the harness needs an animation)");
    for (int i = 0; i < info.animation_count; i++) {
        const scene_animation_info *a = &info.animations[i];
        printf("  #%d %-28s %9.4g s, %4d channels, %7d keys, sampled at %g fps\n", i + 1,
               a->name[0] ? a->name : "(no name)", a->seconds, a->channels, a->keys, a->rate_hz);
    }
    if (info.animation_count) {
        printf("the first animation moves %d nodes, %d of them under another it moves\n", info.animated_nodes,
               info.linked_nodes);
        printf("the first animation's rig: %d joints (%s)\n", info.joints,
               info.bones ? "the skins' bones and their ancestors" : "the animated nodes and their ancestors");
        printf("skeletal: %s\n", info.bones > 0 || info.linked_nodes >= 2 ? "yes (a skin, or a tree of animated nodes)"
                                                                           : "no (a camera's or an object's animation)");
    }
    scene_info_free(&info);
    return 0;
}
