#include "core/error_effectors.h"

#include <ctype.h>
#include <string.h>

static int name_has(const char *name, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == word[i])
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

int end_effector_mask(const anim_rig *rig, unsigned char *mask)
{
    int count = 0;
    for (int j = 0; j < rig->bone_count; j++) {
        const char *n = rig->names[j];
        mask[j] = rig_is_leaf(rig, j) || name_has(n, "hand") || name_has(n, "foot") || name_has(n, "head");
        count += mask[j];
    }
    return count;
}

int foot_mask(const anim_rig *rig, unsigned char *mask)
{
    int count = 0;
    for (int j = 0; j < rig->bone_count; j++) {
        mask[j] = name_has(rig->names[j], "foot") || name_has(rig->names[j], "toe");
        count += mask[j];
    }
    return count;
}

int limb_errors(const anim_rig *rig, const unsigned char *mask, const double *d, int samples, limb_error *out)
{
    int n = 0;
    for (int j = 0; j < rig->bone_count; j++) {
        if (!mask[j])
            continue;
        limb_error e = {j, 0, 0};
        for (int s = 0; s < samples; s++) {
            const double x = d[(size_t)s * rig->bone_count + j];
            if (x > e.max_m) {
                e.max_m = x;
                e.worst_sample = s;
            }
        }
        out[n++] = e;
    }
    return n;
}
