#include "harness/sweep/results.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/limits.h"
#include "core/text_file.h"
#include "generators/random_clip.h"
#include "codecs/study/study_plan.h"
#include "harness/measure/provenance.h"

/* A string as JSON text must be UTF-8: a path or an argument with another
 * byte in it is recorded with '_' in its place. */
static cJSON *add_text(cJSON *object, const char *key, const char *raw)
{
    char safe[4096];
    utf8_printable_copy(raw, safe, sizeof safe);
    return cJSON_AddStringToObject(object, key, safe);
}

static cJSON *text_item(const char *raw)
{
    char safe[4096];
    utf8_printable_copy(raw, safe, sizeof safe);
    return cJSON_CreateString(safe);
}

cJSON *results_context(int argc, char **argv)
{
    provenance p;
    provenance_collect(&p);
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "animbench_version", p.version);
    cJSON_AddStringToObject(c, "git_commit", p.git_commit);
    cJSON_AddStringToObject(c, "code_version", p.source_hash);
    cJSON_AddStringToObject(c, "compiler", p.compiler);
    cJSON_AddStringToObject(c, "cflags", p.cflags);
    cJSON_AddBoolToObject(c, "optimised_build", p.optimised);
    add_text(c, "cpu_model", p.cpu_model);
    cJSON_AddNumberToObject(c, "cores", p.cores);
    add_text(c, "os", p.os);
    cJSON_AddStringToObject(c, "zlib_version", p.zlib_version);
    cJSON_AddStringToObject(c, "acl_library", p.acl_library);
    cJSON_AddStringToObject(c, "ozz_library", p.ozz_library);
    cJSON_AddStringToObject(c, "date", p.date);
    cJSON *cmd = cJSON_AddArrayToObject(c, "command_line");
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(cmd, text_item(argv[i]));
    return c;
}

cJSON *results_document(int argc, char **argv)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "schema_version", RESULTS_SCHEMA_VERSION);
    cJSON_AddItemToObject(doc, "context", results_context(argc, argv));
    cJSON_AddArrayToObject(doc, "points");
    return doc;
}

static void hex64(uint64_t v, char out[19])
{
    snprintf(out, 19, "0x%016llx", (unsigned long long)v);
}

cJSON *results_clip(const clip_source *s)
{
    const anim_clip *c = s->clip;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", s->name);
    cJSON_AddStringToObject(j, "generator", s->generator);
    cJSON *params = cJSON_AddObjectToObject(j, "params");
    if (strncmp(s->generator, "study-", 6) == 0) {
        cJSON_AddNumberToObject(params, "fps", s->params.fps);
        cJSON_AddNumberToObject(params, "seconds",
                                strcmp(s->generator, "study-jump") == 0 ? s->params.jump_seconds : s->params.walk_seconds);
        if (strcmp(s->generator, "study-mocap") == 0)
            cJSON_AddNumberToObject(params, "seed", s->params.seed);
    } else if (strcmp(s->generator, "random") == 0) {
        random_clip_params rp;
        char ignored[300];
        if (random_clip_parse(s->name, &rp, ignored, sizeof ignored) == 0) {
            cJSON_AddNumberToObject(params, "bones", rp.bones);
            cJSON_AddNumberToObject(params, "frames", rp.frames);
            cJSON_AddNumberToObject(params, "rate", rp.rate);
            cJSON_AddNumberToObject(params, "seed", rp.seed);
            cJSON_AddNumberToObject(params, "branching", rp.branching);
            cJSON_AddNumberToObject(params, "depth", rp.depth);
        }
    } else {
        add_text(params, "path", s->path);
        cJSON_AddNumberToObject(params, "unit_m", s->params.unit_m);
        cJSON_AddStringToObject(params, "up_axis", s->params.up_axis == 2 ? "z" : "y");
        cJSON_AddStringToObject(params, "frame_time", s->frame_time);
    }
    cJSON_AddNumberToObject(j, "frames", c->frame_count);
    cJSON_AddNumberToObject(j, "fps", c->fps);
    cJSON_AddNumberToObject(j, "seconds", c->frame_count / c->fps);
    cJSON_AddNumberToObject(j, "bones", c->rig->bone_count);
    char h[19];
    hex64(s->sample_hash, h);
    cJSON_AddStringToObject(j, "sample_hash", h);
    return j;
}

