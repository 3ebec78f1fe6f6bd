/* `animbench results-check`: which results files were measured by another code version.
 *
 * A results file with points (a sweep's, bench's) carries, per point, the version of the
 * measuring code and of its codec row (results.c: provenance.measure_version, codec_version):
 * the point is current when both equal this build's.  Any other results file (a summary, a
 * table, a figure, a timing table) is current when the versions recorded for it in the
 * manifest (results/manifest.json), taken from the points it was made from when it was made
 * (`--record --from`) or from the build that timed it (`--record --codecs`), equal this
 * build's.  A file with no record is reported too: nobody can tell what made it.
 *
 * Rows that this build cannot run (ACL without its headers) cannot be checked; they are
 * reported as such and do not fail the check. */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codecs/codec.h"
#include "core/limits.h"
#include "core/text_file.h"
#include "harness/commands/commands.h"
#include "harness/measure/provenance.h"
#include "harness/sweep/results.h"

#define RESULTS_CHECK_USAGE                                                                                    \
    "usage: animbench results-check [--manifest FILE] [--allow FILE] [--every-row FILE]... FILE...\n"          \
    "       animbench results-check --record (--from SOURCE.json | --codecs a,b,...) [--by TEXT]\n"            \
    "                               [--manifest FILE] FILE...\n"                                               \
    "  Lists every results FILE measured by another code version than this build's: a file with points\n"   \
    "  by its points' versions, any other file by the versions its manifest entry recorded (default\n"       \
    "  manifest: results/manifest.json).  A stale file named in the allow-list (lines 'FILE<TAB>why')\n"      \
    "  is reported with its reason and does not fail; any other stale or unrecorded file makes the\n"       \
    "  exit status 1.  A results file named by --every-row must also hold a point of every row this\n"      \
    "  build can run (make bench's results/bench.json: a row added to the registry and not benchmarked\n"  \
    "  is stale there).\n"                                                                                   \
    "  --record writes FILE's manifest entry: the versions of SOURCE's points (a summary or figure made\n"   \
    "  from them; SOURCE may be several files, a,b,c), or this build's versions of the rows named (a\n"     \
    "  table of timings).\n"

/* The versions a file's figures come from. */
typedef struct version_set {
    cJSON *measure; /* array of strings */
    cJSON *codecs;  /* object: name -> version */
    int points;
} version_set;

static void version_set_init(version_set *v)
{
    v->measure = cJSON_CreateArray();
    v->codecs = cJSON_CreateObject();
    v->points = 0;
}

static void version_set_free(version_set *v)
{
    cJSON_Delete(v->measure);
    cJSON_Delete(v->codecs);
}

static void add_measure(version_set *v, const char *m)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, v->measure)
    {
        if (cJSON_IsString(e) && strcmp(e->valuestring, m) == 0)
            return;
    }
    cJSON_AddItemToArray(v->measure, cJSON_CreateString(m));
}

/* A codec measured under two versions in one file keeps both: "a,b". */
static void add_codec(version_set *v, const char *name, const char *version)
{
    cJSON *e = cJSON_GetObjectItemCaseSensitive(v->codecs, name);
    if (!e) {
        cJSON_AddStringToObject(v->codecs, name, version);
        return;
    }
    if (cJSON_IsString(e) && strstr(e->valuestring, version))
        return;
    char both[512];
    snprintf(both, sizeof both, "%s,%s", cJSON_IsString(e) ? e->valuestring : "", version);
    cJSON_ReplaceItemInObjectCaseSensitive(v->codecs, name, cJSON_CreateString(both));
}

/* The versions of every point of a results document; -1 when it has no points array. */
static int versions_of_points(const cJSON *doc, version_set *v)
{
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(doc, "points"), *p;
    if (!cJSON_IsArray(points))
        return -1;
    cJSON_ArrayForEach(p, points)
    {
        const cJSON *prov = cJSON_GetObjectItemCaseSensitive(p, "provenance");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(prov, "measure_version");
        const cJSON *cv = cJSON_GetObjectItemCaseSensitive(prov, "codec_version");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p, "codec"), "name");
        add_measure(v, cJSON_IsString(m) ? m->valuestring : "none");
        if (cJSON_IsString(name))
            add_codec(v, name->valuestring, cJSON_IsString(cv) ? cv->valuestring : "none");
        v->points++;
    }
    return 0;
}

