/* What a sweep finds on disk: the output and the journal a killed run left, by key; and the
 * output it writes, assembled from them and from what this run measured.  Nothing here measures. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/limits.h"
#include "core/text_file.h"
#include "harness/sweep/owners.h"
#include "harness/sweep/results.h"
#include "harness/sweep/sweep_internal.h"

/* ------------------------------------------------- what is already stored */




static int by_key_then_order(const void *a, const void *b)
{
    const stored_point *x = a, *y = b;
    const int c = strcmp(x->key, y->key);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The definition that wrote a results file, from its context's command line
 * (`animbench sweep DEF`), or "" when no sweep wrote it. */
static void writer_definition(const cJSON *doc, char *def, size_t n)
{
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "context"),
                                                        "command_line");
    const cJSON *arg;
    bool is_sweep = false;
    def[0] = '\0';
    cJSON_ArrayForEach(arg, cmd)
    {
        if (!cJSON_IsString(arg))
            continue;
        if (is_sweep && arg->valuestring[0] != '-') {
            sweep_normalise_path(arg->valuestring, def, n);
            return;
        }
        is_sweep |= strcmp(arg->valuestring, "sweep") == 0;
    }
}

/* Points written before points named their owners get them now, once: the
 * one-owner form {"sweep": {...}} becomes a list, and a point with none is
 * given the definition that wrote its file (by name when that is this
 * definition), so that ownership never moves to whoever rewrites the file. */
static void stamp_owners(const sweep *s, cJSON *point, const char *writer)
{
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(point, "sweeps")))
        return;
    cJSON *one = cJSON_DetachItemFromObjectCaseSensitive(point, "sweep");
    cJSON *list = cJSON_CreateArray();
    if (one && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(one, "name")) &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(one, "definition")))
        cJSON_AddItemToArray(list, one);
    else {
        cJSON_Delete(one);
        if (writer[0])
            cJSON_AddItemToArray(list, owner_json(strcmp(writer, s->definition) == 0 ? s->name : "?", writer));
    }
    if (cJSON_GetArraySize(list) > 0)
        cJSON_AddItemToObject(point, "sweeps", list);
    else
        cJSON_Delete(list); /* written by run or match: nobody's, kept for good */
}

static int store_add(store *st, int *cap, cJSON *point, bool own)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(point, "key");
    if (!cJSON_IsString(k))
        return 0; /* not a point of ours to match; kept as it is (foreign) below */
    if (st->count == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        stored_point *more = realloc(st->items, (size_t)*cap * sizeof *more);
        if (!more)
            return -1;
        st->items = more;
    }
    st->items[st->count] = (stored_point){k->valuestring, st->count, point, own, false};
    st->count++;
    return 0;
}

/* A journal line is taken only if it is a point as this program writes it:
 * a string key, a codec with a name, a decoded block, and owners that are
 * name and definition strings.  Anything else (the header, a cut line,
 * garbage) is ignored. */
static bool journal_point(const cJSON *p)
{
    const cJSON *owners = cJSON_GetObjectItemCaseSensitive(p, "sweeps"), *o;
    if (!cJSON_IsObject(p) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, "key")) ||
        !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p, "codec"), "name")) ||
        !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(p, "decoded")) || !cJSON_IsArray(owners) ||
        cJSON_GetArraySize(owners) < 1)
        return false;
    cJSON_ArrayForEach(o, owners)
    {
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "name")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "definition")))
            return false;
    }
    return true;
}

/* Reads the journal a killed run left: every whole line is a point; a line
 * cut by the kill is ignored. */
static int read_journal(const char *path, store *st, char *err, size_t err_size)
{
    size_t len;
    int error_number;
    char *text = read_whole_file(path, LIMIT_JSON_FILE_BYTES, &len, &error_number, err, err_size);
    if (!text)
        return error_number == ENOENT ? 0 : -1;
    st->journal_points = cJSON_CreateArray();
    for (char *line = text, *nl; (nl = memchr(line, '\n', len - (size_t)(line - text))); line = nl + 1) {
        cJSON *point = cJSON_ParseWithLength(line, (size_t)(nl - line));
        if (journal_point(point)) {
            cJSON_AddItemToArray(st->journal_points, point);
            st->from_journal++;
        } else {
            cJSON_Delete(point); /* the header line */
        }
    }
    free(text);
    return 0;
}

