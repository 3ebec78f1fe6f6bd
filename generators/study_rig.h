/* The study's 30-bone humanoid (seeds/000, RIG): a 1.8 m character. */
#ifndef ANIMBENCH_STUDY_RIG_H
#define ANIMBENCH_STUDY_RIG_H

#include "core/rig.h"

#define STUDY_BONE_COUNT 30

/* Returns NULL when out of memory; free with rig_free(). */
anim_rig *study_rig_create(void);

#endif