/* Compares a version set with this build.  Returns 0 current, 1 stale (why in `why`), and sets
 * *unchecked to the rows this build cannot run. */
static int compare_versions(const version_set *v, char *why, size_t n, char *unchecked, size_t un)
{
    why[0] = unchecked[0] = '\0';
    size_t w = 0, u = 0;
    const char *now = provenance_measure_version();
    const cJSON *e;
    cJSON_ArrayForEach(e, v->measure)
    {
        if (!cJSON_IsString(e) || strcmp(e->valuestring, now) != 0)
            w += (size_t)snprintf(why + w, w < n ? n - w : 0, "%smeasuring code %s (this build: %s)", w ? "; " : "",
                                  cJSON_IsString(e) ? e->valuestring : "?", now);
    }
    cJSON_ArrayForEach(e, v->codecs)
    {
        const codec *c = codec_find(e->string);
        if (!c) {
            w += (size_t)snprintf(why + w, w < n ? n - w : 0, "%srow %s, which no longer exists", w ? "; " : "",
                                  e->string);
            continue;
        }
        if (c->flags & CODEC_UNAVAILABLE) {
            u += (size_t)snprintf(unchecked + u, u < un ? un - u : 0, "%s%s", u ? ", " : "", c->name);
            continue;
        }
        char version[17];
        codec_cache_version(c, NULL, 0, version);
        if (!cJSON_IsString(e) || strcmp(e->valuestring, version) != 0)
            w += (size_t)snprintf(why + w, w < n ? n - w : 0, "%srow %s at %s (this build: %s)", w ? "; " : "",
                                  c->name, cJSON_IsString(e) ? e->valuestring : "?", version);
    }
    if (w >= n && n > 4)
        memcpy(why + n - 4, "...", 4);
    return w > 0;
}

static cJSON *read_manifest(const char *path, char *err, size_t err_size)
{
    int missing = 0;
    cJSON *doc = results_read_json(path, &missing, err, err_size);
    if (!doc && missing) {
        doc = cJSON_CreateObject();
        cJSON_AddNumberToObject(doc, "animbench_manifest", 1);
        cJSON_AddObjectToObject(doc, "files");
    }
    if (doc && !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "files"))) {
        snprintf(err, err_size, "%s: not a manifest (no \"files\" object)", path);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* For a file that should hold every row: appends to `why` the rows this build runs that it has no point
 * of.  Returns how many. */
static int rows_missing(const version_set *v, char *why, size_t n)
{
    size_t w = strlen(why);
    int missing = 0;
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);
        if ((c->flags & CODEC_UNAVAILABLE) || cJSON_GetObjectItemCaseSensitive(v->codecs, c->name))
            continue;
        w += (size_t)snprintf(why + w, w < n ? n - w : 0, "%s%s", missing ? ", " : w ? "; no point of row " : "no point of row ",
                              c->name);
        missing++;
    }
    if (w >= n && n > 4)
        memcpy(why + n - 4, "...", 4);
    return missing;
}

