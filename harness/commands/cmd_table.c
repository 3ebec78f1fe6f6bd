/* `animbench table FILE.json`: any results file as a table a paper can
 * paste: Markdown, LaTeX or CSV, chosen columns, units in the header,
 * numbers rounded to a number of significant digits, rows by clip or by
 * codec. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/commands/commands.h"
#include "harness/commands/cli_flags.h"
#include "harness/measure/match.h"
#include "harness/sweep/results.h"

double summary_point_metric(const cJSON *pt, match_metric m);

typedef enum column_kind { COL_TEXT, COL_NUMBER, COL_COUNT } column_kind;

typedef struct column {
    const char *name, *header;
    column_kind kind;
} column;

static const column COLUMNS[] = {
    {"clip", "clip", COL_TEXT},
    {"codec", "codec", COL_TEXT},
    {"params", "parameters", COL_TEXT},
    {"knob", "knob value", COL_NUMBER},
    {"target_mm", "target (mm)", COL_NUMBER},
    {"reached", "target met", COL_TEXT},
    {"frames", "frames", COL_COUNT},
    {"bytes", "bytes (B)", COL_COUNT},
    {"bytes_per_second", "rate (B/s)", COL_NUMBER},
    {"gzip_bytes", "gzip (B)", COL_COUNT},
    {"keys", "keys", COL_COUNT},
    {"key_time_bytes", "key times (B)", COL_COUNT},
    {"breakdown", "where the bytes go (B)", COL_TEXT},
    {"bits_per_joint_sample", "bits per joint-sample", COL_NUMBER},
    {"raw_ratio", "raw / bytes (ACL's convention)", COL_NUMBER},
    {"joint_max_mm", "joint max (mm)", COL_NUMBER},
    {"joint_p99_mm", "joint p99 (mm)", COL_NUMBER},
    {"shell_max_mm", "shell max (mm)", COL_NUMBER},
    {"shell_p99_mm", "shell p99 (mm)", COL_NUMBER},
    {"between_max_mm", "between frames max (mm)", COL_NUMBER},
    {"between_shell_max_mm", "between frames shell max (mm)", COL_NUMBER},
    {"effector_max_mm", "end effector max (mm)", COL_NUMBER},
    {"slide_max_mm", "foot slide max (mm)", COL_NUMBER},
    /* what a runtime pays (bench): the sampler's memory and the decode timings */
    {"held_bytes", "sampler holds (B)", COL_COUNT},
    {"held_per_joint_sample", "sampler holds (B per joint-sample)", COL_NUMBER},
    {"stream_per_joint_sample", "stream (B per joint-sample)", COL_NUMBER},
    {"decodes_ahead", "decodes ahead", COL_TEXT},
    {"playback_ns", "playback (ns per pose)", COL_NUMBER},
    {"seek_ns", "seek (ns per pose)", COL_NUMBER},
    {"first_pose_ns", "first pose (ns)", COL_NUMBER},
    {"crowd_ns", "crowd, cold caches (ns per pose)", COL_NUMBER},
    {"every_core_poses_per_s", "every core (poses per second)", COL_NUMBER},
    {"whole_clip_ns_per_joint_sample", "whole-clip decode (ns per joint-sample)", COL_NUMBER},
};
#define COLUMN_COUNT (int)(sizeof COLUMNS / sizeof COLUMNS[0])

static const cJSON *at(const cJSON *o, const char *a, const char *b, const char *c)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        v = cJSON_GetObjectItemCaseSensitive(v, b);
    if (c)
        v = cJSON_GetObjectItemCaseSensitive(v, c);
    return v;
}

