#include "generators/bvh.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/limits.h"
#include "core/quat.h"
#include "core/text_file.h"

/* ------------------------------------------------------------- lexing */

/* The lexer reads from a buffer that is either the whole input (bvh_parse)
 * or a window onto a file refilled as it is consumed (bvh_load), so a file
 * is never held in memory twice and its size does not bound the memory. */
#define BVH_CHUNK 65536
#define TOKEN_MAX 255 /* longer words are never valid BVH: refused as found */

typedef struct lexer {
    const char *text; /* the window */
    size_t size, pos; /* window length, read position in it */
    FILE *file;       /* NULL for an in-memory input */
    char *chunk;      /* the window's storage when reading a file */
    int read_failed;
    unsigned long long consumed; /* bytes before the window */
    unsigned long long total;    /* the input's size */
    int line, col;
    const char *name;
    char *err;
    size_t err_size;
    int failed;
} lexer;

typedef struct token {
    char start[TOKEN_MAX + 2];
    size_t len; /* 0 at end of input; TOKEN_MAX + 1 when longer */
    int line, col;
} token;

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* The next byte without consuming it, or EOF. */
static int peek(lexer *lx)
{
    if (lx->pos < lx->size)
        return (unsigned char)lx->text[lx->pos];
    if (!lx->file)
        return EOF;
    lx->consumed += lx->size;
    lx->size = fread(lx->chunk, 1, BVH_CHUNK, lx->file);
    lx->pos = 0;
    if (lx->size == 0) {
        lx->read_failed = ferror(lx->file);
        return EOF;
    }
    return (unsigned char)lx->text[0];
}

static unsigned long long bytes_left(const lexer *lx)
{
    const unsigned long long at = lx->consumed + lx->pos;
    return lx->total > at ? lx->total - at : 0;
}

static void advance(lexer *lx)
{
    const char c = lx->text[lx->pos++];
    /* \r\n, \n and a lone \r each end one line */
    if (c == '\n' || (c == '\r' && peek(lx) != '\n')) {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
}

static token next_token(lexer *lx)
{
    int c;
    while ((c = peek(lx)) != EOF && is_space(c))
        advance(lx);
    token t;
    t.len = 0;
    t.line = lx->line;
    t.col = lx->col;
    if (c == EOF)
        return t;
    if (c == '{' || c == '}') {
        t.start[t.len++] = (char)c;
        advance(lx);
        return t;
    }
    while ((c = peek(lx)) != EOF && !is_space(c) && c != '{' && c != '}') {
        if (t.len > TOKEN_MAX)
            break; /* every caller refuses it: stop reading a runaway word */
        t.start[t.len++] = (char)c;
        advance(lx);
    }
    return t;
}

/* What a token looks like in a message: printable, at most 40 characters. */
static void describe(const token *t, char *out, size_t n)
{
    if (t->len == 0) {
        snprintf(out, n, "end of file");
        return;
    }
    size_t k = 0;
    out[k++] = '\'';
    for (size_t i = 0; i < t->len && i < 40 && k + 5 < n; i++) {
        const unsigned char c = (unsigned char)t->start[i];
        if (isprint(c))
            out[k++] = (char)c;
        else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", c);
    }
    if (t->len > 40 && k + 4 < n)
        out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k++] = '\'';
    out[k] = '\0';
    if (t->len > TOKEN_MAX)
        snprintf(out + k, n - k, " (a word of over %d characters)", TOKEN_MAX);
}

static int fail_at(lexer *lx, const token *t, const char *expected)
{
    if (!lx->failed) {
        char found[200];
        describe(t, found, sizeof found);
        snprintf(lx->err, lx->err_size, "%s:%d:%d: expected %s, found %s", lx->name, t->line, t->col, expected, found);
        lx->failed = 1;
    }
    return -1;
}

static int fail_msg(lexer *lx, const token *t, const char *fmt, ...)
{
    if (!lx->failed) {
        char msg[300];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(lx->err, lx->err_size, "%s:%d:%d: %s", lx->name, t->line, t->col, msg);
        lx->failed = 1;
    }
    return -1;
}