void results_point_key(const measured_clip *mc, const codec *c, const codec_params *p, char *out, size_t n)
{
    char h[19], params[512], version[17];
    hex64(mc->source->sample_hash, h);
    codec_params_format(c, p, params, sizeof params);
    codec_cache_version(c, NULL, 0, version);
    const metric_params *m = &mc->metrics;
    snprintf(out, n, "measure@%s|%s@%s|%s@%s%s|metrics %.9g %.9g %d %.9g %.9g up=%c", provenance_measure_version(),
             mc->source->name, h, c->name, version, params, m->shell_distance_m, m->precision_m, m->substeps,
             m->contact.height_m, m->contact.speed_mps, mc->source->params.up_axis == 2 ? 'z' : 'y');
}

/* Where this point was measured: a sweep reuses points across runs, so the
 * file's context (the run that wrote it) need not be the run that measured
 * a point. */
static cJSON *point_provenance(const codec *c)
{
    provenance p;
    provenance_collect(&p);
    char version[17];
    codec_cache_version(c, NULL, 0, version);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "git_commit", p.git_commit);
    cJSON_AddStringToObject(j, "measure_version", provenance_measure_version());
    cJSON_AddStringToObject(j, "codec_version", version);
    cJSON_AddStringToObject(j, "compiler", p.compiler);
    cJSON_AddStringToObject(j, "cflags", p.cflags);
    add_text(j, "cpu_model", p.cpu_model);
    cJSON_AddStringToObject(j, "date", p.date);
    return j;
}

static cJSON *error_json(const anim_rig *rig, const joint_error *e)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "max_mm", e->max_m * 1000);
    cJSON_AddNumberToObject(j, "mean_mm", e->mean_m * 1000);
    cJSON_AddNumberToObject(j, "max_deg", e->max_deg);
    cJSON_AddStringToObject(j, "worst_joint", rig->names[e->worst_bone]);
    cJSON_AddNumberToObject(j, "worst_frame", e->worst_frame);
    return j;
}

static cJSON *distribution_json(const anim_rig *rig, const error_distribution *d, const char *where)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "max_mm", d->max * 1000);
    cJSON_AddNumberToObject(j, "mean_mm", d->mean * 1000);
    cJSON_AddNumberToObject(j, "median_mm", d->median * 1000);
    cJSON_AddNumberToObject(j, "p99_mm", d->p99 * 1000);
    cJSON_AddStringToObject(j, "worst_joint", rig->names[d->worst_joint]);
    cJSON_AddNumberToObject(j, where, d->worst_sample);
    cJSON_AddNumberToObject(j, "joint_samples", (double)d->count);
    return j;
}