void sweep_store_free(store *st)
{
    free(st->items);
    cJSON_Delete(st->output_doc);
    cJSON_Delete(st->journal_points);
    memset(st, 0, sizeof *st);
}

int sweep_store_load(const sweep *s, const char *journal, store *st)
{
    memset(st, 0, sizeof *st);
    int missing, cap = 0;
    char err[600];
    st->output_doc = results_read(s->target, &missing, err, sizeof err);
    if (!st->output_doc && !missing) {
        fprintf(stderr, "animbench sweep: %s (move it away or fix it; it was not touched)\n", err);
        return -1;
    }
    if (read_journal(journal, st, err, sizeof err) != 0) {
        fprintf(stderr, "animbench sweep: %s (move it away; it was not touched)\n", err);
        return -1;
    }
    char writer[1024] = "";
    if (st->output_doc)
        writer_definition(st->output_doc, writer, sizeof writer);
    cJSON *p;
    cJSON_ArrayForEach(p, st->journal_points)
    {
        stamp_owners(s, p, "");
        if (store_add(st, &cap, p, owners_has(p, s->name, s->definition)) != 0)
            return -1;
    }
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(st->output_doc, "points"))
    {
        stamp_owners(s, p, writer);
        if (store_add(st, &cap, p, owners_has(p, s->name, s->definition)) != 0)
            return -1;
    }
    if (st->count > 1)
        qsort(st->items, (size_t)st->count, sizeof *st->items, by_key_then_order);
    return 0;
}