static double number(const cJSON *v)
{
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A cell as text, before the format's escaping. */
static void cell(const cJSON *pt, const column *col, int digits, char *out, size_t n)
{
    const char *name = col->name;
    double v = NAN;
    out[0] = '\0';
    if (strcmp(name, "clip") == 0 || strcmp(name, "codec") == 0) {
        const cJSON *s = at(pt, name, "name", NULL);
        snprintf(out, n, "%s", cJSON_IsString(s) ? s->valuestring : "");
        return;
    }
    if (strcmp(name, "params") == 0) {
        size_t k = 0;
        const cJSON *p;
        cJSON_ArrayForEach(p, at(pt, "codec", "params", NULL))
        {
            if (strcmp(p->string, "tol_deg") == 0 || k + 2 >= n)
                continue;
            if (cJSON_IsString(p))
                k += (size_t)snprintf(out + k, n - k, "%s%s=%s", k ? " " : "", p->string, p->valuestring);
            else
                k += (size_t)snprintf(out + k, n - k, "%s%s=%.6g", k ? " " : "", p->string, p->valuedouble);
        }
        return;
    }
    if (strcmp(name, "breakdown") == 0) { /* the codec's parts, "name=bytes" separated by "; " */
        size_t k = 0;
        const cJSON *p;
        cJSON_ArrayForEach(p, at(pt, "breakdown", NULL, NULL))
        {
            if (!cJSON_IsNumber(p) || k + 2 >= n)
                continue;
            k += (size_t)snprintf(out + k, n - k, "%s%s=%.0f", k ? "; " : "", p->string, p->valuedouble);
        }
        return;
    }
    if (strcmp(name, "decodes_ahead") == 0) {
        const cJSON *r = at(pt, "memory", "decodes_ahead", NULL);
        snprintf(out, n, "%s", !r ? "" : cJSON_IsTrue(r) ? "yes" : "no");
        return;
    }
    if (strcmp(name, "reached") == 0) {
        const cJSON *r = at(pt, "match", "reachable", NULL);
        snprintf(out, n, "%s", !r ? "" : cJSON_IsTrue(r) ? "yes" : "no");
        return;
    }
    if (strcmp(name, "knob") == 0)
        v = number(at(pt, "match", "value", NULL));
    else if (strcmp(name, "target_mm") == 0)
        v = number(at(pt, "match", "target_mm", NULL));
    else if (strcmp(name, "frames") == 0)
        v = number(at(pt, "clip", "frames", NULL));
    else if (strcmp(name, "bytes") == 0 || strcmp(name, "bytes_per_second") == 0 || strcmp(name, "gzip_bytes") == 0 ||
             strcmp(name, "keys") == 0 || strcmp(name, "key_time_bytes") == 0)
        v = number(at(pt, name, NULL, NULL));
    else if (strcmp(name, "bits_per_joint_sample") == 0)
        v = number(at(pt, "metrics", "rate", "bits_per_joint_sample"));
    else if (strcmp(name, "raw_ratio") == 0)
        v = number(at(pt, "metrics", "rate", "acl_raw_ratio"));
    else if (strcmp(name, "slide_max_mm") == 0)
        v = number(at(pt, "metrics", "foot_contact", "slide_max_mm"));
    else if (strcmp(name, "held_bytes") == 0)
        v = number(at(pt, "memory", "held_bytes", NULL));
    else if (strcmp(name, "held_per_joint_sample") == 0)
        v = number(at(pt, "memory", "held_bytes_per_joint_sample", NULL));
    else if (strcmp(name, "stream_per_joint_sample") == 0)
        v = number(at(pt, "memory", "stream_bytes_per_joint_sample", NULL));
    else if (strcmp(name, "playback_ns") == 0 || strcmp(name, "seek_ns") == 0 || strcmp(name, "first_pose_ns") == 0) {
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(strlen(name) - 3), name);
        v = number(at(pt, "timings", key, "median_ns"));
    } else if (strcmp(name, "crowd_ns") == 0)
        v = number(at(pt, "timings", "crowd", "one_core_median_ns"));
    else if (strcmp(name, "every_core_poses_per_s") == 0)
        v = number(at(pt, "timings", "crowd", "poses_per_second"));
    else if (strcmp(name, "whole_clip_ns_per_joint_sample") == 0)
        v = number(at(pt, "timings", "whole_clip", "ns_per_joint_sample"));
    else {
        const int m = match_metric_find(name);
        if (m >= 0)
            v = summary_point_metric(pt, (match_metric)m);
    }
    if (isnan(v))
        snprintf(out, n, "%s", "");
    else if (col->kind == COL_COUNT)
        snprintf(out, n, "%.0f", v);
    else
        snprintf(out, n, "%.*g", digits, v);
}

