#include "harness/commands/cli_flags.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

int cli_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    /* decimal only: strtod would also take 0x10, inf, nan and leading spaces */
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v) ||
        strspn(text, "0123456789+-.eE") != strlen(text))
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
        const double most = i == 3 ? 1000 : INFINITY; /* a unit past a kilometre per file unit is a typo */
        char range[96];
        if (isinf(most))
            snprintf(range, sizeof range, "a number above 0");
        else
            snprintf(range, sizeof range, "a number above 0 and at most %g", most);
        if (cli_number(value, &v) != 0) {
            snprintf(err, err_size, "%s: expected %s, found '%s'", flag, range, value);
            return -1;
        }
        if (!(v > 0) || v > most) {
            snprintf(err, err_size, "%s %s: out of range; it takes %s", flag, value, range);
            return -1;
        }
        *targets[i] = v;
        p->unit_given |= i == 3;
        p->fps_given |= i == 0;
        return 1;
    }
    if (strcmp(flag, "--seed") == 0) {
        double v;
        if (cli_number(value, &v) != 0) {
            snprintf(err, err_size, "--seed: expected an integer from 0 to 4294967295, found '%s'", value);
            return -1;
        }
        if (v < 0 || v > 4294967295.0 || v != floor(v)) {
            snprintf(err, err_size, "--seed %s: out of range; it takes an integer from 0 to 4294967295", value);
            return -1;
        }
        p->seed = (uint32_t)v;
        return 1;
    }
    return 0;
}

static void describe_range(const cli_option *o, char *out, size_t n)
{
    if (o->kind == CLI_INT)
        snprintf(out, n, "an integer from %.17g to %.17g", o->lo, o->hi);
    else if (isinf(o->hi))
        snprintf(out, n, "a number %s %.17g", o->lo_open ? "above" : "of at least", o->lo);
    else
        snprintf(out, n, "a number %s %.17g to %.17g", o->lo_open ? "above" : "from", o->lo, o->hi);
}

int cli_parse(const char *cmd, int argc, char **argv, const cli_option *options, int option_count,
              clip_params *clip, const char *usage)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 1;
        }
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        const cli_option *o = NULL;
        for (int k = 0; k < option_count && !o; k++)
            if (strcmp(flag, options[k].flag) == 0)
                o = &options[k];
        static const char *const CLIP_FLAGS[] = {"--fps", "--walk-seconds", "--jump-seconds", "--seed", "--unit-m",
                                                 "--up"};
        bool clip_flag = false;
        for (int k = 0; clip && k < 6; k++)
            clip_flag |= strcmp(flag, CLIP_FLAGS[k]) == 0;
        if (!o && !clip_flag) {
            if (flag[0] == '-')
                fprintf(stderr, "animbench %s: unknown option '%s' (animbench %s --help lists the options)\n", cmd,
                        flag, cmd);
            else
                fprintf(stderr, "animbench %s: unexpected argument '%s' (animbench %s --help lists the options)\n",
                        cmd, flag, cmd);
            return -1;
        }
        if (o && o->kind == CLI_SWITCH) {
            *(bool *)o->target = true;
            continue;
        }
        bool next_is_flag = false; /* "--clip --codec x": the value is missing, not "--codec" */
        for (int k = 0; i + 1 < argc && k < option_count; k++)
            next_is_flag |= strcmp(argv[i + 1], options[k].flag) == 0;
        for (int k = 0; i + 1 < argc && clip && k < 6; k++)
            next_is_flag |= strcmp(argv[i + 1], CLIP_FLAGS[k]) == 0;
        if (i + 1 >= argc || next_is_flag) {
            fprintf(stderr, "animbench %s: %s needs a value\n", cmd, flag);
            return -1;
        }
        const char *val = argv[++i];
        if (clip_flag) {
            char err[300];
            if (cli_clip_flag(flag, val, clip, err, sizeof err) < 0) {
                fprintf(stderr, "animbench %s: %s\n", cmd, err);
                return -1;
            }
            continue;
        }
        if (o->kind == CLI_TEXT) {
            *(const char **)o->target = val;
            continue;
        }
        if (o->kind == CLI_MULTI) {
            cli_multi *m = o->target;
            if (m->count == CLI_MULTI_MAX) {
                fprintf(stderr, "animbench %s: %s given more than %d times\n", cmd, flag, CLI_MULTI_MAX);
                return -1;
            }
            m->items[m->count++] = val;
            continue;
        }
        double v;
        char range[160];
        describe_range(o, range, sizeof range);
        if (cli_number(val, &v) != 0) {
            fprintf(stderr, "animbench %s: %s: expected %s, found '%s'\n", cmd, flag, range, val);
            return -1;
        }
        const bool in_range = (o->lo_open ? v > o->lo : v >= o->lo) && v <= o->hi &&
                              (o->kind != CLI_INT || v == floor(v));
        if (!in_range) {
            fprintf(stderr, "animbench %s: %s %s: out of range; it takes %s\n", cmd, flag, val, range);
            return -1;
        }
        if (o->kind == CLI_INT)
            *(int *)o->target = (int)v;
        else
            *(double *)o->target = v;
    }
    return 0;
}

