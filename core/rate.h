/* Rate in the units of the field: bits per joint-sample, and the ratio to
 * the raw size in ACL's convention (ten 32-bit floats per joint-sample:
 * rotation 4, translation 3, scale 3; no header). */
#ifndef ANIMBENCH_RATE_H
#define ANIMBENCH_RATE_H

#include <stddef.h>

double bits_per_joint_sample(size_t bytes, int frames, int joints);
double acl_raw_ratio(size_t bytes, int frames, int joints);

#endif
