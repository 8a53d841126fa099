/* dram.c: DRAM channel: policy-ranked request binding, bank state machine,
 * GDDR timing checks and data-bus occupancy. */
#include "timing/dram.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "policy/registry.h"

static uint64_t dram_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

int dram_prepare(const struct gpu_config *cfg, const struct dram_sched_ops **ops,
                 struct param_set *ps, struct err *e)
{
    if (cfg->dram_banks == 0 || cfg->dram_queue == 0 || cfg->dram_bus_bytes == 0 ||
        cfg->dram_data_rate == 0)
        return err_set(e, WS_ERR_INVALID,
                       "dram_banks, dram_queue, dram_bus_bytes and dram_data_rate must be "
                       "positive");
    if (registry_dram(cfg->dram_sched, ops, ps, e) != WS_OK)
        return err_prefix(e, "dram_sched: ");
    return WS_OK;
}

size_t dram_priv_stride(const struct dram_sched_ops *ops)
{
    return (ops->priv_size + 15) / 16 * 16 + (ops->priv_size ? 0 : 16);
}

int dram_init(struct dram_channel *ch, const struct gpu_config *cfg,
              const struct dram_sched_ops *ops, const struct param_set *ps, void *priv,
              struct err *e)
{
    memset(ch, 0, sizeof *ch);
    ch->ops = ops;
    ch->n_banks = cfg->dram_banks;
    ch->priv = priv;
    if (ch->ops->init && ch->ops->init(ch->priv, ps, ch->n_banks, e) != WS_OK) {
        dram_fini(ch);
        return err_prefix(e, "dram_sched: ");
    }
    ch->n_queues = 1;
    ch->qcap[0] = cfg->dram_queue;
    if (ch->ops->queues) {
        ch->n_queues = ch->ops->queues(ch->priv, cfg->dram_queue, ch->qcap);
        if (ch->n_queues == 0 || ch->n_queues > DRAM_MAX_QUEUES || !ch->ops->queue_of) {
            err_set(e, WS_ERR_INVALID, "dram_sched: policy '%s' declares %u queues (1..%u, "
                    "with queue_of)", ch->ops->name, ch->n_queues, DRAM_MAX_QUEUES);
            dram_fini(ch);
            return e->code;
        }
    }
    ch->cap = 0;
    for (uint32_t q = 0; q < ch->n_queues; q++) {
        if (ch->qcap[q] == 0) {
            err_set(e, WS_ERR_INVALID, "dram_sched: policy '%s': queue %u has no capacity",
                    ch->ops->name, q);
            dram_fini(ch);
            return e->code;
        }
        ch->cap += ch->qcap[q];
    }
    uint32_t slots = ch->cap + ch->n_queues; /* one spare per queue */
    ch->tCCD = cfg->tCCD;
    ch->tRRD = cfg->tRRD;
    ch->tRCD = cfg->tRCD;
    ch->tRCDWR = cfg->tRCD > cfg->WL + 1 ? cfg->tRCD - (cfg->WL + 1) : 1;
    ch->tRAS = cfg->tRAS;
    ch->tRP = cfg->tRP;
    ch->tRC = cfg->tRC;
    ch->CL = cfg->CL;
    ch->WL = cfg->WL;
    ch->blr = cfg->dram_burst / cfg->dram_data_rate;
    if (ch->blr == 0)
        ch->blr = 1;
    ch->tRTW = cfg->CL + ch->blr + 2 > cfg->WL ? cfg->CL + ch->blr + 2 - cfg->WL : 0;
    ch->tWTR = cfg->WL + ch->blr + cfg->tCDLR;
    ch->tWTP = cfg->WL + ch->blr + cfg->tWR;
    ch->bus_bytes_per_cycle = cfg->dram_bus_bytes * cfg->dram_data_rate;
    ch->latency = cfg->dram_latency;
    ch->bank = xcalloc(slots, sizeof *ch->bank);
    ch->row = xcalloc(slots, sizeof *ch->row);
    ch->tag = xcalloc(slots, sizeof *ch->tag);
    ch->req = xcalloc(slots, sizeof *ch->req);
    ch->arrival = xcalloc(slots, sizeof *ch->arrival);
    ch->is_write = xcalloc(slots, 1);
    ch->queue = xcalloc(slots, 1);
    if (ch->n_queues > 1) {
        ch->sub_idx = xcalloc(slots, sizeof *ch->sub_idx);
        ch->sub_bank = xcalloc(slots, sizeof *ch->sub_bank);
        ch->sub_row = xcalloc(slots, sizeof *ch->sub_row);
        ch->sub_tag = xcalloc(slots, sizeof *ch->sub_tag);
        ch->sub_arrival = xcalloc(slots, sizeof *ch->sub_arrival);
        ch->sub_is_write = xcalloc(slots, 1);
    }
    ch->bank_ready = xcalloc(ch->n_banks, 1);
    ch->open_row = xcalloc(ch->n_banks, sizeof *ch->open_row);
    ch->banks = xcalloc(ch->n_banks, sizeof *ch->banks);
    for (uint32_t b = 0; b < ch->n_banks; b++) {
        ch->banks[b].open_row = -1;
        ch->banks[b].cur = MEM_REQ_NONE;
    }
    uint32_t rcap = ch->cap + ch->n_banks + cfg->CL + cfg->WL + cfg->dram_latency + 16;
    ch->ret.cap = rcap;
    ch->ret.v = xcalloc(rcap, sizeof *ch->ret.v);
    ch->ret.t = xcalloc(rcap, sizeof *ch->ret.t);
    return WS_OK;
}

