#include "clip_library.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study_rig.h"

const char *const STUDY_CLIP_NAMES[] = {"walk", "jump", "mocap", NULL};

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
    clip_free(s->clip);
    rig_free(s->rig);
    free(s);
}

clip_source *clip_source_load(const char *name, const study_clip_params *params, char *err, size_t err_size)
{
    clip_source *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    snprintf(s->name, sizeof s->name, "%s", name);
    s->params = *params;
    if (strcmp(name, "walk") == 0 || strcmp(name, "jump") == 0 || strcmp(name, "mocap") == 0) {
        s->rig = study_rig_create();
        if (s->rig) {
            if (strcmp(name, "jump") == 0)
                s->clip = study_jump_clip(s->rig, params);
            else
                s->clip = study_walk_clip(s->rig, params, strcmp(name, "mocap") == 0);
        }
        snprintf(s->generator, sizeof s->generator, "study-%s", name);
        if (!s->clip) {
            snprintf(err, err_size, "out of memory generating clip '%s'", name);
            clip_source_free(s);
            return NULL;
        }
    } else {
        snprintf(err, err_size, "unknown clip '%s' (known: walk, jump, mocap)", name);
        clip_source_free(s);
        return NULL;
    }
    s->sample_hash = clip_hash(s->clip);
    return s;
}
