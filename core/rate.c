#include "core/rate.h"

double bits_per_joint_sample(size_t bytes, int frames, int joints)
{
    return (double)bytes * 8 / ((double)frames * joints);
}

double acl_raw_ratio(size_t bytes, int frames, int joints)
{
    return (double)frames * joints * 10 * 4 / (double)bytes;
}