static int is_word(const token *t, const char *word)
{
    return t->len == strlen(word) && strncmp(t->start, word, t->len) == 0;
}

static int expect_word(lexer *lx, const char *word)
{
    const token t = next_token(lx);
    if (is_word(&t, word))
        return 0;
    char what[64];
    snprintf(what, sizeof what, "'%s'", word);
    return fail_at(lx, &t, what);
}

static int parse_number_token(lexer *lx, const token *t, const char *what, double *out)
{
    char buf[64];
    if (t->len == 0 || t->len >= sizeof buf)
        return fail_at(lx, t, what);
    memcpy(buf, t->start, t->len);
    buf[t->len] = '\0';
    char *end;
    errno = 0;
    const double v = strtod(buf, &end);
    /* the whole token, so that a NUL byte inside it is not an end */
    if (end != buf + t->len || errno == ERANGE || !isfinite(v))
        return fail_at(lx, t, what);
    *out = v;
    return 0;
}

static int read_number(lexer *lx, const char *what, double *out)
{
    const token t = next_token(lx);
    return parse_number_token(lx, &t, what, out);
}

/* ----------------------------------------------------------- hierarchy */

enum channel { POS_X, POS_Y, POS_Z, ROT_X, ROT_Y, ROT_Z };

typedef struct joint {
    char name[RIG_NAME_MAX];
    int parent;
    double offset[3];
    int channel_count;
    unsigned char channels[6];
    int has_end_site;
    double end_site[3];
} joint;

typedef struct hierarchy {
    joint *joints;
    int count, capacity;
    int total_channels;
} hierarchy;

static int channel_of(const token *t)
{
    static const char *const NAMES[6] = {"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"};
    for (int i = 0; i < 6; i++)
        if (t->len == strlen(NAMES[i]) && strncasecmp(t->start, NAMES[i], t->len) == 0)
            return i;
    return -1;
}

static int read_offset(lexer *lx, double out[3])
{
    if (expect_word(lx, "OFFSET") != 0)
        return -1;
    for (int a = 0; a < 3; a++)
        if (read_number(lx, "a number (OFFSET has three)", &out[a]) != 0)
            return -1;
    return 0;
}

static int parse_joint(lexer *lx, hierarchy *h, int parent, int depth);

static int parse_end_site(lexer *lx, hierarchy *h, int parent)
{
    const token site = next_token(lx);
    if (!is_word(&site, "Site"))
        return fail_at(lx, &site, "'Site' after 'End'");
    if (parent < 0)
        return fail_msg(lx, &site, "an End Site needs a parent joint");
    if (expect_word(lx, "{") != 0 || read_offset(lx, h->joints[parent].end_site) != 0 || expect_word(lx, "}") != 0)
        return -1;
    h->joints[parent].has_end_site = 1;
    return 0;
}