/* The allow-list: "FILE<TAB>reason" per line; '#' starts a comment. */
static char *allowed_reason(const char *list, const char *file)
{
    if (!list)
        return NULL;
    const size_t n = strlen(file);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, '\n');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > n && p[0] != '#' && strncmp(p, file, n) == 0 && p[n] == '\t') {
            char *why = malloc(len - n);
            if (why) {
                memcpy(why, p + n + 1, len - n - 1);
                why[len - n - 1] = '\0';
            }
            return why;
        }
        p += len + (end != NULL);
    }
    return NULL;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int record(const char *manifest_path, const char *from, const char *codecs, const char *by, char **files,
                  int nfiles)
{
    char err[600];
    version_set v;
    version_set_init(&v);
    if (from) { /* one results file, or several separated by commas (a summary of them all) */
        char list[4096];
        snprintf(list, sizeof list, "%s", from);
        for (char *save = NULL, *one = strtok_r(list, ",", &save); one; one = strtok_r(NULL, ",", &save)) {
            int missing = 0;
            cJSON *doc = results_read(one, &missing, err, sizeof err);
            if (!doc || versions_of_points(doc, &v) != 0) {
                fprintf(stderr, "animbench results-check: --from %s: %s\n", one,
                        doc ? "a results file without points" : err);
                cJSON_Delete(doc);
                version_set_free(&v);
                return 2;
            }
            cJSON_Delete(doc);
        }
    } else {
        add_measure(&v, provenance_measure_version());
        char copy[2048];
        snprintf(copy, sizeof copy, "%s", codecs);
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const codec *c = codec_find(tok);
            if (!c) {
                fprintf(stderr, "animbench results-check: --codecs: unknown codec '%s'\n", tok);
                version_set_free(&v);
                return 2;
            }
            char version[17];
            codec_cache_version(c, NULL, 0, version);
            add_codec(&v, c->name, version);
        }
    }
    cJSON *manifest = read_manifest(manifest_path, err, sizeof err);
    if (!manifest) {
        fprintf(stderr, "animbench results-check: %s\n", err);
        version_set_free(&v);
        return 2;
    }
    cJSON *entries = cJSON_GetObjectItemCaseSensitive(manifest, "files");
    char date[32];
    const time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    for (int i = 0; i < nfiles; i++) {
        cJSON *e = cJSON_CreateObject();
        if (by)
            cJSON_AddStringToObject(e, "made_by", by);
        if (from)
            cJSON_AddStringToObject(e, "from", from);
        else
            cJSON_AddStringToObject(e, "timed_rows", codecs);
        cJSON_AddItemToObject(e, "measure_versions", cJSON_Duplicate(v.measure, 1));
        cJSON_AddItemToObject(e, "codec_versions", cJSON_Duplicate(v.codecs, 1));
        cJSON_AddStringToObject(e, "recorded", date);
        cJSON_DeleteItemFromObjectCaseSensitive(entries, files[i]);
        cJSON_AddItemToObject(entries, files[i], e);
    }
    /* entries sorted by file, so that the manifest's diff shows what changed */
    const int count = cJSON_GetArraySize(entries);
    cJSON **items = count ? malloc((size_t)count * sizeof *items) : NULL;
    int k = 0;
    while (entries->child && items)
        items[k++] = cJSON_DetachItemViaPointer(entries, entries->child);
    for (int a = 1; a < k; a++)
        for (int b = a; b > 0 && strcmp(items[b - 1]->string, items[b]->string) > 0; b--) {
            cJSON *x = items[b];
            items[b] = items[b - 1];
            items[b - 1] = x;
        }
    for (int a = 0; a < k; a++)
        cJSON_AddItemToObject(entries, items[a]->string, items[a]);
    free(items);
    const int rc = results_write(manifest_path, manifest, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "animbench results-check: %s\n", err);
    cJSON_Delete(manifest);
    version_set_free(&v);
    return rc != 0;
}