static cJSON *metrics_json(const measured_clip *mc, const metrics_report *m)
{
    const anim_rig *rig = mc->source->clip->rig;
    const metric_params *p = &mc->metrics;
    cJSON *j = cJSON_CreateObject();
    cJSON *params = cJSON_AddObjectToObject(j, "params");
    cJSON_AddNumberToObject(params, "shell_distance_mm", p->shell_distance_m * 1000);
    cJSON_AddNumberToObject(params, "precision_mm", p->precision_m * 1000);
    cJSON_AddNumberToObject(params, "substeps", p->substeps);
    cJSON_AddNumberToObject(params, "contact_height_mm", p->contact.height_m * 1000);
    cJSON_AddNumberToObject(params, "contact_speed_m_per_s", p->contact.speed_mps);
    cJSON *at = cJSON_AddObjectToObject(j, "at_frames");
    cJSON_AddItemToObject(at, "joint_displacement", distribution_json(rig, &m->joint_m, "worst_frame"));
    cJSON *shell = distribution_json(rig, &m->shell_m, "worst_frame");
    cJSON_AddNumberToObject(shell, "above_precision_fraction", m->shell_above_precision);
    cJSON_AddItemToObject(at, "shell_distance", shell);
    if (m->substeps > 1) {
        cJSON *bt = cJSON_AddObjectToObject(j, "between_frames");
        cJSON_AddNumberToObject(bt, "substeps", m->substeps);
        cJSON_AddItemToObject(bt, "joint_displacement", distribution_json(rig, &m->between_joint_m, "worst_sample"));
        cJSON *bs = distribution_json(rig, &m->between_shell_m, "worst_sample");
        cJSON_AddNumberToObject(bs, "above_precision_fraction", m->between_shell_above_precision);
        cJSON_AddItemToObject(bt, "shell_distance", bs);
    }
    cJSON *eff = cJSON_AddObjectToObject(j, "end_effectors");
    cJSON_AddNumberToObject(eff, "count", m->effector_count);
    cJSON_AddItemToObject(eff, "joint_displacement", distribution_json(rig, &m->effector_m, "worst_frame"));
    cJSON *limbs = cJSON_AddArrayToObject(j, "limbs");
    for (int i = 0; i < m->limb_count; i++) {
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "end_effector", rig->names[m->limbs[i].joint]);
        cJSON_AddNumberToObject(l, "max_mm", m->limbs[i].max_m * 1000);
        cJSON_AddNumberToObject(l, "worst_frame", m->limbs[i].worst_sample);
        cJSON_AddItemToArray(limbs, l);
    }
    cJSON *ct = cJSON_AddObjectToObject(j, "foot_contact");
    cJSON_AddNumberToObject(ct, "feet", m->contact.feet);
    cJSON_AddNumberToObject(ct, "planted_frames", (double)m->contact.planted_frames);
    cJSON_AddNumberToObject(ct, "contacts", m->contact.contacts);
    cJSON_AddNumberToObject(ct, "slide_max_mm", m->contact.slide_max_m * 1000);
    cJSON_AddNumberToObject(ct, "slide_mean_mm", m->contact.slide_mean_m * 1000);
    cJSON_AddNumberToObject(ct, "sink_max_mm", m->contact.sink_max_m * 1000);
    cJSON_AddNumberToObject(ct, "sink_mean_mm", m->contact.sink_mean_m * 1000);
    cJSON *rate = cJSON_AddObjectToObject(j, "rate");
    cJSON_AddNumberToObject(rate, "bits_per_joint_sample", m->bits_per_joint_sample);
    cJSON_AddNumberToObject(rate, "acl_raw_ratio", m->acl_raw_ratio);
    return j;
}

