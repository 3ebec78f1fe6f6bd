#include "cli_flags.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int cli_clip_flag(const char *flag, const char *value, clip_params *p, char *err, size_t err_size)
{
    if (strcmp(flag, "--up") == 0) {
        if (strcmp(value, "y") != 0 && strcmp(value, "z") != 0) {
            snprintf(err, err_size, "--up takes y or z, found '%s'", value);
            return -1;
        }
        p->up_axis = value[0] == 'y' ? 1 : 2;
        return 1;
    }
    static const char *const POSITIVE[] = {"--fps", "--walk-seconds", "--jump-seconds", "--unit-m"};
    double *const targets[] = {&p->fps, &p->walk_seconds, &p->jump_seconds, &p->unit_m};
    for (int i = 0; i < 4; i++) {
        if (strcmp(flag, POSITIVE[i]) != 0)
            continue;
        double v;
        if (cli_number(value, &v) != 0 || !(v > 0)) {
            snprintf(err, err_size, "%s takes a number above 0, found '%s'", flag, value);
            return -1;
        }
        *targets[i] = v;
        return 1;
    }
    if (strcmp(flag, "--seed") == 0) {
        double v;
        if (cli_number(value, &v) != 0 || v < 0 || v > 4294967295.0 || v != floor(v)) {
            snprintf(err, err_size, "--seed takes an integer from 0 to 4294967295, found '%s'", value);
            return -1;
        }
        p->seed = (uint32_t)v;
        return 1;
    }
    return 0;
}