int cmd_results_check(int argc, char **argv)
{
    const char *manifest_path = "results/manifest.json", *allow_path = NULL, *from = NULL, *codecs = NULL, *by = NULL;
    bool do_record = false;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    const char **every_row = calloc((size_t)argc + 1, sizeof *every_row);
    int nfiles = 0, nevery = 0;
    if (!files || !every_row) {
        free(files);
        free(every_row);
        fprintf(stderr, "animbench results-check: out of memory\n");
        return 1;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **target = strcmp(a, "--manifest") == 0 ? &manifest_path
                              : strcmp(a, "--allow") == 0  ? &allow_path
                              : strcmp(a, "--from") == 0   ? &from
                              : strcmp(a, "--codecs") == 0 ? &codecs
                              : strcmp(a, "--by") == 0     ? &by
                                                           : NULL;
        if (strcmp(a, "--every-row") == 0 && i + 1 < argc) {
            every_row[nevery++] = argv[++i];
        } else if (target || strcmp(a, "--every-row") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "animbench results-check: %s needs a value\n%s", a, RESULTS_CHECK_USAGE);
                free(files);
                free(every_row);
                return 2;
            }
            *target = argv[++i];
        } else if (strcmp(a, "--record") == 0) {
            do_record = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(RESULTS_CHECK_USAGE, stdout);
            free(files);
            free(every_row);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "animbench results-check: unknown option '%s'\n%s", a, RESULTS_CHECK_USAGE);
            free(files);
            free(every_row);
            return 2;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (nfiles == 0 || (do_record && !from == !codecs) || (!do_record && (from || codecs || by))) {
        fprintf(stderr, "animbench results-check: %s\n%s",
                nfiles == 0 ? "needs at least one FILE"
                : do_record ? "--record needs one of --from and --codecs"
                            : "--from, --codecs and --by go with --record",
                RESULTS_CHECK_USAGE);
        free(files);
        free(every_row);
        return 2;
    }
    if (do_record) {
        const int rc = record(manifest_path, from, codecs, by, files, nfiles);
        free(files);
        free(every_row);
        return rc;
    }
    char err[600];
    char *allow = NULL;
    if (allow_path) {
        size_t len;
        int error_number;
        allow = read_whole_file(allow_path, LIMIT_JSON_FILE_BYTES, &len, &error_number, err, sizeof err);
        if (!allow) {
            fprintf(stderr, "animbench results-check: --allow: %s\n", err);
            free(files);
            free(every_row);
            return 2;
        }
    }
    cJSON *manifest = read_manifest(manifest_path, err, sizeof err);
    if (!manifest) {
        fprintf(stderr, "animbench results-check: %s\n", err);
        free(allow);
        free(files);
        free(every_row);
        return 2;
    }
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(manifest, "files");
    int current = 0, stale = 0, allowed = 0, unknown = 0;
    for (int i = 0; i < nfiles; i++) {
        const char *f = files[i];
        if (strcmp(f, manifest_path) == 0 || (allow_path && strcmp(f, allow_path) == 0) ||
            strcmp(base_name(f), "README.md") == 0)
            continue;
        version_set v;
        version_set_init(&v);
        bool have = false;
        const size_t len = strlen(f);
        if (len > 5 && strcmp(f + len - 5, ".json") == 0) {
            int missing = 0;
            cJSON *doc = results_read_json(f, &missing, err, sizeof err);
            have = doc && versions_of_points(doc, &v) == 0;
            cJSON_Delete(doc);
        }
        const cJSON *e = have ? NULL : cJSON_GetObjectItemCaseSensitive(entries, f);
        if (e) {
            const cJSON *m, *c;
            cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(e, "measure_versions"))
            {
                if (cJSON_IsString(m))
                    add_measure(&v, m->valuestring);
            }
            cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(e, "codec_versions"))
            {
                if (cJSON_IsString(c))
                    add_codec(&v, c->string, c->valuestring);
            }
            have = true;
        }
        char why[2048], unchecked[1024];
        const char *state;
        int is_stale;
        if (!have) {
            is_stale = 1;
            snprintf(why, sizeof why, "no points and no entry in %s: what made it is not known", manifest_path);
            unchecked[0] = '\0';
        } else {
            is_stale = compare_versions(&v, why, sizeof why, unchecked, sizeof unchecked);
        }
        for (int k = 0; k < nevery; k++)
            if (strcmp(every_row[k], f) == 0 && rows_missing(&v, why, sizeof why) > 0)
                is_stale = 1;
        char *reason = is_stale ? allowed_reason(allow, f) : NULL;
        if (!is_stale) {
            state = "current";
            current++;
        } else if (reason) {
            state = "stale, allowed";
            allowed++;
        } else if (!have) {
            state = "UNKNOWN";
            unknown++;
        } else {
            state = "STALE";
            stale++;
        }
        printf("%-15s %s", state, f);
        if (is_stale)
            printf(": %s", why);
        if (reason)
            printf(" (allowed: %s)", reason);
        if (unchecked[0])
            printf(" [not checked here, not built: %s]", unchecked);
        printf("\n");
        free(reason);
        version_set_free(&v);
    }
    printf("results-check: %d current, %d stale and allowed, %d stale, %d of unknown origin\n", current, allowed,
           stale, unknown);
    printf("results-check: %d passed, %d failed\n", current + allowed, stale + unknown);
    cJSON_Delete(manifest);
    free(allow);
    free(files);
    free(every_row);
    return stale + unknown > 0;
}