/* After ROOT or JOINT: name { OFFSET CHANNELS (JOINT | End Site)* } */
static int parse_joint(lexer *lx, hierarchy *h, int parent, int depth)
{
    const token name = next_token(lx);
    if (name.len == 0 || is_word(&name, "{") || is_word(&name, "}"))
        return fail_at(lx, &name, "a joint name");
    if (name.len >= RIG_NAME_MAX)
        return fail_msg(lx, &name, "joint name longer than %d characters", RIG_NAME_MAX - 1);
    if (!utf8_printable(name.start, name.len)) /* results files carry joint names as JSON and TSV text */
        return fail_at(lx, &name, "a joint name in UTF-8 without control characters");
    if (depth >= LIMIT_DEPTH_MAX)
        return fail_msg(lx, &name, "hierarchy deeper than %d joints", LIMIT_DEPTH_MAX);
    if (h->count == LIMIT_JOINTS_MAX)
        return fail_msg(lx, &name, "more than %d joints", LIMIT_JOINTS_MAX);
    if (h->count == h->capacity) {
        const int cap = h->capacity ? h->capacity * 2 : 64;
        joint *j = realloc(h->joints, (size_t)cap * sizeof *j);
        if (!j)
            return fail_msg(lx, &name, "out of memory");
        h->joints = j;
        h->capacity = cap;
    }
    const int self = h->count++;
    joint *j = &h->joints[self];
    memset(j, 0, sizeof *j);
    memcpy(j->name, name.start, name.len);
    j->parent = parent;
    for (int i = 0; i < self; i++)
        if (strcmp(h->joints[i].name, j->name) == 0)
            return fail_msg(lx, &name, "joint name '%s' used twice", j->name);
    if (expect_word(lx, "{") != 0 || read_offset(lx, j->offset) != 0)
        return -1;
    token t = next_token(lx);
    if (is_word(&t, "CHANNELS")) {
        double n;
        const token count = next_token(lx);
        if (parse_number_token(lx, &count, "a channel count", &n) != 0)
            return -1;
        if (n < 0 || n > 6 || n != floor(n))
            return fail_at(lx, &count, "a channel count from 0 to 6");
        for (int c = 0; c < (int)n; c++) {
            const token ch = next_token(lx);
            const int kind = channel_of(&ch);
            if (kind < 0)
                return fail_at(lx, &ch, "a channel (Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation)");
            for (int k = 0; k < c; k++)
                if (h->joints[self].channels[k] == kind)
                    return fail_msg(lx, &ch, "channel listed twice on joint '%s'", h->joints[self].name);
            h->joints[self].channels[c] = (unsigned char)kind;
        }
        h->joints[self].channel_count = (int)n;
        h->total_channels += (int)n;
        t = next_token(lx);
    }
    for (;;) {
        if (is_word(&t, "}"))
            return 0;
        if (is_word(&t, "JOINT")) {
            if (parse_joint(lx, h, self, depth + 1) != 0)
                return -1;
        } else if (is_word(&t, "End")) {
            if (parse_end_site(lx, h, self) != 0)
                return -1;
        } else {
            return fail_at(lx, &t, "'JOINT', 'End Site' or '}'");
        }
        t = next_token(lx);
    }
}

/* -------------------------------------------------------------- motion */

static void joint_pose(const joint *j, const double *values, double unit, double *pos, double *rot)
{
    pos[0] = j->offset[0] * unit;
    pos[1] = j->offset[1] * unit;
    pos[2] = j->offset[2] * unit;
    double q[4] = {0, 0, 0, 1};
    for (int c = 0; c < j->channel_count; c++) {
        const int kind = j->channels[c];
        if (kind <= POS_Z) {
            pos[kind] = values[c] * unit;
            continue;
        }
        const double half = values[c] * DEG_TO_RAD / 2;
        double r[4] = {0, 0, 0, cos(half)}, out[4];
        r[kind - ROT_X] = sin(half);
        quat_mul(q, r, out);
        memcpy(q, out, sizeof q);
    }
    memcpy(rot, q, sizeof q);
}

/* The largest extent of the skeleton's non-root joints in its rest pose
 * (offsets only), in metres: what a wrong unit shows first (a CMU file read as metres
 * is about 25 m tall).  The rest pose, not a frame, so that a capture that
 * walks away from its origin is judged by its size, not by its path. */
static double rest_extent_m(const anim_rig *rig)
{
    const int nb = rig->bone_count;
    double *wp = malloc((size_t)nb * 3 * sizeof *wp);
    if (!wp)
        return 0;
    for (int b = 0; b < nb; b++)
        for (int a = 0; a < 3; a++)
            wp[b * 3 + a] = rig->rest_offsets[b * 3 + a] + (rig->parents[b] >= 0 ? wp[rig->parents[b] * 3 + a] : 0);
    /* roots left out: a root's child may sit metres away (a capture's
     * starting point stored as the hips' offset, as in the Bandai files) */
    double extent = 0;
    for (int a = 0; a < 3; a++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int b = 0; b < nb; b++)
            if (rig->parents[b] >= 0) {
                lo = fmin(lo, wp[b * 3 + a]);
                hi = fmax(hi, wp[b * 3 + a]);
            }
        if (hi >= lo)
            extent = fmax(extent, hi - lo);
    }
    free(wp);
    return extent;
}