cJSON *results_point(const measured_clip *mc, const point_result *r)
{
    const anim_clip *clip = mc->source->clip;
    const codec *c = r->codec;
    cJSON *j = cJSON_CreateObject();
    char key[512];
    results_point_key(mc, c, &r->params, key, sizeof key);
    cJSON_AddStringToObject(j, "key", key);
    cJSON_AddStringToObject(j, "code_version", provenance_code_version());
    cJSON_AddItemToObject(j, "provenance", point_provenance(c));
    cJSON_AddItemToObject(j, "clip", results_clip(mc->source));
    cJSON *cj = cJSON_AddObjectToObject(j, "codec");
    cJSON_AddStringToObject(cj, "name", c->name);
    cJSON_AddStringToObject(cj, "description", c->description);
    cJSON_AddBoolToObject(cj, "self_contained", !(c->flags & CODEC_NOT_SELF_CONTAINED));
    cJSON *params = cJSON_AddObjectToObject(cj, "params");
    for (int i = 0; i < c->param_count; i++) {
        const codec_param_decl *d = &c->params[i];
        const double v = codec_param_get(c, &r->params, i);
        if (d->type == PARAM_CHOICE) {
            char text[64];
            codec_param_text(d, v, text, sizeof text);
            cJSON_AddStringToObject(params, d->name, text);
        } else {
            cJSON_AddNumberToObject(params, d->name, v);
        }
    }
    if (codec_param_index(c, "tol_mm") >= 0 && codec_param_index(c, "lever_m") >= 0)
        cJSON_AddNumberToObject(params, "tol_deg", study_tolerance_deg(r->params.tol_mm, r->params.lever_m));
    const int knob = codec_knob(c);
    if (knob >= 0)
        cJSON_AddStringToObject(cj, "knob", c->params[knob].name);
    const double secs = clip->frame_count / clip->fps;
    cJSON_AddNumberToObject(j, "bytes", (double)r->bytes);
    cJSON_AddNumberToObject(j, "bytes_per_second", r->bytes / secs);
    cJSON_AddNumberToObject(j, "gzip_bytes", (double)r->gzip_bytes);
    cJSON_AddNumberToObject(j, "gzip_bytes_per_second", r->gzip_bytes / secs);
    cJSON_AddNumberToObject(j, "keys", (double)r->keys);
    if (r->key_time_bytes >= 0)
        cJSON_AddNumberToObject(j, "key_time_bytes", (double)r->key_time_bytes);
    if (r->part_count > 0) {
        cJSON *parts = cJSON_AddObjectToObject(j, "breakdown");
        for (int i = 0; i < r->part_count; i++)
            cJSON_AddNumberToObject(parts, r->parts[i].name, (double)r->parts[i].bytes);
    }
    char fp[17];
    snprintf(fp, sizeof fp, "%016llx", (unsigned long long)r->stream_fnv1a64);
    cJSON_AddStringToObject(j, "stream_fnv1a64", fp);
    cJSON *dec = cJSON_AddObjectToObject(j, "decoded");
    cJSON_AddBoolToObject(dec, "ok", r->decoded_ok);
    if (r->decoded_ok) {
        cJSON *e = error_json(clip->rig, &r->decoded);
        cJSON *child = e->child;
        while (child) {
            cJSON *next = child->next;
            cJSON_AddItemToObject(dec, child->string, cJSON_DetachItemViaPointer(e, child));
            child = next;
        }
        cJSON_Delete(e);
        cJSON_AddNumberToObject(dec, "fps_in_stream", r->decoded_fps);
    } else {
        cJSON_AddStringToObject(dec, "error", r->decode_error);
    }
    if (r->has_encoder) {
        cJSON_AddItemToObject(j, "encoder", error_json(clip->rig, &r->encoder));
        if (r->decoded_ok)
            cJSON_AddNumberToObject(j, "decoded_minus_encoder_max_mm",
                                    (r->decoded.max_m - r->encoder.max_m) * 1000);
    } else {
        cJSON_AddNullToObject(j, "encoder");
    }
    if (r->has_metrics)
        cJSON_AddItemToObject(j, "metrics", metrics_json(mc, &r->metrics));
    if (r->has_reported) {
        cJSON *own = cJSON_AddObjectToObject(j, "codec_reported");
        cJSON_AddNumberToObject(own, "max_mm", r->reported_error_mm);
        const int jt = r->reported_joint;
        if (jt >= 0 && jt < clip->rig->bone_count)
            cJSON_AddStringToObject(own, "joint", clip->rig->names[jt]);
        else
            cJSON_AddNullToObject(own, "joint");
        cJSON_AddNumberToObject(own, "frame", r->reported_frame);
    }
    if (r->key_histogram) {
        cJSON *h = cJSON_AddArrayToObject(j, "key_histogram");
        for (int f = 0; f < r->key_histogram_frames; f++)
            cJSON_AddItemToArray(h, cJSON_CreateNumber((double)r->key_histogram[f]));
    }
    return j;
}

static unsigned long long atomic_writes, atomic_bytes;

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISCHR(m) || S_ISBLK(m) ? "a device" : S_ISFIFO(m) ? "a pipe" : "not a regular file";
}

