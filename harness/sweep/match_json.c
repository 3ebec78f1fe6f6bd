#include "harness/sweep/match_json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>

#include "harness/sweep/results.h"

static cJSON *trail_json(const codec *c, const match_result *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < m->trail_count; i++) {
        cJSON *s = cJSON_CreateObject();
        if (codec_knob(c) >= 0)
            cJSON_AddNumberToObject(s, "knob", m->trail[i].knob);
        else
            cJSON_AddNullToObject(s, "knob");
        cJSON_AddNumberToObject(s, "bytes", (double)m->trail[i].bytes);
        if (isnan(m->trail[i].value_mm))
            cJSON_AddNullToObject(s, "value_mm");
        else
            cJSON_AddNumberToObject(s, "value_mm", m->trail[i].value_mm);
        cJSON_AddItemToArray(a, s);
    }
    return a;
}

cJSON *match_point_json(const measured_clip *mc, const codec *c, const codec_params *base, match_metric metric,
                        double target_mm, match_result *m, char *err, size_t err_size)
{
    const int knob = codec_knob(c);
    cJSON *pj;
    if (m->reachable) {
        pj = results_point(mc, &m->point);
    } else {
        if (isnan(m->floor_mm)) {
            snprintf(err, err_size, "%s on %s: no setting gave a stream that decodes", c->name, mc->source->name);
            return NULL;
        }
        codec_params p = *base;
        if (knob >= 0 && codec_param_set(c, &p, knob, m->finest_knob, err, err_size) != 0)
            return NULL;
        point_result r;
        if (measure_point(mc, c, &p, false, &r, err, err_size) != 0)
            return NULL;
        pj = results_point(mc, &r);
        point_result_free(&r);
    }
    cJSON *mj = cJSON_AddObjectToObject(pj, "match");
    cJSON_AddStringToObject(mj, "metric", MATCH_METRIC_NAMES[metric]);
    cJSON_AddNumberToObject(mj, "target_mm", target_mm);
    cJSON_AddBoolToObject(mj, "reachable", m->reachable);
    if (knob >= 0) {
        cJSON_AddStringToObject(mj, "knob", c->params[knob].name);
        cJSON_AddNumberToObject(mj, "value", m->reachable ? m->knob : m->finest_knob);
    } else {
        cJSON_AddNullToObject(mj, "knob");
        cJSON_AddNullToObject(mj, "value");
    }
    if (!m->reachable)
        cJSON_AddNumberToObject(mj, "floor_mm", m->floor_mm);
    cJSON_AddNumberToObject(mj, "encodes", m->encodes);
    cJSON_AddNumberToObject(mj, "decode_failures", m->decode_failures);
    cJSON_AddItemToObject(mj, "trail", trail_json(c, m));
    return pj;
}