static int parse(lexer *lx, const bvh_options *opt, bvh_result *out)
{
    const char *name = lx->name;
    char *err = lx->err;
    const size_t err_size = lx->err_size;
    hierarchy h = {0};
    double *row = NULL;
    int rc = -1;
    if (!(opt->unit_m > 0) || !isfinite(opt->unit_m)) {
        snprintf(err, err_size, "%s: the unit must be a positive number of metres", name);
        return -1;
    }
    if (expect_word(lx, "HIERARCHY") != 0)
        goto done;
    token t = next_token(lx);
    if (!is_word(&t, "ROOT")) {
        fail_at(lx, &t, "'ROOT'");
        goto done;
    }
    while (is_word(&t, "ROOT")) {
        if (parse_joint(lx, &h, -1, 0) != 0)
            goto done;
        t = next_token(lx);
    }
    if (!is_word(&t, "MOTION")) {
        fail_at(lx, &t, "'ROOT' or 'MOTION'");
        goto done;
    }
    double frames_d, frame_time;
    t = next_token(lx);
    if (!is_word(&t, "Frames:")) {
        fail_at(lx, &t, "'Frames:'");
        goto done;
    }
    const token ft = next_token(lx);
    char what[160];
    snprintf(what, sizeof what, "a frame count from %d to %d", LIMIT_FRAMES_MIN, LIMIT_FRAMES_MAX);
    if (parse_number_token(lx, &ft, what, &frames_d) != 0)
        goto done;
    if (frames_d < LIMIT_FRAMES_MIN || frames_d > LIMIT_FRAMES_MAX || frames_d != floor(frames_d)) {
        fail_at(lx, &ft, what);
        goto done;
    }
    if (expect_word(lx, "Frame") != 0 || expect_word(lx, "Time:") != 0)
        goto done;
    const token tt = next_token(lx);
    snprintf(what, sizeof what, "a frame time from %g to %g seconds (%g to %g frames per second)",
             1 / LIMIT_RATE_MAX_HZ, 1 / LIMIT_RATE_MIN_HZ, LIMIT_RATE_MIN_HZ, LIMIT_RATE_MAX_HZ);
    if (parse_number_token(lx, &tt, what, &frame_time) != 0)
        goto done;
    if (!(frame_time >= 1 / LIMIT_RATE_MAX_HZ && frame_time <= 1 / LIMIT_RATE_MIN_HZ)) {
        fail_at(lx, &tt, what);
        goto done;
    }
    snprintf(out->frame_time, sizeof out->frame_time, "%.*s", (int)(tt.len < 63 ? tt.len : 63), tt.start);
    const int frames = (int)frames_d, nc = h.total_channels;
    char limit[300];
    if (clip_limits_check(frames_d, h.count, 1.0 / frame_time, limit, sizeof limit) != 0) {
        fail_msg(lx, &ft, "%s", limit);
        goto done;
    }
    /* every value takes at least two bytes: refuse a count the file cannot hold */
    if ((double)frames * nc > (double)bytes_left(lx) / 2 + 1) {
        fail_msg(lx, &ft, "%d frames of %d channels need more values than the file has room for", frames, nc);
        goto done;
    }
    row = malloc(((size_t)nc + 1) * sizeof *row);
    out->rig = rig_create(h.count);
    out->clip = out->rig ? clip_create_rest(out->rig, frames, 1.0 / frame_time) : NULL;
    if (!row || !out->clip) {
        snprintf(err, err_size, "%s: out of memory for %d frames of %d joints", name, frames, h.count);
        goto done;
    }
    anim_rig *rig = out->rig;
    for (int i = 0; i < h.count; i++) {
        for (int a = 0; a < 3; a++)
            if (!(fabs(h.joints[i].offset[a] * opt->unit_m) <= LIMIT_POSITION_M) ||
                !(fabs(h.joints[i].end_site[a] * opt->unit_m) <= LIMIT_POSITION_M)) {
                snprintf(err, err_size, "%s: joint '%s': its OFFSET times the unit (%g m) is beyond %g m, out of range",
                         name, h.joints[i].name, opt->unit_m, LIMIT_POSITION_M);
                goto done;
            }
        memcpy(rig->names[i], h.joints[i].name, RIG_NAME_MAX);
        rig->parents[i] = h.joints[i].parent;
        for (int a = 0; a < 3; a++) {
            rig->rest_offsets[i * 3 + a] = h.joints[i].offset[a] * opt->unit_m;
            rig->end_site_offsets[i * 3 + a] = h.joints[i].end_site[a] * opt->unit_m;
        }
        rig->has_end_site[i] = (unsigned char)h.joints[i].has_end_site;
    }
    for (int f = 0; f < frames; f++) {
        for (int c = 0; c < nc; c++) {
            const token v = next_token(lx);
            if (v.len == 0) {
                if (lx->read_failed)
                    snprintf(err, err_size, "%s: read error after %d of %d frames", name, f, frames);
                else
                    fail_msg(lx, &v, "expected %d values per frame for %d frames; frame %d has only %d (end of file)",
                             nc, frames, f + 1, c);
                goto done;
            }
            snprintf(what, sizeof what, "a number (frame %d, channel %d of %d)", f + 1, c + 1, nc);
            if (parse_number_token(lx, &v, what, &row[c]) != 0)
                goto done;
        }
        const double *values = row;
        for (int i = 0; i < h.count; i++) {
            double pos[3], rot[4];
            joint_pose(&h.joints[i], values, opt->unit_m, pos, rot);
            if (!(fabs(pos[0]) <= LIMIT_POSITION_M && fabs(pos[1]) <= LIMIT_POSITION_M &&
                  fabs(pos[2]) <= LIMIT_POSITION_M)) {
                snprintf(err, err_size,
                         "%s: frame %d, joint '%s': its position times the unit (%g m) is beyond %g m, out of range",
                         name, f + 1, h.joints[i].name, opt->unit_m, LIMIT_POSITION_M);
                goto done;
            }
            values += h.joints[i].channel_count;
            for (int a = 0; a < 3; a++)
                clip_pos_channel(out->clip, i, a)[f] = pos[a];
            memcpy(clip_rot_track(out->clip, i) + (size_t)f * 4, rot, sizeof rot);
        }
    }
    t = next_token(lx);
    if (t.len != 0) {
        fail_msg(lx, &t, "expected end of file after %d frames of %d values, found more", frames, nc);
        goto done;
    }
    if (lx->read_failed) {
        snprintf(err, err_size, "%s: read error", name);
        goto done;
    }
    out->channel_count = nc;
    out->extent_m = rest_extent_m(out->rig);
    rc = 0;
done:
    free(row);
    free(h.joints);
    if (rc != 0)
        bvh_result_free(out);
    return rc;
}