static void emit(FILE *f, const char *format, const char *text, bool header)
{
    (void)header;
    if (strcmp(format, "csv") == 0) {
        if (strpbrk(text, ",\"\n")) {
            fputc('"', f);
            for (const char *p = text; *p; p++) {
                if (*p == '"')
                    fputc('"', f);
                fputc(*p, f);
            }
            fputc('"', f);
        } else {
            fputs(text, f);
        }
    } else if (strcmp(format, "latex") == 0) {
        for (const char *p = text; *p; p++) {
            if (strchr("&%$#_{}", *p))
                fprintf(f, "\\%c", *p);
            else if (*p == '~' || *p == '^' || *p == '\\')
                fprintf(f, "\\textascii%s{}", *p == '~' ? "tilde" : *p == '^' ? "circum" : "");
            else
                fputc(*p, f);
        }
    } else {
        for (const char *p = text; *p; p++) {
            if (*p == '|')
                fputs("\\|", f);
            else
                fputc(*p, f);
        }
    }
}

static const char *sort_key_a, *sort_key_b;
static int by_columns(const void *x, const void *y)
{
    const cJSON *a = *(const cJSON *const *)x, *b = *(const cJSON *const *)y;
    const cJSON *a1 = at(a, sort_key_a, "name", NULL), *b1 = at(b, sort_key_a, "name", NULL);
    int c = strcmp(cJSON_IsString(a1) ? a1->valuestring : "", cJSON_IsString(b1) ? b1->valuestring : "");
    if (c)
        return c;
    const cJSON *a2 = at(a, sort_key_b, "name", NULL), *b2 = at(b, sort_key_b, "name", NULL);
    c = strcmp(cJSON_IsString(a2) ? a2->valuestring : "", cJSON_IsString(b2) ? b2->valuestring : "");
    return c ? c : (a > b) - (a < b); /* stable: file order */
}

#define TABLE_USAGE                                                                                        \
    "usage: animbench table FILE.json [--format md|latex|csv] [--columns a,b,...] [--by clip|codec]\n"      \
    "                               [--digits 4] [--out FILE]\n"                                           \
    "  Any results file as a table: one row per point, the chosen columns (units in the header),\n"        \
    "  numbers to --digits significant digits, rows sorted by clip then codec (or codec then clip).\n"    \
    "  Columns: clip codec params knob target_mm reached frames bytes bytes_per_second gzip_bytes keys key_time_bytes\n"     \
    "  breakdown (the codec's parts: name=bytes; ...)\n"  \
    "  bits_per_joint_sample raw_ratio joint_max_mm joint_p99_mm shell_max_mm shell_p99_mm\n"             \
    "  between_max_mm between_shell_max_mm effector_max_mm slide_max_mm; from bench: held_bytes\n"          \
    "  held_per_joint_sample stream_per_joint_sample decodes_ahead playback_ns seek_ns first_pose_ns\n"  \
    "  crowd_ns every_core_poses_per_s whole_clip_ns_per_joint_sample\n"