/* The first stored point with this key (the journal's, when both have it). */
stored_point *sweep_store_find(store *st, const char *key)
{
    int lo = 0, hi = st->count;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (strcmp(st->items[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < st->count && strcmp(st->items[lo].key, key) == 0 ? &st->items[lo] : NULL;
}


static void mark_used(store *st, const char *key)
{
    for (stored_point *sp = sweep_store_find(st, key); sp && sp < st->items + st->count && strcmp(sp->key, key) == 0; sp++)
        sp->used = true;
}

/* Adds "sweep 'name' (definition)" of a kept point's owners to a list. */
static void note_owner(const cJSON *point, char *owners, size_t n)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(point, "sweeps");
    const cJSON *o = cJSON_GetArrayItem(list, 0);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name"),
                *def = cJSON_GetObjectItemCaseSensitive(o, "definition");
    char who[700];
    if (cJSON_IsString(name) && cJSON_IsString(def))
        snprintf(who, sizeof who, "sweep '%s' (%s)", name->valuestring, def->valuestring);
    else
        snprintf(who, sizeof who, "points no sweep measured");
    if (strstr(owners, who))
        return;
    const size_t len = strlen(owners);
    if (len + strlen(who) + 8 < n)
        snprintf(owners + len, n - len, "%s%s", len ? ", " : "", who);
    else if (len + 5 < n && !strstr(owners, "..."))
        snprintf(owners + len, n - len, ", ...");
}

/* The output document: the context of this run; every point of the
 * definition that has a result, in definition order, its owners this
 * definition and every other that named it before; then every other stored
 * point, as found, less this definition among its owners.  A point nobody
 * names any more is dropped (*dropped); *changed is set when an owner list
 * changed, so that the file is rewritten. */
cJSON *sweep_assemble(const sweep *s, store *st, int argc, char **argv, int *dropped, int *foreign, bool *changed,
                       char *owners, size_t owners_size)
{
    owners[0] = '\0';
    *dropped = *foreign = 0;
    cJSON *doc = results_document(argc, argv);
    cJSON *points = cJSON_GetObjectItem(doc, "points");
    cJSON *ordinals = NULL;
    if (s->shard_count) {
        cJSON *shard = cJSON_AddObjectToObject(doc, "shard");
        cJSON_AddNumberToObject(shard, "index", s->shard_index);
        cJSON_AddNumberToObject(shard, "count", s->shard_count);
        cJSON_AddStringToObject(shard, "sweep", s->name);
        cJSON_AddStringToObject(shard, "definition", s->definition);
        cJSON_AddStringToObject(shard, "definition_fnv1a64", s->definition_hash);
        cJSON_AddStringToObject(shard, "output", s->merged_output);
        int expected = 0;
        for (int i = 0; i < s->point_count; i++)
            expected += !s->points[i].duplicate && !s->points[i].other_shard;
        cJSON_AddNumberToObject(shard, "points_expected", expected);
        ordinals = cJSON_AddArrayToObject(shard, "ordinals");
    }
    for (int i = 0; i < s->point_count; i++) {
        const sweep_point *p = &s->points[i];
        if (p->duplicate || p->other_shard)
            continue;
        stored_point *sp = sweep_store_find(st, p->key);
        const cJSON *point = p->result ? p->result : sp ? sp->point : NULL;
        if (!point)
            continue; /* not measured: failed, or the run stopped first */
        cJSON *copy = cJSON_Duplicate(point, 1);
        if (p->result && sp) /* measured again (--force): whoever else named the stored one still does */
            owners_merge_others(copy, sp->point, s->name, s->definition);
        if (!p->result && owners_add(copy, s->name, s->definition))
            *changed = true;
        cJSON_AddItemToArray(points, copy);
        if (ordinals)
            cJSON_AddItemToArray(ordinals, cJSON_CreateNumber(p->ordinal));
        mark_used(st, p->key);
    }
    const cJSON *sources[2] = {cJSON_GetObjectItemCaseSensitive(st->output_doc, "points"), st->journal_points};
    for (int src = 0; src < 2; src++) {
        const cJSON *old;
        cJSON_ArrayForEach(old, sources[src])
        {
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(old, "key");
            stored_point *sp = cJSON_IsString(k) ? sweep_store_find(st, k->valuestring) : NULL;
            if (sp && sp->used)
                continue;
            cJSON *copy = cJSON_Duplicate(old, 1);
            if (owners_has(copy, s->name, s->definition)) {
                *changed = true;
                if (owners_remove(copy, s->name, s->definition) == 0) {
                    (*dropped)++;
                    cJSON_Delete(copy);
                    if (sp)
                        mark_used(st, sp->key);
                    continue;
                }
            }
            cJSON_AddItemToArray(points, copy);
            (*foreign)++;
            note_owner(copy, owners, owners_size);
            if (sp)
                mark_used(st, sp->key);
        }
    }
    for (int i = 0; i < st->count; i++)
        st->items[i].used = false;
    return doc;
}

/* ------------------------------------------------- lock and journal */


int sweep_journal_append(sweep_journal *j, const sweep *s, const cJSON *point)
{
    if (!j->f) {
        j->f = fopen(j->path, "a+b");
        if (!j->f)
            return -1;
        /* a line a killed run cut short stays its own (ignored) line */
        if (fseek(j->f, -1, SEEK_END) == 0 && fgetc(j->f) != '\n')
            fputc('\n', j->f);
        fseek(j->f, 0, SEEK_END);
        if (ftell(j->f) == 0) {
            cJSON *head = cJSON_CreateObject();
            cJSON_AddStringToObject(head, "animbench_journal_of", s->output);
            cJSON_AddStringToObject(head, "sweep", s->name);
            cJSON_AddStringToObject(head, "definition", s->definition);
            char *text = cJSON_PrintUnformatted(head);
            cJSON_Delete(head);
            const int bad = !text || fprintf(j->f, "%s\n", text) < 0;
            cJSON_free(text);
            if (bad)
                return -1;
        }
    }
    char *text = cJSON_PrintUnformatted(point);
    const int bad = !text || fprintf(j->f, "%s\n", text) < 0;
    cJSON_free(text);
    return bad ? -1 : 0;
}

int sweep_journal_sync(sweep_journal *j)
{
    return !j->f || (fflush(j->f) == 0 && fdatasync(fileno(j->f)) == 0) ? 0 : -1;
}

