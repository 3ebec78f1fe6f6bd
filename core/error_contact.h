/* Foot contact: where a foot is planted in the original, how far the
 * decoded foot slides and sinks.
 *
 * A foot joint (error_effectors.h, foot_mask) is planted at a frame of the
 * original when it is near its lowest height over the clip (within
 * height_m) and nearly still (horizontal speed, by central differences, at
 * most speed_mps).  Consecutive planted frames form a contact.  During a
 * contact starting at frame f0:
 *   slide(f) = horizontal |(decoded(f) - decoded(f0)) - (original(f) - original(f0))|,
 *              the sliding the decoding adds to whatever the original does;
 *   sink(f)  = max(0, original height(f) - decoded height(f)).
 * Reported: max and mean over every planted frame of every foot. */
#ifndef ANIMBENCH_ERROR_CONTACT_H
#define ANIMBENCH_ERROR_CONTACT_H

#include "core/pose_set.h"

#define CONTACT_HEIGHT_DEFAULT_M 0.06
#define CONTACT_SPEED_DEFAULT_MPS 0.5

typedef struct contact_params {
    double height_m;  /* 6 cm above the foot's lowest */
    double speed_mps; /* 0.5 m/s horizontally */
    int up_axis;      /* 1: y up */
} contact_params;

typedef struct contact_report {
    int feet;
    long planted_frames;
    int contacts; /* runs of consecutive planted frames */
    double slide_max_m, slide_mean_m, sink_max_m, sink_mean_m;
} contact_report;

/* original and decoded: sets at the clip's frames.  Returns 0, or -1 when
 * out of memory. */
int foot_contact(const pose_set *original, const pose_set *decoded, double fps, const contact_params *p,
                 contact_report *out);

#endif