int cmd_table(int argc, char **argv)
{
    const char *format = "md", *columns = "clip,codec,params,target_mm,reached,bytes,shell_max_mm,joint_max_mm",
               *by = "clip",
               *out = NULL, *path = NULL;
    int digits = 4;
    const cli_option options[] = {
        {"--format", CLI_TEXT, &format, 0, 0, 0}, {"--columns", CLI_TEXT, &columns, 0, 0, 0},
        {"--by", CLI_TEXT, &by, 0, 0, 0},         {"--digits", CLI_INT, &digits, 1, 17, 0},
        {"--out", CLI_TEXT, &out, 0, 0, 0},
    };
    const int parsed = cli_parse_file("table", argc, argv, &path, options, 5, TABLE_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (!path) {
        fprintf(stderr, "animbench table: needs a results FILE\n%s", TABLE_USAGE);
        return 2;
    }
    if (strcmp(format, "md") != 0 && strcmp(format, "latex") != 0 && strcmp(format, "csv") != 0) {
        fprintf(stderr, "animbench table: --format takes md, latex or csv, found '%s'\n", format);
        return 2;
    }
    if (strcmp(by, "clip") != 0 && strcmp(by, "codec") != 0) {
        fprintf(stderr, "animbench table: --by takes clip or codec, found '%s'\n", by);
        return 2;
    }
    const column *chosen[COLUMN_COUNT * 2];
    int ncol = 0;
    char list[1024];
    snprintf(list, sizeof list, "%s", columns);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const column *c = NULL;
        for (int i = 0; i < COLUMN_COUNT && !c; i++)
            if (strcmp(COLUMNS[i].name, tok) == 0)
                c = &COLUMNS[i];
        if (!c || ncol == COLUMN_COUNT * 2) {
            fprintf(stderr, "animbench table: --columns: unknown column '%s' (animbench table --help lists them)\n",
                    tok);
            return 2;
        }
        chosen[ncol++] = c;
    }
    if (ncol == 0) {
        fprintf(stderr, "animbench table: --columns is empty\n");
        return 2;
    }
    if (results_check_output("table", out, 0) != 0)
        return 2;
    int missing;
    char err[600];
    cJSON *doc = results_read(path, &missing, err, sizeof err);
    if (!doc) {
        fprintf(stderr, "animbench table: %s\n", err);
        return 2;
    }
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(doc, "points");
    const int n = cJSON_GetArraySize(points);
    const cJSON **rows = malloc(((size_t)n + 1) * sizeof *rows);
    char *text = NULL;
    size_t len = 0;
    FILE *f = rows ? open_memstream(&text, &len) : NULL;
    if (!f) {
        free(rows);
        cJSON_Delete(doc);
        return 1;
    }
    int k = 0;
    const cJSON *pt;
    cJSON_ArrayForEach(pt, points) rows[k++] = pt;
    sort_key_a = strcmp(by, "clip") == 0 ? "clip" : "codec";
    sort_key_b = strcmp(by, "clip") == 0 ? "codec" : "clip";
    qsort(rows, (size_t)n, sizeof *rows, by_columns);
    const bool md = strcmp(format, "md") == 0, latex = strcmp(format, "latex") == 0;
    if (latex) {
        fprintf(f, "\\begin{tabular}{");
        for (int c = 0; c < ncol; c++)
            fputc(chosen[c]->kind == COL_TEXT ? 'l' : 'r', f);
        fprintf(f, "}\n\\hline\n");
    }
    if (md)
        fputs("| ", f);
    for (int c = 0; c < ncol; c++) {
        if (c)
            fputs(md ? " | " : latex ? " & " : ",", f);
        emit(f, format, chosen[c]->header, true);
    }
    fputs(md ? " |\n|" : latex ? " \\\\\n\\hline\n" : "\n", f);
    for (int c = 0; md && c < ncol; c++)
        fputs(chosen[c]->kind == COL_TEXT ? "---|" : "---:|", f);
    if (md)
        fputc('\n', f);
    for (int r = 0; r < n; r++) {
        if (md)
            fputs("| ", f);
        for (int c = 0; c < ncol; c++) {
            char v[512];
            cell(rows[r], chosen[c], digits, v, sizeof v);
            if (c)
                fputs(md ? " | " : latex ? " & " : ",", f);
            emit(f, format, v, false);
        }
        fputs(md ? " |\n" : latex ? " \\\\\n" : "\n", f);
    }
    if (latex)
        fputs("\\hline\n\\end{tabular}\n", f);
    fclose(f);
    fputs(text, stdout);
    int rc = 0;
    if (out && write_file_atomic(out, text, len, err, sizeof err) != 0) {
        fprintf(stderr, "animbench table: %s\n", err);
        rc = 1;
    }
    free(text);
    free(rows);
    cJSON_Delete(doc);
    return rc;
}
