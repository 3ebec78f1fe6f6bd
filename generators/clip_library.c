#include "generators/clip_library.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/text_file.h"
#include "generators/bvh.h"
#include "generators/random_clip.h"
#include "generators/scene_import.h"
#include "generators/study_rig.h"

const char *const STUDY_CLIP_NAMES[] = {"walk", "jump", "mocap", NULL};

const char *clip_data_folder(void)
{
    const char *env = getenv("ANIMBENCH_DATA");
    return env && env[0] ? env : "../shared/data";
}

void clip_resolve(const char *name, char *out, size_t n)
{
    if (strncmp(name, "data:", 5) == 0)
        snprintf(out, n, "%s/%s", clip_data_folder(), name + 5);
    else if (strncmp(name, "assimp:data:", 12) == 0) /* a shared file, through assimp */
        snprintf(out, n, "assimp:%s/%s", clip_data_folder(), name + 12);
    else
        snprintf(out, n, "%s", name);
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t clip_hash(const anim_clip *c)
{
    const anim_rig *rig = c->rig;
    const size_t n = (size_t)rig->bone_count * (size_t)c->frame_count;
    uint64_t h = 14695981039346656037ull;
    h = fnv1a(h, &c->frame_count, sizeof c->frame_count);
    h = fnv1a(h, &c->fps, sizeof c->fps);
    h = fnv1a(h, rig->parents, (size_t)rig->bone_count * sizeof *rig->parents);
    h = fnv1a(h, rig->rest_offsets, (size_t)rig->bone_count * 3 * sizeof *rig->rest_offsets);
    h = fnv1a(h, c->pos, n * 3 * sizeof *c->pos);
    h = fnv1a(h, c->rot, n * 4 * sizeof *c->rot);
    h = fnv1a(h, c->scl, n * 3 * sizeof *c->scl);
    return h;
}

void clip_source_free(clip_source *s)
{
    if (!s)
        return;
    free(s->jitter);
    clip_free(s->clip);
    rig_free(s->rig);
    free(s);
}

static int clip_is_folder(const char *name);

clip_source *clip_source_load(const char *spec, const clip_params *params, char *err, size_t err_size)
{
    char name[4096];
    clip_resolve(spec, name, sizeof name);
    clip_source *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    snprintf(s->name, sizeof s->name, "%.*s", (int)sizeof s->name - 1, name);
    s->params = *params;
    if (strcmp(name, "walk") == 0 || strcmp(name, "jump") == 0 || strcmp(name, "mocap") == 0) {
        if (study_clip_check(name, params, err, err_size) != 0) {
            clip_source_free(s);
            return NULL;
        }
        s->rig = study_rig_create();
        if (s->rig) {
            if (strcmp(name, "jump") == 0)
                s->clip = study_jump_clip(s->rig, params);
            else
                s->clip = study_walk_clip(s->rig, params, strcmp(name, "mocap") == 0);
        }
        snprintf(s->generator, sizeof s->generator, "study-%.50s", name);
        if (s->clip && strcmp(name, "mocap") == 0) {
            const int n = s->clip->frame_count;
            s->jitter = malloc((size_t)n * WALK_JITTER_DRAWS * sizeof *s->jitter);
            study_lcg lcg = {params->seed};
            for (int i = 0; s->jitter && i < n * WALK_JITTER_DRAWS; i++)
                s->jitter[i] = study_lcg_next(&lcg);
            if (!s->jitter) {
                clip_free(s->clip);
                s->clip = NULL;
            }
        }
        if (!s->clip) {
            snprintf(err, err_size, "out of memory generating clip '%s'", name);
            clip_source_free(s);
            return NULL;
        }
    } else if (random_clip_is_name(name)) {
        random_clip_params rp;
        if (random_clip_parse(name, &rp, err, err_size) != 0 ||
            random_clip_make(&rp, &s->rig, &s->clip, err, err_size) != 0) {
            clip_source_free(s);
            return NULL;
        }
        snprintf(s->generator, sizeof s->generator, "random");
    } else if (scene_is_file(name)) {
        scene_result r;
        const scene_options o = {params->unit_m, params->unit_given, params->fps, params->fps_given};
        if (scene_load(name, &o, &r, err, err_size) != 0) {
            clip_source_free(s);
            return NULL;
        }
        s->rig = r.rig;
        s->clip = r.clip;
        snprintf(s->generator, sizeof s->generator, "assimp");
        snprintf(s->path, sizeof s->path, "%s", name);
        if (r.extent_m > CLIP_HUMAN_EXTENT_MAX_M || (r.extent_m > 0 && r.extent_m < CLIP_HUMAN_EXTENT_MIN_M))
            snprintf(s->warning, sizeof s->warning,
                     "%.700s: the skeleton spans %.3g m in its rest pose with %g m per file unit, far from a human's size "
                     "(%g to %g m); is --unit-m right?%s%.500s",
                     name, r.extent_m, r.unit_m, CLIP_HUMAN_EXTENT_MIN_M, CLIP_HUMAN_EXTENT_MAX_M, r.warning[0] ? " " : "",
                     r.warning);
        else
            snprintf(s->warning, sizeof s->warning, "%s", r.warning);
        /* the file's name (and its animation, when one was asked for), fit for JSON and TSV */
        const char *body = strncmp(name, "assimp:", 7) == 0 ? name + 7 : name;
        const char *base = strrchr(body, '/');
        char shown[512];
        snprintf(shown, sizeof shown, "%.500s", base ? base + 1 : body);
        char *hash = strrchr(shown, '#');
        if (hash)
            *hash = '\0';
        char *dot = strrchr(shown, '.');
        if (dot)
            *dot = '\0';
        char full[600];
        snprintf(full, sizeof full, "%s%s%s%s", shown, strncmp(name, "assimp:", 7) == 0 ? "_assimp" : "", hash ? "#" : "",
                 hash ? hash + 1 : "");
        utf8_printable_copy(full, s->name, sizeof s->name);
    } else if (clip_is_file(name)) {
        bvh_result r;
        const bvh_options o = {params->unit_m};
        if (bvh_load(name, &o, &r, err, err_size) != 0) {
            clip_source_free(s);
            return NULL;
        }
        s->rig = r.rig;
        s->clip = r.clip;
        snprintf(s->generator, sizeof s->generator, "bvh");
        snprintf(s->path, sizeof s->path, "%s", name);
        snprintf(s->frame_time, sizeof s->frame_time, "%s", r.frame_time);
        if (r.extent_m > CLIP_HUMAN_EXTENT_MAX_M || (r.extent_m > 0 && r.extent_m < CLIP_HUMAN_EXTENT_MIN_M))
            snprintf(s->warning, sizeof s->warning,
                     "%.1000s: the skeleton spans %.3g m in its rest pose with %g m per file unit, far from a human's size "
                     "(%g to %g m); is --unit-m right? (CMU files: 0.056444, centimetres: 0.01)",
                     name, r.extent_m, params->unit_m, CLIP_HUMAN_EXTENT_MIN_M, CLIP_HUMAN_EXTENT_MAX_M);
        const char *base = strrchr(name, '/');
        /* the file's name, made fit for JSON and TSV (a tab or a stray byte becomes '_') */
        utf8_printable_copy(base ? base + 1 : name, s->name, sizeof s->name);
        char *dot = strrchr(s->name, '.');
        if (dot)
            *dot = '\0';
    } else if (clip_is_folder(name)) {
        snprintf(err, err_size, "%s is a folder: this takes one clip (a .bvh file, walk, jump or mocap)", name);
        clip_source_free(s);
        return NULL;
    } else {
        snprintf(err, err_size, "unknown clip '%s' (known: walk, jump, mocap, random:bones=N,..., a .bvh file or folder, a "
                                ".fbx, .gltf, .glb, .dae, .x, .smd, .b3d, .ase or .csm file (through assimp%s), assimp:FILE; "
                                "data:PATH is $ANIMBENCH_DATA/PATH, here %s)",
                 name, scene_available() ? "" : ", not built here", clip_data_folder());
        clip_source_free(s);
        return NULL;
    }
    s->sample_hash = clip_hash(s->clip);
    return s;
}

static void rest_pose(const anim_rig *rig, double *pose)
{
    for (int b = 0; b < rig->bone_count; b++) {
        double *p = pose + b * 10;
        for (int a = 0; a < 3; a++) {
            p[a] = rig->rest_offsets[b * 3 + a];
            p[7 + a] = 1.0;
        }
        p[3] = p[4] = p[5] = 0.0;
        p[6] = 1.0;
    }
}

/* The generators write split arrays; a pose interleaves them per bone. */
static void generated_pose(const clip_source *s, double seconds, const double *jitter, double *pose)
{
    const anim_rig *rig = s->rig;
    const int nb = rig->bone_count;
    double pos[3 * 256], rot[4 * 256], scl[3 * 256];
    rest_pose(rig, pose);
    for (int b = 0; b < nb && b < 256; b++)
        for (int a = 0; a < 3; a++) {
            pos[b * 3 + a] = pose[b * 10 + a];
            scl[b * 3 + a] = 1.0;
        }
    for (int b = 0; b < nb && b < 256; b++) {
        rot[b * 4 + 0] = rot[b * 4 + 1] = rot[b * 4 + 2] = 0.0;
        rot[b * 4 + 3] = 1.0;
    }
    if (strcmp(s->generator, "study-jump") == 0)
        study_jump_pose(rig, seconds, pos, rot, scl);
    else
        study_walk_pose(rig, seconds, jitter, pos, rot, scl);
    for (int b = 0; b < nb && b < 256; b++) {
        double *p = pose + b * 10;
        for (int a = 0; a < 3; a++) {
            p[a] = pos[b * 3 + a];
            p[7 + a] = scl[b * 3 + a];
        }
        for (int i = 0; i < 4; i++)
            p[3 + i] = rot[b * 4 + i];
    }
}

void clip_source_pose_at(const clip_source *s, double t, double *pose)
{
    const anim_clip *c = s->clip;
    const bool generated = strncmp(s->generator, "study-", 6) == 0 && c->rig->bone_count <= 256;
    const int f0 = (int)t;
    if (!generated || t == f0) {
        if (t == f0 && f0 >= 0 && f0 < c->frame_count)
            clip_get_pose(c, f0, pose);
        else
            clip_interpolate_pose(c, t, pose);
        return;
    }
    double jitter[WALK_JITTER_DRAWS];
    const double *j = NULL;
    if (s->jitter) {
        const int f1 = f0 + 1 < c->frame_count ? f0 + 1 : f0;
        const double u = t - f0;
        for (int i = 0; i < WALK_JITTER_DRAWS; i++) {
            const double a = s->jitter[f0 * WALK_JITTER_DRAWS + i], b = s->jitter[f1 * WALK_JITTER_DRAWS + i];
            jitter[i] = a + (b - a) * u;
        }
        j = jitter;
    }
    generated_pose(s, t / c->fps, j, pose);
}

static int clip_is_folder(const char *name)
{
    struct stat st;
    return stat(name, &st) == 0 && S_ISDIR(st.st_mode);
}

int clip_is_file(const char *name)
{
    const size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ".bvh") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void clip_names_free(char **names, int count)
{
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

int clip_expand(const char *given, char ***names, char *err, size_t err_size)
{
    char spec[4096];
    clip_resolve(given, spec, sizeof spec);
    struct stat st;
    *names = NULL;
    if (stat(spec, &st) != 0 || !S_ISDIR(st.st_mode)) {
        *names = malloc(sizeof **names);
        if (!*names || !((*names)[0] = strdup(spec))) {
            free(*names);
            snprintf(err, err_size, "out of memory");
            return 0;
        }
        return 1;
    }
    DIR *d = opendir(spec);
    if (!d) {
        snprintf(err, err_size, "%s: cannot read the folder", spec);
        return 0;
    }
    int count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!clip_is_file(e->d_name))
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            char **more = realloc(*names, (size_t)cap * sizeof **names);
            if (!more)
                break;
            *names = more;
        }
        const size_t len = strlen(spec) + strlen(e->d_name) + 2;
        (*names)[count] = malloc(len);
        if (!(*names)[count])
            break;
        snprintf((*names)[count], len, "%s%s%s", spec, spec[strlen(spec) - 1] == '/' ? "" : "/", e->d_name);
        count++;
    }
    closedir(d);
    if (count == 0) {
        snprintf(err, err_size, "%s: no .bvh files in this folder", spec);
        free(*names);
        *names = NULL;
        return 0;
    }
    qsort(*names, (size_t)count, sizeof **names, by_name);
    return count;
}
