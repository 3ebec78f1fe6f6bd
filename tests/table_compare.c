#include "table_compare.h"

#include "core/text_file.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 4096
#define MAX_FIELDS 64

typedef struct line_list {
    char *lines[MAX_LINES];
    int count;
} line_list;

/* Timing sections are not compared: their headers and their rows. */
static int is_timing_line(const char *s)
{
    return strstr(s, "ns per skeleton sample") || strncmp(s, "### decode cost", 15) == 0 ||
           strncmp(s, "### sequential playback", 23) == 0;
}

static int split_lines(char *text, line_list *out)
{
    out->count = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0' || is_timing_line(line))
            continue;
        if (out->count == MAX_LINES)
            return -1;
        out->lines[out->count++] = line;
    }
    return 0;
}

static int split_fields(char *line, char **fields)
{
    int n = 0;
    for (char *save = NULL, *f = strtok_r(line, " \t", &save); f && n < MAX_FIELDS; f = strtok_r(NULL, " \t", &save))
        fields[n++] = f;
    return n;
}

static int is_integer(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Marks the gzip fields of one line: technique rows (gzip, gzB/s), sweep
 * rows (gzip), and the by-record line (every "-> N B (R.RRx)" pair). */
static void gzip_mask(const char *line, char **f, int n, int *mask)
{
    for (int i = 0; i < n; i++)
        mask[i] = 0;
    if (line[0] >= '1' && line[0] <= '7' && line[1] == ' ' && n >= 7 && is_integer(f[n - 6])) {
        mask[n - 4] = mask[n - 3] = 1;
    } else if ((strncmp(line, "lin ", 4) == 0 || strncmp(line, "cubic ", 6) == 0) && n == 9) {
        mask[6] = 1;
    } else if (strncmp(line, "float32 keys:", 13) == 0 || strncmp(line, "quantised keys:", 15) == 0) {
        for (int i = 0; i + 2 < n; i++)
            if (strcmp(f[i], "->") == 0) {
                mask[i + 1] = 1; /* N */
                mask[i + 3] = 1; /* (R.RRx), */
            }
    }
}

static void note(compare_report *r, int line, const char *what, const char *exp, const char *act)
{
    r->mismatches++;
    if (r->mismatches == 1)
        snprintf(r->first_mismatch, sizeof r->first_mismatch, "line %d: %.40s\n  expected: %.460s\n  actual:   %.460s",
                 line + 1, what, exp, act);
}

int compare_tables(const char *expected, const char *actual, compare_report *r)
{
    memset(r, 0, sizeof *r);
    char *e = strdup(expected), *a = strdup(actual);
    line_list *le = malloc(sizeof *le), *la = malloc(sizeof *la);
    if (!e || !a || !le || !la || split_lines(e, le) || split_lines(a, la)) {
        note(r, 0, "could not read the texts", "", "");
        goto done;
    }
    if (le->count != la->count) {
        char c1[32], c2[32];
        snprintf(c1, sizeof c1, "%d lines", le->count);
        snprintf(c2, sizeof c2, "%d lines", la->count);
        note(r, 0, "line counts differ", c1, c2);
    }
    for (int i = 0; i < le->count && i < la->count; i++) {
        char ecopy[1024], acopy[1024];
        snprintf(ecopy, sizeof ecopy, "%s", le->lines[i]);
        snprintf(acopy, sizeof acopy, "%s", la->lines[i]);
        char *fe[MAX_FIELDS], *fa[MAX_FIELDS];
        int me[MAX_FIELDS];
        const int ne = split_fields(le->lines[i], fe), na = split_fields(la->lines[i], fa);
        r->lines_compared++;
        if (ne != na) {
            note(r, i, "field counts differ", ecopy, acopy);
            continue;
        }
        gzip_mask(ecopy, fe, ne, me);
        for (int k = 0; k < ne; k++) {
            if (me[k]) {
                if (is_integer(fe[k]) && is_integer(fa[k])) {
                    r->gzip_fields++;
                    const long d = strtol(fe[k], NULL, 10) - strtol(fa[k], NULL, 10);
                    r->gzip_equal += d == 0;
                    r->gzip_abs_diff += d < 0 ? -d : d;
                }
                continue;
            }
            if (strcmp(fe[k], fa[k]) != 0) {
                note(r, i, "a deterministic field differs", ecopy, acopy);
                break;
            }
        }
    }
done:
    free(e);
    free(a);
    free(le);
    free(la);
    return r->mismatches == 0 ? 0 : -1;
}

char *read_text_file(const char *path)
{
    size_t size;
    int error_number;
    char err[512];
    return read_whole_file(path, 1ull << 30, &size, &error_number, err, sizeof err);
}
