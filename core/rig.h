/* A skeleton: bones in an order where every parent precedes its children,
 * with the rest offset of each bone from its parent in metres. */
#ifndef ANIMBENCH_RIG_H
#define ANIMBENCH_RIG_H

#include <stdbool.h>

#define RIG_NAME_MAX 64

typedef struct anim_rig {
    int bone_count;
    char (*names)[RIG_NAME_MAX];
    int *parents;        /* -1 for a root */
    double *rest_offsets; /* 3 per bone, metres */
    /* An imported skeleton's end sites (BVH "End Site"): a leaf's tip, kept
     * for export; not a joint.  has_end_site may be NULL (none). */
    unsigned char *has_end_site;
    double *end_site_offsets; /* 3 per bone, metres */
} anim_rig;

/* Returns NULL when out of memory. */
anim_rig *rig_create(int bone_count);
void rig_free(anim_rig *rig);
int rig_find_bone(const anim_rig *rig, const char *name);
/* True when every parent index is -1 or smaller than its child's index. */
bool rig_is_ordered(const anim_rig *rig);
/* A bone is a leaf when no other bone names it as parent. */
bool rig_is_leaf(const anim_rig *rig, int bone);

#endif