int results_output_path(const char *path, char *resolved, size_t n, char *err, size_t err_size)
{
    if (!path[0]) {
        snprintf(err, err_size, "an empty output path");
        return -1;
    }
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT) {
            snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        char folder[4096];
        snprintf(folder, sizeof folder, "%s", path);
        char *slash = strrchr(folder, '/');
        if (slash) {
            *slash = '\0';
            struct stat fs;
            if (folder[0] && (stat(folder, &fs) != 0 || !S_ISDIR(fs.st_mode))) {
                snprintf(err, err_size, "cannot write %s: the folder %s does not exist", path, folder);
                return -1;
            }
        }
        snprintf(resolved, n, "%s", path);
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        char *target = realpath(path, NULL);
        if (!target) {
            snprintf(err, err_size, "cannot write %s: a link to a file that does not exist (%s)", path, strerror(errno));
            return -1;
        }
        const int rc = stat(target, &st);
        snprintf(resolved, n, "%s", target);
        free(target);
        if (rc != 0) {
            snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
    } else {
        snprintf(resolved, n, "%s", path);
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "cannot write %s: it is %s, not a file%s", path, file_kind(st.st_mode),
                 S_ISDIR(st.st_mode) ? "; give a file name" : "");
        return -1;
    }
    return 0;
}

int results_check_output(const char *cmd, const char *path, int one_off)
{
    char resolved[4096], err[5000];
    if (!path)
        return 0;
    if (results_output_path(path, resolved, sizeof resolved, err, sizeof err) != 0 ||
        (one_off && results_check_replaceable(resolved, err, sizeof err) != 0)) {
        fprintf(stderr, "animbench %s: %s\n", cmd, err);
        return -1;
    }
    return 0;
}

int results_check_replaceable(const char *path, char *err, size_t err_size)
{
    int missing;
    char ignored[512];
    cJSON *doc = results_read(path, &missing, ignored, sizeof ignored);
    if (!doc)
        return 0; /* absent, or not a results file: an ordinary output */
    int count = 0;
    const cJSON *p, *owner = NULL;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "points"))
    {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(p, "sweeps");
        if (cJSON_GetArraySize(o) > 0) {
            count++;
            owner = owner ? owner : cJSON_GetArrayItem(o, 0);
        }
    }
    if (count > 0) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(owner, "name");
        snprintf(err, err_size, "%s holds %d points that sweep '%s' measured; this would replace them: give another "
                 "path", path, count, cJSON_IsString(name) ? name->valuestring : "?");
    }
    cJSON_Delete(doc);
    return count > 0 ? -1 : 0;
}

void results_write_stats(unsigned long long *files, unsigned long long *bytes)
{
    *files = atomic_writes;
    *bytes = atomic_bytes;
}

/* PATH.tmp.PID files whose process is gone were left by a killed run:
 * removed before writing PATH again. */
static void remove_stale_temporaries(const char *path)
{
    char folder[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path)
        snprintf(folder, sizeof folder, "/");
    DIR *d = opendir(folder);
    if (!d)
        return;
    const size_t n = strlen(base);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, base, n) != 0 || strncmp(e->d_name + n, ".tmp.", 5) != 0)
            continue;
        char *end;
        const long pid = strtol(e->d_name + n + 5, &end, 10);
        if (*end != '\0' || pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* its writer may still be running */
        char stale[8192];
        snprintf(stale, sizeof stale, "%s/%s", folder, e->d_name);
        unlink(stale);
    }
    closedir(d);
}

