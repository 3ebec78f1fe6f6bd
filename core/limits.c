#include "core/limits.h"

#include <math.h>
#include <stdio.h>

static long joint_samples_max = LIMIT_JOINT_SAMPLES_MAX;

void clip_limits_set_joint_samples(long max)
{
    joint_samples_max = max;
}

int clip_limits_check_decoded(double frames, int joints, char *err, size_t err_size)
{
    if (!(frames >= 1 && frames <= LIMIT_FRAMES_MAX)) {
        snprintf(err, err_size, "the stream describes %.15g frames: a decoded clip has 1 to %d", frames, LIMIT_FRAMES_MAX);
        return -1;
    }
    if (frames * joints > (double)joint_samples_max) {
        snprintf(err, err_size, "the stream describes %.0f frames of %d joints: %.0f joint-samples, over the limit of %ld",
                 frames, joints, frames * joints, joint_samples_max);
        return -1;
    }
    return 0;
}

int clip_limits_check(double frames, double joints, double rate_hz, char *err, size_t err_size)
{
    if (!(frames >= LIMIT_FRAMES_MIN && frames <= LIMIT_FRAMES_MAX) || frames != floor(frames)) {
        snprintf(err, err_size, "%.15g frames: a clip has %d to %d", frames, LIMIT_FRAMES_MIN, LIMIT_FRAMES_MAX);
        return -1;
    }
    if (!(joints >= 1 && joints <= LIMIT_JOINTS_MAX) || joints != floor(joints)) {
        snprintf(err, err_size, "%.15g joints: a rig has 1 to %d", joints, LIMIT_JOINTS_MAX);
        return -1;
    }
    if (!(rate_hz >= LIMIT_RATE_MIN_HZ && rate_hz <= LIMIT_RATE_MAX_HZ)) {
        snprintf(err, err_size, "%.15g frames per second: a clip's rate is %g to %g Hz", rate_hz, LIMIT_RATE_MIN_HZ,
                 LIMIT_RATE_MAX_HZ);
        return -1;
    }
    if (frames * joints > (double)joint_samples_max) {
        snprintf(err, err_size, "%.0f frames of %.0f joints: %.0f joint-samples, over the limit of %ld (%d MiB of doubles)%s",
                 frames, joints, frames * joints, joint_samples_max, (int)(joint_samples_max * 80.0 / 1048576),
                 joint_samples_max < LIMIT_JOINT_SAMPLES_ENCODE_MAX ? "; `animbench encode` alone takes up to 16,777,216" : "");
        return -1;
    }
    return 0;
}