void dram_fini(struct dram_channel *ch)
{
    free(ch->bank);
    free(ch->row);
    free(ch->tag);
    free(ch->req);
    free(ch->arrival);
    free(ch->is_write);
    free(ch->queue);
    free(ch->sub_idx);
    free(ch->sub_bank);
    free(ch->sub_row);
    free(ch->sub_tag);
    free(ch->sub_arrival);
    free(ch->sub_is_write);
    free(ch->bank_ready);
    free(ch->open_row);
    free(ch->banks);
    free(ch->ret.v);
    free(ch->ret.t);
    memset(ch, 0, sizeof *ch);
}

uint32_t dram_data_cycles(const struct dram_channel *ch, uint32_t bytes)
{
    uint32_t c = (bytes + ch->bus_bytes_per_cycle - 1) / ch->bus_bytes_per_cycle;
    return c > ch->blr ? c : ch->blr;
}

uint32_t dram_queue_of(const struct dram_channel *ch, uint32_t tag)
{
    if (ch->n_queues == 1)
        return 0;
    uint32_t q = ch->ops->queue_of(ch->priv, tag);
    ws_assert(q < ch->n_queues);
    return q;
}

void dram_enqueue(struct dram_channel *ch, struct mem_pool *pool, uint32_t req, uint32_t bank,
                  uint32_t row, uint64_t now)
{
    struct mem_req *r = &pool->r[req];
    uint32_t q = dram_queue_of(ch, r->tag);
    ws_assert(ch->qn[q] <= ch->qcap[q] && bank < ch->n_banks);
    ch->qn[q]++;
    uint32_t i = ch->n++;
    ch->queue[i] = (uint8_t)q;
    ch->bank[i] = bank;
    ch->row[i] = row;
    ch->tag[i] = r->tag;
    ch->req[i] = req;
    ch->arrival[i] = now;
    ch->is_write[i] = r->kind == MEM_REQ_WRITE;
    r->arrival = now;
    ch->rebind = 1;
    r->row_hit = 0;
    r->activated = 0;
}

int dram_busy(const struct dram_channel *ch)
{
    return ch->n > 0 || ch->n_bound > 0 || ch->ret.n > 0;
}

static void dram_remove(struct dram_channel *ch, uint32_t i)
{
    uint32_t k = ch->n - i - 1;
    memmove(&ch->bank[i], &ch->bank[i + 1], k * sizeof *ch->bank);
    memmove(&ch->row[i], &ch->row[i + 1], k * sizeof *ch->row);
    memmove(&ch->tag[i], &ch->tag[i + 1], k * sizeof *ch->tag);
    memmove(&ch->req[i], &ch->req[i + 1], k * sizeof *ch->req);
    memmove(&ch->arrival[i], &ch->arrival[i + 1], k * sizeof *ch->arrival);
    memmove(&ch->is_write[i], &ch->is_write[i + 1], k);
    ch->qn[ch->queue[i]]--;
    memmove(&ch->queue[i], &ch->queue[i + 1], k);
    ch->n--;
}