int write_file_atomic(const char *given, const char *text, size_t size, char *err, size_t err_size)
{
    char path[4096];
    if (results_output_path(given, path, sizeof path, err, err_size) != 0)
        return -1;
    remove_stale_temporaries(path);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    const bool ok = fwrite(text, 1, size, f) == size && fflush(f) == 0 && fsync(fileno(f)) == 0;
    const int saved = errno;
    if (fclose(f) != 0 || !ok) {
        snprintf(err, err_size, "cannot write %s: %s", tmp, strerror(ok ? errno : saved));
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    atomic_writes++;
    atomic_bytes += size;
    return 0;
}

int results_write(const char *path, const cJSON *doc, char *err, size_t err_size)
{
    char *text = cJSON_Print(doc);
    if (!text) {
        snprintf(err, err_size, "out of memory printing JSON");
        return -1;
    }
    const size_t n = strlen(text);
    char *with_newline = malloc(n + 2);
    int rc = -1;
    if (with_newline) {
        memcpy(with_newline, text, n);
        with_newline[n] = '\n';
        rc = write_file_atomic(path, with_newline, n + 1, err, err_size);
        free(with_newline);
    } else {
        snprintf(err, err_size, "out of memory");
    }
    cJSON_free(text);
    return rc;
}

static void text_position(const char *text, const char *at, long *line, long *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        *col = *p == '\n' ? 1 : *col + 1;
        *line += *p == '\n';
    }
}

/* JSON allows an object to name a key twice and says nothing of which wins;
 * a definition or a results file that does is refused, naming the place. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* JSON allows an object to name a key twice and says nothing of which wins;
 * a definition or a results file that does is refused, naming the place.
 * Each object's keys are sorted and compared neighbour to neighbour: n log n,
 * so a file of a hundred thousand keys is checked in milliseconds. */
static int find_duplicate_key(const cJSON *item, char *where, size_t where_size)
{
    const size_t at = strlen(where);
    if (cJSON_IsObject(item)) {
        int n = 0;
        for (const cJSON *c = item->child; c; c = c->next)
            n++;
        const char **names = n > 1 ? malloc((size_t)n * sizeof *names) : NULL;
        if (names) {
            int k = 0;
            for (const cJSON *c = item->child; c; c = c->next)
                names[k++] = c->string ? c->string : "";
            qsort(names, (size_t)n, sizeof *names, by_name);
            for (int i = 1; i < n; i++)
                if (strcmp(names[i - 1], names[i]) == 0) {
                    snprintf(where + at, where_size - at, "%s\"%s\"", at ? "." : "", names[i]);
                    free(names);
                    return 1;
                }
            free(names);
        }
    }
    int index = 0;
    for (const cJSON *c = item->child; c; c = c->next, index++) {
        if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
            if (cJSON_IsObject(item))
                snprintf(where + at, where_size - at, "%s%s", at ? "." : "", c->string);
            else
                snprintf(where + at, where_size - at, "[%d]", index);
            if (find_duplicate_key(c, where, where_size))
                return 1;
            where[at] = '\0';
        }
    }
    return 0;
}

cJSON *results_read_json(const char *path, int *missing, char *err, size_t err_size)
{
    size_t len;
    int error_number;
    char *text = read_whole_file(path, LIMIT_JSON_FILE_BYTES, &len, &error_number, err, err_size);
    *missing = !text && error_number == ENOENT;
    if (!text) {
        if (*missing)
            snprintf(err, err_size, "%s: no such file", path);
        return NULL;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    long line, col;
    if (!doc) {
        text_position(text, cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : text, &line, &col);
        snprintf(err, err_size, "%s:%ld:%ld: not valid JSON here", path, line, col);
    } else {
        while (end < text + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
            end++;
        char where[512] = "";
        if (end < text + len) {
            text_position(text, end, &line, &col);
            snprintf(err, err_size, "%s:%ld:%ld: text after the end of the JSON document", path, line, col);
            cJSON_Delete(doc);
            doc = NULL;
        } else if (find_duplicate_key(doc, where, sizeof where)) {
            snprintf(err, err_size, "%s: key %s appears twice in its object (JSON leaves unsaid which one counts)", path,
                     where);
            cJSON_Delete(doc);
            doc = NULL;
        }
    }
    free(text);
    return doc;
}

cJSON *results_read(const char *path, int *missing, char *err, size_t err_size)
{
    cJSON *doc = results_read_json(path, missing, err, err_size);
    if (doc && !cJSON_IsArray(cJSON_GetObjectItem(doc, "points"))) {
        snprintf(err, err_size, "%s: not an animbench results file (no \"points\" array)", path);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}
