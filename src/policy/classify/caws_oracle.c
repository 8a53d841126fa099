/* caws_oracle.c: oracle warp criticality for CAWS (Lee and Wu, "CAWS:
 * Criticality-Aware Warp Scheduling for GPGPU Workloads", PACT 2014; the
 * comparison point "CAWS with oracle criticality" of CAWA, Lee, Arunkumar,
 * Wu, ISCA 2015, Figure 13; SPEC-policies 9.5).
 *
 * Two runs of the same program and input:
 *   record=FILE  each warp's execution time (launch to exit, core cycles)
 *                is written to FILE, one line per warp:
 *                "<kernel launch #> <kernel name> <CTA linear id> <warp in CTA>
 *                <cycles>"; '#' lines are comments;
 *   oracle=FILE  the recorded time of each warp (matched by launch number,
 *                CTA id and warp index, so it holds whichever SM the CTA
 *                lands on) is published as the warp's score, which
 *                gcaws:greedy=0 (the oracle CAWS order) or gcaws reads.
 * With neither every warp scores 0 (and gcaws is GTO).
 * Either way a warp's requests carry tag 1 when its score is strictly above
 * the median of its CTA's live warps (as cpl.c), 0 otherwise.
 *
 * [CHOICE]s: the criticality is the whole recorded execution time (the
 * slowest warp of the first run is the most critical in the second); a
 * warp missing from the file scores 0; record mode buffers lines per SM and
 * appends them whenever the SM has no live warp left or the buffer is full
 * (SM 0's init truncates the file), so the file is complete once the run
 * ends; the oracle file lists its launches in non-decreasing order (as record
 * mode writes them: a kernel's warps all exit before the next kernel starts;
 * a file out of order is refused), so each kernel start reads on from where
 * the previous launch's lines ended instead of the whole file (a program of
 * a thousand launches would otherwise read it a thousand times per SM). */
#include "policy/classify/classify.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

#define ORC_MAX_SLOTS (4 * SCHED_MAX_WARPS)
#define ORC_BUF 256
#define ORC_NAME 64

struct orc_rec {
    uint64_t cta_id, cycles;
    uint32_t warp, seq;
};

struct orc {
    char path[PARAM_STR_MAX];
    uint32_t record, nslots;
    const struct classify_board *board;
    uint32_t seq; /* kernel launches seen */
    long pos;     /* oracle file offset of the first line of launch `seq` or later */
    char kname[ORC_NAME];
    /* per SM slot */
    uint64_t launch[ORC_MAX_SLOTS], cta_id[ORC_MAX_SLOTS];
    uint32_t warp[ORC_MAX_SLOTS], cta[ORC_MAX_SLOTS];
    int64_t score[ORC_MAX_SLOTS];
    uint8_t live[ORC_MAX_SLOTS];
    uint32_t nlive;
    /* record mode */
    struct orc_rec buf[ORC_BUF];
    uint32_t nbuf;
    /* oracle mode: the kernel's table (scratch), ctas x warps cycles */
    uint64_t *table;
    uint64_t tctas, twarps;
    uint64_t matched, unmatched; /* warps found / not found in the file */
};

static const struct param_desc orc_params[] = {
    {"record", PARAM_STR, "none", "write every warp's execution time to this file"},
    {"oracle", PARAM_STR, "none", "read the warps' execution times from this file"},
    {NULL, PARAM_INT, NULL, NULL},
};

/* Parse one line; 1 = a record, 0 = comment or blank, -1 = malformed. */
static int orc_parse(const char *line, uint32_t *seq, uint64_t *cta, uint32_t *warp,
                     uint64_t *cycles)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line == '#' || *line == '\n' || *line == '\0')
        return 0;
    char name[ORC_NAME];
    unsigned long long c, y;
    unsigned s, w;
    char end;
    int n = sscanf(line, "%u %63s %llu %u %llu %c", &s, name, &c, &w, &y, &end);
    if (n != 5)
        return -1;
    *seq = s;
    *cta = c;
    *warp = w;
    *cycles = y;
    return 1;
}