/* The policy's pick over the pending requests: with one queue the whole
 * array; with several, one queue at a time (highest priority first), each
 * as a view of its own (arrival order kept).  Index into the whole array. */
static int dram_pick(struct dram_channel *ch, uint64_t now)
{
    struct dram_view v = {.n = ch->n, .bank = ch->bank, .row = ch->row,
                          .arrival = ch->arrival, .is_write = ch->is_write, .tag = ch->tag,
                          .bank_ready = ch->bank_ready, .open_row = ch->open_row,
                          .n_banks = ch->n_banks, .now = now};
    if (ch->n_queues == 1)
        return ch->ops->pick(ch->priv, &v);
    for (uint32_t q = 0; q < ch->n_queues; q++) {
        if (ch->qn[q] == 0)
            continue;
        uint32_t m = 0;
        for (uint32_t i = 0; i < ch->n; i++) {
            if (ch->queue[i] != q)
                continue;
            ch->sub_idx[m] = i;
            ch->sub_bank[m] = ch->bank[i];
            ch->sub_row[m] = ch->row[i];
            ch->sub_tag[m] = ch->tag[i];
            ch->sub_arrival[m] = ch->arrival[i];
            ch->sub_is_write[m] = ch->is_write[i];
            m++;
        }
        v.n = m;
        v.bank = ch->sub_bank;
        v.row = ch->sub_row;
        v.tag = ch->sub_tag;
        v.arrival = ch->sub_arrival;
        v.is_write = ch->sub_is_write;
        int k = ch->ops->pick(ch->priv, &v);
        if (k >= 0) {
            ws_assert((uint32_t)k < m);
            return (int)ch->sub_idx[k];
        }
    }
    return -1;
}

/* Bind queued requests to free banks, as the policy ranks them. */
static void dram_bind(struct dram_channel *ch, uint64_t now)
{
    if (ch->n == 0 || ch->n_bound == ch->n_banks || !ch->rebind)
        return;
    ch->rebind = 0;
    for (uint32_t b = 0; b < ch->n_banks; b++) {
        ch->bank_ready[b] = ch->banks[b].cur == MEM_REQ_NONE;
        ch->open_row[b] = ch->banks[b].open_row;
    }
    while (ch->n > 0 && ch->n_bound < ch->n_banks) {
        int i = dram_pick(ch, now);
        if (i < 0)
            return;
        ws_assert((uint32_t)i < ch->n && ch->bank_ready[ch->bank[i]]);
        struct dram_bank *bk = &ch->banks[ch->bank[i]];
        bk->cur = ch->req[i];
        bk->cur_row = ch->row[i];
        bk->cur_write = ch->is_write[i];
        ch->bank_ready[ch->bank[i]] = 0;
        ch->n_bound++;
        dram_remove(ch, (uint32_t)i);
    }
}

static int dram_try_column(struct dram_channel *ch, struct mem_pool *pool, uint32_t b,
                           uint64_t now)
{
    struct dram_bank *bk = &ch->banks[b];
    if (bk->cur == MEM_REQ_NONE || bk->open_row != (int64_t)bk->cur_row)
        return 0;
    if (ring_full(&ch->ret))
        return 0;
    struct mem_req *r = &pool->r[bk->cur];
    uint32_t dc = dram_data_cycles(ch, r->bytes);
    uint32_t bursts = (dc + ch->blr - 1) / ch->blr;
    if (bk->cur_write) {
        if (now < bk->next_wr || now < ch->next_wr_any || now + ch->WL < ch->bus_free)
            return 0;
        ch->bus_free = now + ch->WL + dc;
        ch->next_wr_any = now + ch->tCCD;
        ch->next_rd_any = dram_max(ch->next_rd_any, now + ch->tWTR);
        bk->next_pre = dram_max(bk->next_pre, now + ch->tWTP);
        ch->writes++;
        ch->write_bursts += bursts;
    } else {
        if (now < bk->next_rd || now < ch->next_rd_any || now + ch->CL < ch->bus_free)
            return 0;
        ch->bus_free = now + ch->CL + dc;
        ch->next_rd_any = now + ch->tCCD;
        ch->next_wr_any = dram_max(ch->next_wr_any, now + ch->tRTW);
        bk->next_pre = dram_max(bk->next_pre, now + ch->blr);
        ch->reads++;
        ch->read_bursts += bursts;
    }
    ch->busy_cycles += dc;
    ch->accesses++;
    r->row_hit = !r->activated;
    ch->row_hits += r->row_hit;
    ring_push_t(&ch->ret, bk->cur, ch->bus_free + ch->latency);
    bk->cur = MEM_REQ_NONE;
    ch->n_bound--;
    ch->rebind = 1;
    return 1;
}