int cli_codec_params_apply(const cli_codec_params *q, const codec *c, codec_params *out, char *err, size_t err_size)
{
    codec_params_init(c, out);
    const char *names[3] = {"tol_mm", "lever_m", "step"};
    const double given[3] = {q->tol_mm, q->lever_m, q->step > 0 ? q->step : NAN};
    for (int k = 0; k < 3; k++) {
        const int i = codec_param_index(c, names[k]);
        if (!isnan(given[k]) && i >= 0 && codec_param_set(c, out, i, given[k], err, err_size) != 0)
            return -1;
    }
    for (int k = 0; k < q->param.count; k++) {
        const char *item = q->param.items[k], *eq = strchr(item, '=');
        if (!eq || eq == item) {
            snprintf(err, err_size, "--param takes NAME=VALUE, found '%s'", item);
            return -1;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(eq - item), item);
        if (codec_param_set_text(c, out, name, eq + 1, err, err_size) != 0)
            return -1;
    }
    return 0;
}

/* True when the item starting at s (up to the next comma) is a "key=value"
 * of a random clip rather than a clip: an '=' and neither ':' nor '/'. */
static bool next_is_key(const char *s)
{
    const size_t len = strcspn(s, ",");
    const char *eq = memchr(s, '=', len);
    return eq && !memchr(s, ':', len) && !memchr(s, '/', len);
}

int cli_split_clips(char *list, char **items, int max)
{
    int n = 0;
    char *p = list;
    for (;;) {
        char *end = strchr(p, ',');
        /* inside "random:...", a comma followed by key= belongs to the clip */
        while (end && strncmp(p, "random:", 7) == 0 && next_is_key(end + 1))
            end = strchr(end + 1, ',');
        if (end)
            *end = '\0';
        if (*p == '\0' || n == max)
            return -1;
        items[n++] = p;
        if (!end)
            return n;
        p = end + 1;
    }
}

int cli_parse_file(const char *cmd, int argc, char **argv, const char **file, const cli_option *options,
                   int option_count, const char *usage)
{
    char *rest[64];
    int n = 0;
    *file = NULL;
    for (int i = 0; i < argc; i++) {
        const cli_option *o = NULL;
        for (int k = 0; k < option_count && !o; k++)
            if (strcmp(argv[i], options[k].flag) == 0)
                o = &options[k];
        if (!*file && argv[i][0] != '-') {
            *file = argv[i];
            continue;
        }
        if (n + 2 > 64) {
            fprintf(stderr, "animbench %s: too many arguments\n", cmd);
            return -1;
        }
        rest[n++] = argv[i];
        if (o && o->kind != CLI_SWITCH && i + 1 < argc)
            rest[n++] = argv[++i]; /* its value, even one that does not start with '-' */
    }
    return cli_parse(cmd, n, rest, options, option_count, NULL, usage);
}