static int orc_check_file(const char *path, struct err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(e, WS_ERR_IO, "classifier 'caws_oracle': cannot read '%s'", path);
    char line[512];
    unsigned ln = 0;
    uint32_t last = 0;
    int rc = WS_OK;
    while (rc == WS_OK && fgets(line, sizeof line, f)) {
        ln++;
        uint32_t s = 0, w = 0;
        uint64_t c = 0, y = 0;
        int k = orc_parse(line, &s, &c, &w, &y);
        if (k < 0 || w >= 1u << 20 || c >= 1ull << 32)
            rc = err_set(e, WS_ERR_PARSE,
                         "%s:%u: expected '<launch> <kernel> <cta> <warp> <cycles>'", path, ln);
        else if (k == 1 && s < last)
            rc = err_set(e, WS_ERR_PARSE,
                         "%s:%u: launch %u after launch %u (launches must not decrease)", path,
                         ln, s, last);
        else if (k == 1)
            last = s;
    }
    fclose(f);
    return rc;
}

static int orc_init(void *priv, const struct param_set *p, const struct classify_init *in,
                    struct err *e)
{
    struct orc *o = priv;
    const char *rec = param_str(p, "record"), *ora = param_str(p, "oracle");
    int has_rec = strcmp(rec, "none") != 0, has_ora = strcmp(ora, "none") != 0;
    if (has_rec && has_ora)
        return err_set(e, WS_ERR_INVALID,
                       "classifier 'caws_oracle': give record=FILE or oracle=FILE, not both");
    if (in->nslots > ORC_MAX_SLOTS)
        return err_set(e, WS_ERR_INVALID,
                       "classifier 'caws_oracle': at most %d warp slots per SM, got %u",
                       ORC_MAX_SLOTS, in->nslots);
    o->record = (uint32_t)has_rec;
    o->board = in->board;
    o->nslots = in->nslots;
    if (!has_rec && !has_ora)
        return WS_OK;
    snprintf(o->path, sizeof o->path, "%s", has_rec ? rec : ora);
    if (has_ora)
        return orc_check_file(o->path, e);
    if (in->sm == 0) {
        FILE *f = fopen(o->path, "w");
        if (!f)
            return err_set(e, WS_ERR_IO, "classifier 'caws_oracle': cannot write '%s'", o->path);
        fprintf(f, "# warpsim caws_oracle: launch kernel cta warp cycles\n");
        fclose(f);
    }
    return WS_OK;
}

/* The SMs flush from their own host threads under the parallel engine
 * (--threads): one at a time, or their lines interleave mid-line. */
static pthread_mutex_t orc_file_lock = PTHREAD_MUTEX_INITIALIZER;

static void orc_flush(struct orc *o)
{
    if (!o->nbuf)
        return;
    pthread_mutex_lock(&orc_file_lock);
    FILE *f = fopen(o->path, "a");
    if (f) {
        for (uint32_t i = 0; i < o->nbuf; i++)
            fprintf(f, "%u %s %llu %u %llu\n", o->buf[i].seq, o->kname,
                    (unsigned long long)o->buf[i].cta_id, o->buf[i].warp,
                    (unsigned long long)o->buf[i].cycles);
        fclose(f);
    }
    pthread_mutex_unlock(&orc_file_lock);
    o->nbuf = 0;
}

/* Entries of launch `seq` in the oracle file, read from offset `*pos` (the
 * first line of launch `seq` or later) up to the first line of a later
 * launch: table dimensions, and when `table` is given, fill it and move
 * `*pos` past the launch's lines. */
static void orc_scan(const char *path, uint32_t seq, long *pos, uint64_t *ctas, uint64_t *warps,
                     uint64_t *table)
{
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[512];
    uint64_t nc = 0, nw = 0;
    long at = *pos;
    if (fseek(f, at, SEEK_SET) != 0)
        at = 0, rewind(f);
    while (fgets(line, sizeof line, f)) {
        uint32_t s, w;
        uint64_t c, y;
        int k = orc_parse(line, &s, &c, &w, &y);
        if (k == 1 && s > seq)
            break;
        at = ftell(f);
        if (k != 1 || s != seq)
            continue;
        if (table && c < *ctas && w < *warps)
            table[c * *warps + w] = y;
        nc = c + 1 > nc ? c + 1 : nc;
        nw = w + 1 > nw ? w + 1 : nw;
    }
    fclose(f);
    if (table)
        *pos = at;
    if (!table) {
        *ctas = nc;
        *warps = nw;
    }
}

static size_t orc_scratch(const void *priv, const struct sched_kernel *k)
{
    const struct orc *o = priv;
    (void)k;
    if (o->record)
        return 0;
    uint64_t c = 0, w = 0;
    long pos = o->pos;
    orc_scan(o->path, o->seq, &pos, &c, &w, NULL);
    return (size_t)(c * w * sizeof(uint64_t));
}

