#include "generators/study_rig.h"

#include <string.h>

static const struct {
    const char *name;
    int parent;
    double rest[3];
} STUDY_BONES[STUDY_BONE_COUNT] = {
    {"hips", -1, {0, 0.95, 0}},         {"spine", 0, {0, 0.12, 0}},
    {"chest", 1, {0, 0.16, 0}},         {"neck", 2, {0, 0.20, 0}},
    {"head", 3, {0, 0.09, 0}},          {"shoulder.L", 2, {0.05, 0.16, 0}},
    {"upperarm.L", 5, {0.13, 0, 0}},    {"forearm.L", 6, {0.28, 0, 0}},
    {"hand.L", 7, {0.26, 0, 0}},        {"shoulder.R", 2, {-0.05, 0.16, 0}},
    {"upperarm.R", 9, {-0.13, 0, 0}},   {"forearm.R", 10, {-0.28, 0, 0}},
    {"hand.R", 11, {-0.26, 0, 0}},      {"thigh.L", 0, {0.09, -0.06, 0}},
    {"shin.L", 13, {0, -0.42, 0}},      {"foot.L", 14, {0, -0.40, 0}},
    {"toe.L", 15, {0, -0.06, 0.12}},    {"thigh.R", 0, {-0.09, -0.06, 0}},
    {"shin.R", 17, {0, -0.42, 0}},      {"foot.R", 18, {0, -0.40, 0}},
    {"toe.R", 19, {0, -0.06, 0.12}},    {"finger1.L", 8, {0.06, 0, 0.02}},
    {"finger2.L", 8, {0.06, 0, -0.02}}, {"finger1.R", 12, {-0.06, 0, 0.02}},
    {"finger2.R", 12, {-0.06, 0, -0.02}}, {"prop_sword", 12, {-0.04, 0, 0}},
    {"jaw", 4, {0, -0.03, 0.04}},       {"eye.L", 4, {0.03, 0.04, 0.06}},
    {"eye.R", 4, {-0.03, 0.04, 0.06}},  {"cape", 2, {0, 0.05, -0.08}},
};

anim_rig *study_rig_create(void)
{
    anim_rig *rig = rig_create(STUDY_BONE_COUNT);
    if (!rig)
        return NULL;
    for (int b = 0; b < STUDY_BONE_COUNT; b++) {
        strncpy(rig->names[b], STUDY_BONES[b].name, RIG_NAME_MAX - 1);
        rig->parents[b] = STUDY_BONES[b].parent;
        for (int a = 0; a < 3; a++)
            rig->rest_offsets[b * 3 + a] = STUDY_BONES[b].rest[a];
    }
    return rig;
}