static void lexer_init(lexer *lx, const char *text, size_t size, unsigned long long total, const char *name,
                       char *err, size_t err_size)
{
    memset(lx, 0, sizeof *lx);
    lx->text = text;
    lx->size = size;
    lx->total = total;
    lx->line = lx->col = 1;
    lx->name = name;
    lx->err = err;
    lx->err_size = err_size;
}

int bvh_parse(const char *text, size_t size, const char *name, const bvh_options *opt, bvh_result *out, char *err,
              size_t err_size)
{
    memset(out, 0, sizeof *out);
    lexer lx;
    lexer_init(&lx, text, size, size, name, err, err_size);
    return parse(&lx, opt, out);
}

int bvh_load(const char *path, const bvh_options *opt, bvh_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    unsigned long long size;
    int error_number;
    FILE *f = open_regular_file(path, LIMIT_BVH_FILE_BYTES, &size, &error_number, err, err_size);
    if (!f)
        return -1;
    char *chunk = malloc(BVH_CHUNK);
    if (!chunk) {
        fclose(f);
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    lexer lx;
    lexer_init(&lx, chunk, 0, size, path, err, err_size); /* an empty window: the first peek reads */
    lx.chunk = chunk;
    lx.file = f;
    const int rc = parse(&lx, opt, out);
    free(chunk);
    fclose(f);
    return rc;
}

void bvh_result_free(bvh_result *r)
{
    clip_free(r->clip);
    rig_free(r->rig);
    r->clip = NULL;
    r->rig = NULL;
}