static int orc_is_critical(const struct orc *o, uint32_t s)
{
    uint32_t n = 0, below = 0;
    for (uint32_t i = 0; i < o->nslots; i++) {
        if (!o->live[i] || o->cta[i] != o->cta[s])
            continue;
        n++;
        below += o->score[i] < o->score[s];
    }
    return n > 0 && 2 * below > n - 1;
}

static uint32_t orc_tag(void *priv, const struct classify_req *r)
{
    struct orc *o = priv;
    return r->slot < o->nslots && o->live[r->slot] ? (uint32_t)orc_is_critical(o, r->slot) : 0;
}

static void orc_kernel(struct orc *o, const struct sched_kernel *k)
{
    snprintf(o->kname, sizeof o->kname, "%s", k->name && *k->name ? k->name : "-");
    for (char *c = o->kname; *c; c++)
        if (*c == ' ' || *c == '\t')
            *c = '_';
    o->table = NULL;
    o->tctas = o->twarps = 0;
    if (!o->record && k->scratch) {
        orc_scan(o->path, o->seq, &o->pos, &o->tctas, &o->twarps, NULL);
        if (o->tctas * o->twarps * sizeof(uint64_t) <= k->scratch_size) {
            o->table = k->scratch;
            orc_scan(o->path, o->seq, &o->pos, &o->tctas, &o->twarps, o->table);
        }
    }
    o->seq++;
}

static void orc_launch(struct orc *o, uint32_t s, const struct sched_event *ev)
{
    o->launch[s] = ev->now;
    o->cta_id[s] = ev->cta_id;
    o->warp[s] = ev->warp_in_cta;
    o->cta[s] = ev->cta;
    o->live[s] = 1;
    o->nlive++;
    o->score[s] = 0;
    if (!o->record) {
        int found = o->table && ev->cta_id < o->tctas && ev->warp_in_cta < o->twarps;
        if (found)
            o->score[s] = (int64_t)o->table[ev->cta_id * o->twarps + ev->warp_in_cta];
        o->matched += (uint64_t)found;
        o->unmatched += (uint64_t)!found;
    }
    classify_publish(o->board, s, 0, o->score[s]);
    for (uint32_t i = 0; i < o->nslots; i++)
        if (o->live[i] && o->cta[i] == o->cta[s])
            classify_publish(o->board, i, (uint32_t)orc_is_critical(o, i), o->score[i]);
}

/* The event kinds orc_event reads. */
enum {
    ORC_EVENTS =
        SCHED_EV_BIT(SCHED_EV_KERNEL_START) | SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) |
        SCHED_EV_BIT(SCHED_EV_WARP_EXIT)
};

static void orc_event(void *priv, const struct sched_event *ev)
{
    struct orc *o = priv;
    if (ev->kind == SCHED_EV_KERNEL_START && ev->kernel) {
        orc_kernel(o, ev->kernel);
        return;
    }
    if (ev->slot < 0 || (uint32_t)ev->slot >= o->nslots)
        return;
    uint32_t s = (uint32_t)ev->slot;
    if (ev->kind == SCHED_EV_WARP_LAUNCH) {
        orc_launch(o, s, ev);
    } else if (ev->kind == SCHED_EV_WARP_EXIT && o->live[s]) {
        o->live[s] = 0;
        o->nlive--;
        if (o->record) {
            o->buf[o->nbuf++] = (struct orc_rec){o->cta_id[s], ev->now - o->launch[s], o->warp[s],
                                               o->seq - 1};
            if (o->nbuf == ORC_BUF || o->nlive == 0)
                orc_flush(o);
        }
    }
}

static void orc_stats(void *priv, struct stats *s, uint32_t instances, size_t stride)
{
    struct orc *o = priv;
    stats_counter(s, "classify_oracle_matched", "CAWS oracle: warps found in the oracle file",
                  &o->matched, instances, stride);
    stats_counter(s, "classify_oracle_unmatched",
                  "CAWS oracle: warps missing from the oracle file (score 0)", &o->unmatched,
                  instances, stride);
}

CLASSIFY_POLICY(caws_oracle,
                .desc = "CAWS oracle criticality: record each warp's execution time, or publish "
                        "a recorded one as its score (Lee PACT 2014; CAWA ISCA 2015)",
                .priv_size = sizeof(struct orc), .params = orc_params, .init = orc_init,
                .tag = orc_tag, .on_event = orc_event,
                .events = ORC_EVENTS, .kernel_scratch = orc_scratch,
                .stats = orc_stats);
