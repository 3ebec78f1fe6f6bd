/* An equal-error search (harness/measure/match.h) as a results point. */
#ifndef ANIMBENCH_MATCH_JSON_H
#define ANIMBENCH_MATCH_JSON_H

#include "harness/measure/match.h"

/* The search as a results point (docs/results.md): the chosen point with a
 * "match" block (metric, target, knob, value, encodes, reachable, trail);
 * when the target cannot be reached, the point at the finest setting tried,
 * with reachable false and the floor.  NULL with a message when no setting
 * gave a stream that decodes. */
struct cJSON;
struct cJSON *match_point_json(const measured_clip *mc, const codec *c, const codec_params *base, match_metric metric,
                               double target_mm, match_result *m, char *err, size_t err_size);

#endif
