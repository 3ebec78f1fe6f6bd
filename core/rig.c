#include "core/rig.h"

#include <stdlib.h>
#include <string.h>

anim_rig *rig_create(int bone_count)
{
    if (bone_count <= 0)
        return NULL;
    anim_rig *rig = calloc(1, sizeof *rig);
    if (!rig)
        return NULL;
    rig->bone_count = bone_count;
    rig->names = calloc((size_t)bone_count, sizeof *rig->names);
    rig->parents = calloc((size_t)bone_count, sizeof *rig->parents);
    rig->rest_offsets = calloc((size_t)bone_count * 3, sizeof *rig->rest_offsets);
    rig->has_end_site = calloc((size_t)bone_count, sizeof *rig->has_end_site);
    rig->end_site_offsets = calloc((size_t)bone_count * 3, sizeof *rig->end_site_offsets);
    if (!rig->names || !rig->parents || !rig->rest_offsets || !rig->has_end_site || !rig->end_site_offsets) {
        rig_free(rig);
        return NULL;
    }
    return rig;
}

void rig_free(anim_rig *rig)
{
    if (!rig)
        return;
    free(rig->names);
    free(rig->parents);
    free(rig->rest_offsets);
    free(rig->has_end_site);
    free(rig->end_site_offsets);
    free(rig);
}

int rig_find_bone(const anim_rig *rig, const char *name)
{
    for (int b = 0; b < rig->bone_count; b++)
        if (strcmp(rig->names[b], name) == 0)
            return b;
    return -1;
}

bool rig_is_ordered(const anim_rig *rig)
{
    for (int b = 0; b < rig->bone_count; b++)
        if (rig->parents[b] < -1 || rig->parents[b] >= b)
            return false;
    return true;
}

bool rig_is_leaf(const anim_rig *rig, int bone)
{
    for (int b = bone + 1; b < rig->bone_count; b++)
        if (rig->parents[b] == bone)
            return false;
    return true;
}
