/* animbench: the command-line front end. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study_tables.h"

static int usage(FILE *out)
{
    fprintf(out,
            "usage: animbench tables [--fps N] [--walk-seconds S] [--jump-seconds S] [--seed N]\n"
            "                        [--tol-mm X] [--lever-m X] [--sweep-mm a,b,c] [--no-timings]\n");
    return out == stderr ? 2 : 0;
}

static int parse_double(const char *flag, const char *text, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        fprintf(stderr, "animbench: %s: expected a number, found '%s'\n", flag, text);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr);
    if (strcmp(argv[1], "tables") != 0)
        return usage(stderr);
    study_settings s;
    study_settings_default(&s);
    s.timings = false;
    for (int i = 2; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--no-timings") == 0) {
            s.timings = false;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "animbench: %s needs a value\n", flag);
            return 2;
        }
        const char *val = argv[++i];
        double v;
        if (strcmp(flag, "--fps") == 0) {
            if (parse_double(flag, val, &v) || !(v > 0)) {
                fprintf(stderr, "animbench: --fps must be a positive number\n");
                return 2;
            }
            s.clips.fps = v;
        } else if (strcmp(flag, "--walk-seconds") == 0) {
            if (parse_double(flag, val, &v))
                return 2;
            s.clips.walk_seconds = v;
        } else if (strcmp(flag, "--jump-seconds") == 0) {
            if (parse_double(flag, val, &v))
                return 2;
            s.clips.jump_seconds = v;
        } else if (strcmp(flag, "--seed") == 0) {
            if (parse_double(flag, val, &v) || v < 0 || v > 4294967295.0 || v != floor(v)) {
                fprintf(stderr, "animbench: --seed must be an integer from 0 to 4294967295\n");
                return 2;
            }
            s.clips.seed = (uint32_t)v;
        } else if (strcmp(flag, "--tol-mm") == 0) {
            if (parse_double(flag, val, &v) || v < 0)
                return 2;
            s.tol_mm = v;
        } else if (strcmp(flag, "--lever-m") == 0) {
            if (parse_double(flag, val, &v) || !(v > 0))
                return 2;
            s.lever_m = v;
        } else if (strcmp(flag, "--sweep-mm") == 0) {
            s.sweep_count = 0;
            char *copy = strdup(val);
            for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
                if (s.sweep_count == SWEEP_MAX || parse_double(flag, tok, &v) || v < 0) {
                    free(copy);
                    return 2;
                }
                s.sweep_mm[s.sweep_count++] = v;
            }
            free(copy);
        } else {
            fprintf(stderr, "animbench: unknown option '%s'\n", flag);
            return usage(stderr);
        }
    }
    char err[512];
    if (study_tables_print(stdout, &s, err, sizeof err) != 0) {
        fprintf(stderr, "animbench: %s\n", err);
        return 1;
    }
    return 0;
}