static int dram_try_row(struct dram_channel *ch, struct mem_pool *pool, uint32_t b, uint64_t now)
{
    struct dram_bank *bk = &ch->banks[b];
    if (bk->cur == MEM_REQ_NONE)
        return 0;
    if (bk->open_row < 0) {
        if (now < bk->next_act || now < ch->next_act_any)
            return 0;
        bk->open_row = bk->cur_row;
        bk->next_rd = now + ch->tRCD;
        bk->next_wr = now + ch->tRCDWR;
        bk->next_pre = now + ch->tRAS;
        bk->next_act = now + ch->tRC;
        ch->next_act_any = now + ch->tRRD;
        ch->activates++;
        pool->r[bk->cur].activated = 1;
        return 1;
    }
    if (bk->open_row != (int64_t)bk->cur_row) {
        if (now < bk->next_pre)
            return 0;
        bk->open_row = -1;
        bk->next_act = dram_max(bk->next_act, now + ch->tRP);
        ch->precharges++;
        return 1;
    }
    return 0;
}

/* Earliest cycle at which any bound bank could issue its next command. */
static uint64_t dram_wake(const struct dram_channel *ch, uint64_t now)
{
    uint64_t best = UINT64_MAX;
    if (ring_full(&ch->ret))
        return now + 1;
    for (uint32_t b = 0; b < ch->n_banks; b++) {
        const struct dram_bank *bk = &ch->banks[b];
        uint64_t t;
        if (bk->cur == MEM_REQ_NONE)
            continue;
        if (bk->open_row == (int64_t)bk->cur_row) {
            uint32_t lat = bk->cur_write ? ch->WL : ch->CL;
            t = dram_max(bk->cur_write ? bk->next_wr : bk->next_rd,
                         bk->cur_write ? ch->next_wr_any : ch->next_rd_any);
            t = dram_max(t, ch->bus_free > lat ? ch->bus_free - lat : 0);
        } else if (bk->open_row < 0) {
            t = dram_max(bk->next_act, ch->next_act_any);
        } else {
            t = bk->next_pre;
        }
        if (t < best)
            best = t;
    }
    return best > now ? best : now + 1;
}

void dram_cycle(struct dram_channel *ch, struct mem_pool *pool, uint64_t now)
{
    if (!ch->rebind && now < ch->wake)
        return; /* no command can issue before wake */
    dram_bind(ch, now);
    ch->wake = UINT64_MAX;
    if (ch->n_bound == 0)
        return;
    uint32_t start = (uint32_t)(now % ch->n_banks); /* priority rotates every cycle */
    int done = 0;
    for (uint32_t k = 0; k < ch->n_banks && !done; k++) {
        uint32_t b = start + k < ch->n_banks ? start + k : start + k - ch->n_banks;
        done = dram_try_column(ch, pool, b, now);
    }
    for (uint32_t k = 0; k < ch->n_banks && !done; k++) {
        uint32_t b = start + k < ch->n_banks ? start + k : start + k - ch->n_banks;
        done = dram_try_row(ch, pool, b, now);
    }
    ch->wake = dram_wake(ch, now);
}

uint64_t dram_next_event(const struct dram_channel *ch, uint64_t now)
{
    if (ch->rebind && ch->n)
        return now;
    if (ch->n_bound == 0)
        return UINT64_MAX;
    return ch->wake > now ? ch->wake : now;
}
