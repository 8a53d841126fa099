/* config.c: the key table of struct gpu_config, value parsing, unknown-key
 * suggestions, cross-field validation, printing and `--config` loading.
 * Presets live in presets.c, the GPGPU-Sim importer in gpgpusim.c. */
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/file.h"
#include "base/log.h"
#include "config/config_internal.h"

enum cfg_type {
    CFG_U32,    /* decimal count */
    CFG_U64,
    CFG_SIZE32, /* byte count with optional K/M/G (binary) suffix */
    CFG_SIZE64,
    CFG_DOUBLE,
    CFG_BOOL,   /* 0/1, true/false, yes/no, on/off; stored as uint32_t 0/1 */
    CFG_POLICY, /* name[:key=value,...], checked for syntax only */
    CFG_CHOICE, /* one of the '|'-separated words in `choices` */
};

struct cfg_key {
    const char *name;
    enum cfg_type type;
    size_t off;          /* offsetof(struct gpu_config, field) */
    size_t len;          /* string fields: buffer size */
    const char *def;     /* default, as text (config_defaults applies it) */
    uint64_t min, max;   /* integer range; max 0 = the type's range */
    const char *choices; /* CFG_CHOICE */
    int sim;             /* 1: simulation key, kept across presets */
    const char *doc;
    double dmin, dmax;   /* CFG_DOUBLE range */
};

#define F(field) offsetof(struct gpu_config, field)
#define S(field) offsetof(struct gpu_config, field), sizeof(((struct gpu_config *)0)->field)

#define K_U32(n, fld, d, lo, hi, doc) {n, CFG_U32, F(fld), 0, d, lo, hi, NULL, 0, doc, 0, 0}
#define K_U64(n, fld, d, lo, hi, doc) {n, CFG_U64, F(fld), 0, d, lo, hi, NULL, 1, doc, 0, 0}
#define K_SZ32(n, fld, d, lo, hi, doc) {n, CFG_SIZE32, F(fld), 0, d, lo, hi, NULL, 0, doc, 0, 0}
#define K_SZ64(n, fld, d, lo, hi, doc) {n, CFG_SIZE64, F(fld), 0, d, lo, hi, NULL, 1, doc, 0, 0}
#define K_DBL(n, fld, d, lo, hi, doc) {n, CFG_DOUBLE, F(fld), 0, d, 0, 0, NULL, 0, doc, lo, hi}
/* Every numeric key has a range: values outside it describe no machine
 * worth simulating and would make a run take forever (clock.core = 1e-300)
 * or exhaust host memory (sm.count = 100000).  The bounds are generous
 * multiples of today's GPUs; max_warp_insn alone keeps its type's range. */
#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define LAT_MAX 100000 /* cycles: any latency or interval */
#define K_BOOL(n, fld, d, doc) {n, CFG_BOOL, F(fld), 0, d, 0, 1, NULL, 0, doc, 0, 0}
#define K_POL(n, fld, d, doc) {n, CFG_POLICY, S(fld), d, 0, 0, NULL, 0, doc, 0, 0}

/* One cache's keys: prefix.sets ... prefix.latency. */
#define K_CACHE(p, fld, d_sets, d_line, d_assoc, d_pol, d_mshr, d_merge, d_mq, d_lat, what)    \
    K_U32(p ".sets", fld.sets, d_sets, 1, 1u << 20, what ": number of sets (power of two)"),          \
        K_U32(p ".line", fld.line, d_line, 4, 4096, what ": line size in bytes (power of two)"),  \
        K_U32(p ".assoc", fld.assoc, d_assoc, 1, 64, what ": associativity (ways, 1..64)"),    \
        K_POL(p ".policy", fld.policy, d_pol, what ": replacement/insertion policy spec"),      \
        K_U32(p ".mshr", fld.mshr_entries, d_mshr, 0, 4096, what ": MSHR entries (0 = blocking)"), \
        K_U32(p ".mshr_merge", fld.mshr_max_merge, d_merge, 1, 1024,                              \
              what ": requests one MSHR entry can merge"),                                     \
        K_U32(p ".miss_queue", fld.miss_queue, d_mq, 1, 4096, what ": miss queue entries"),       \
        K_U32(p ".latency", fld.hit_latency, d_lat, 0, LAT_MAX,                                      \
              what ": hit latency in cycles of its clock domain"),                              \
        {p ".index", CFG_CHOICE, S(fld.index), "linear", 0, 0, "linear|ccws_hash|fermi", 0,      \
         what ": set-index function: linear (line % sets), ccws_hash (the CCWS/DAWS "          \
              "simulator's (line % sets + 7 x tag) % sets), fermi (GPGPU-Sim's Fermi XOR hash, "  \
              "32 or 64 sets)", 0, 0}

/* Defaults are the GTX480 as modelled by GPGPU-Sim 3.x (configs/GTX480,
 * SPEC-policies.md 1.3 and 1.4); configs/README.md gives the source of every
 * value and marks our own choices. */
static const struct cfg_key cfg_keys[] = {
    /* ---- simulation ---- */
    {"mode", CFG_CHOICE, S(mode), "timing", 0, 0, "timing|functional", 1,
     "simulation mode: timing (cycle-level) or functional (execute only)", 0, 0},
    K_SZ64("device_memory", device_memory, "4G", 1, 1024 * GiB, "simulated device memory in bytes"),
    K_SZ64("local_memory_per_thread", local_memory_per_thread, "1M", 1, 16 * MiB,
           "local (stack) memory limit per thread in bytes"),
    K_SZ64("max_warp_insn", max_warp_insn, "1G", 0, 0,
           "warp instructions one launch may execute before it is stopped (0 = unlimited; "
           "the default stops a runaway kernel within minutes, 14x the largest built-in "
           "workload at size large)"),
    {"oob_read_zero", CFG_BOOL, F(oob_read_zero), 0, "0", 0, 1, NULL, 1,
     "1: a global-memory read outside every allocation returns zero and the kernel goes on "
     "(counted by oob_global_reads_zeroed, a warning at exit under warpsim exec) instead of "
     "faulting, as some old benchmarks expect; writes and atomics still fault", 0, 0},
    K_U64("deadlock_cycles", deadlock_cycles, "100000", 1, 1000000000,
          "watchdog: core cycles with no issue and no memory progress before the run stops"),
    K_U64("livelock_cycles", livelock_cycles, "10000000", 0, UINT64_MAX,
          "livelock watchdog: core cycles a CTA may have warps waiting at a barrier while its "
          "other warps run without reaching a barrier or exiting (0 = off)"),
    K_U64("timeline_interval", timeline_interval, "1000", 1, 1000000000,
          "core cycles between --timeline samples"),
    {"timeline_phases", CFG_U32, F(timeline_phases), 0, "0", 0, 256, NULL, 1,
     "timeline columns phase_warps_0..N-1: resident warps (all SMs) whose next "
     "instruction lies in each phase of the kernel, the last column also the later "
     "phases (Phase-aware Figs. 6-7, docs/phases.md; 0 = none)", 0, 0},
    {"racecheck", CFG_BOOL, F(racecheck), 0, "0", 0, 1, NULL, 1,
     "1: report shared-memory hazards between barriers (read after write, write after read, "
     "write after write by threads of different warps; docs/cuda.md), in either mode", 0, 0},
    {"func_order", CFG_CHOICE, S(func_order), "serial", 0, 0, "serial|interleaved", 1,
     "functional mode's execution order: serial (CTAs one after another, each warp until it "
     "waits at a barrier) or interleaved (func_window CTAs at a time, one instruction per "
     "warp in turn)", 0, 0},
    {"func_window", CFG_U32, F(func_window), 0, "16", 1, 65536, NULL, 1,
     "interleaved functional order: CTAs run together", 0, 0},
    {"sample.kernels", CFG_BOOL, F(sample_kernels), 0, "0", 0, 1, NULL, 1,
     "1: kernel-level sampled simulation: after sample.kernel_detail detailed launches of a "
     "kernel (same block, dynamic shared memory and power of two of CTAs), later ones run "
     "functionally and their cycles are estimated (sample_est_cycles)", 0, 0},
    {"sample.kernel_detail", CFG_U32, F(sample_kernel_detail), 0, "2", 2, 1000000, NULL, 1,
     "kernel-level sampling: launches of a group simulated in detail before the rest are "
     "estimated", 0, 0},
    {"sample.kernel_resample", CFG_U32, F(sample_kernel_resample), 0, "4", 0, 1000000, NULL, 1,
     "kernel-level sampling: a group's launches number base, base^2, base^3, ... are "
     "simulated in detail too, and an estimate uses the sample.kernel_detail most recent "
     "detailed launches of its stratum (0 or 1: only the first ones)", 0, 0},
    {"sample.warm", CFG_BOOL, F(sample_warm), 0, "1", 0, 1, NULL, 1,
     "sampled simulation: the global accesses of work run functionally (skipped launches, "
     "fast-forwarded CTAs) leave their lines in the L2 and in the L1D of the SM each CTA "
     "would have run on, as if they had run (functional warming; 0: the caches stay as the "
     "last detailed work left them)", 0, 0},
    {"sample.ctas", CFG_U64, F(sample_ctas), 0, "0", 0, UINT64_MAX, NULL, 1,
     "intra-kernel sampled simulation: CTAs of a launch simulated in detail, the rest run "
     "functionally and their cycles estimated from the steady rate (0 = all in detail)", 0,
     0},
    {"skip_idle_cycles", CFG_BOOL, F(skip_idle_cycles), 0, "1", 0, 1, NULL, 1,
     "1: jump over cycles in which nothing can happen, the whole GPU's and each SM's "
     "(results are identical either way)", 0, 0},
    {"threads", CFG_U32, F(threads), 0, "0", 0, 1024, NULL, 1,
     "host threads that simulate the SMs of the timing model (0 = the process's cores, "
     "switched off for stretches where one thread measures faster); statistics are identical "
     "for any count (docs/parallel.md)", 0, 0},

    /* ---- clocks ---- */
    K_DBL("clock.core", core_mhz, "700", 1, 100000, "SM core clock in MHz"),
    K_DBL("clock.icnt", icnt_mhz, "700", 1, 100000, "interconnect clock in MHz"),
    K_DBL("clock.l2", l2_mhz, "700", 1, 100000, "L2 clock in MHz"),
    K_DBL("clock.dram", dram_mhz, "924", 1, 100000, "DRAM command clock in MHz"),

    /* ---- SM ---- */
    K_U32("sm.count", n_sms, "15", 1, 1024, "number of SMs"),
    K_U32("sm.warps", max_warps_per_sm, "48", 1, 1024, "resident warp slots per SM"),
    K_U32("sm.threads", max_threads_per_sm, "1536", 32, 32768, "resident threads per SM"),
    K_U32("sm.ctas", max_ctas_per_sm, "8", 1, 1024, "resident CTAs per SM"),
    K_U32("sm.registers", regs_per_sm, "32768", 1, 1u << 24, "32-bit registers per SM"),
    K_U32("sm.regs_per_thread", regs_per_thread, "0", 0, 255,
          "registers per thread for occupancy (0 = ptxas's count where the kernel has one, "
          "as the built-in workloads do, else an estimate from the PTX's register pressure)"),
    K_U32("sm.regs_round", regs_round, "4", 1, 256,
          "a CTA's registers are allocated for its threads padded to whole warps, each "
          "thread's count rounded up to a multiple of this (GPGPU-Sim 3.x: 4; 1 = exact)"),
    K_SZ32("sm.shared", shared_per_sm, "48K", 0, 64 * MiB, "shared memory per SM in bytes"),
    K_U32("sm.schedulers", n_schedulers, "2", 1, 1024,
          "warp schedulers per SM (warp slot i goes to scheduler i % n)"),
    K_U32("sm.issue_interval", issue_interval, "1", 1, LAT_MAX,
          "core cycles between two issues of one scheduler"),
    K_U32("sm.max_issue_per_warp", max_issue_per_warp, "1", 1, 64,
          "instructions one warp may issue per issue slot"),
    K_U32("sm.ibuffer", ibuffer_entries, "2", 1, 64, "instruction buffer entries per warp"),
    K_POL("sm.sched", sched, "gto", "warp scheduler policy spec, e.g. gto, lrr"),
    K_POL("sm.classifier", classifier, "none",
          "request classifier spec: tags every memory request for the cache and DRAM "
          "policies and publishes per-warp values to the scheduler (none = tag 0)"),
    {"sm.issue_model", CFG_CHOICE, S(issue_model), "warp", 0, 0, "warp|lwm", 0,
     "how a picked warp's instruction issues (timing/issue.h): warp = the whole 32-lane warp "
     "as one step; lwm = large warps of lwm.rows x 32 threads issued as sub-warps (Narasiman "
     "MICRO 2011)", 0, 0},
    K_BOOL("sm.barrel", barrel, "0",
           "barrel processing (Narasiman MICRO 2011): a warp issues its next instruction only "
           "once its previous ones completed (results written back, loads' data returned; "
           "a store once the LD/ST unit took it); under sm.issue_model=lwm a row of a large warp "
           "with a load in flight joins no sub-warp; 0 = a scoreboard lets independent "
           "instructions issue"),
    K_BOOL("sm.store_ack", store_ack, "1",
           "1: the L2 acknowledges every store request with a reply of no data (a control "
           "packet, icnt.ctrl_bytes, on the reply network) and a warp completes, and a fence "
           "(membar) passes, only once its stores are acknowledged, as GPGPU-Sim 3.x (WRITE_ACK; "
           "shd_warp_t::stores_done()); 0: a store is done when the LD/ST unit has sent it"),
    K_BOOL("ptx.hoist_loads", hoist_loads, "0",
           "1: each module's global, local and texture loads move up their basic block, with "
           "the instructions they depend on, as a scheduling compiler places them (PTX-plus "
           "order, the code GPGPU-Sim 3.x papers ran; analysis/hoist.h); results are "
           "unchanged, the issue order moves; 0: nvcc's PTX order. Set before loading code"),
    K_BOOL("ptx.ptxas_regs", ptxas_regs, "0",
           "1: `warpsim exec` runs ptxas -v on each translation unit's PTX when it loads and "
           "sizes the kernels' CTAs with ptxas's register counts, as GPGPU-Sim 3.x does "
           "(ptxas: $WARPSIM_PTXAS, else on PATH, else /usr/local/cuda/bin; an error when "
           "none runs); 0: warpsim's estimate from the PTX's register pressure"),
    K_U32("lwm.rows", lwm_rows, "8", 1, 16,
          "rows of 32 threads per large warp under sm.issue_model=lwm (slides: 256-thread "
          "warps, 8 rows, are best); a CTA's warps are grouped in launch order"),

    /* ---- execution units ---- */
    K_U32("sp.units", sp_units, "2", 1, 64, "SP pipelines accepting one warp instruction a cycle"),
    K_U32("sp.latency", sp_latency, "4", 1, LAT_MAX, "SP latency in core cycles"),
    K_U32("sp.ii", sp_ii, "1", 1, LAT_MAX, "SP initiation interval in core cycles"),
    K_U32("sfu.units", sfu_units, "1", 1, 64, "SFU pipelines"),
    K_U32("sfu.latency", sfu_latency, "8", 1, LAT_MAX, "SFU latency in core cycles"),
    K_U32("sfu.ii", sfu_ii, "8", 1, LAT_MAX, "SFU initiation interval in core cycles"),
    K_U32("dp.units", dp_units, "0", 0, 64, "DP pipelines (0: DP runs on the SFU)"),
    K_U32("dp.latency", dp_latency, "8", 1, LAT_MAX, "DP latency in core cycles"),
    K_U32("dp.ii", dp_ii, "8", 1, LAT_MAX, "DP initiation interval in core cycles"),
    K_U32("int.units", int_units, "0", 0, 64, "INT pipelines (0: INT runs on the SP)"),
    K_U32("int.latency", int_latency, "4", 1, LAT_MAX, "INT latency in core cycles"),
    K_U32("int.ii", int_ii, "1", 1, LAT_MAX, "INT initiation interval in core cycles"),
    K_U32("ldst.units", ldst_units, "1", 1, 64, "memory instructions accepted per cycle"),

    /* ---- shared memory ---- */
    K_U32("smem.banks", smem_banks, "32", 1, 64, "shared memory banks (4 bytes wide)"),
    K_U32("smem.latency", smem_latency, "3", 1, LAT_MAX,
          "shared memory access latency in core cycles (plus bank-conflict cycles)"),

    /* ---- L1 caches ---- */
    K_BOOL("l1d.enabled", l1d_enabled, "1", "0: global loads bypass the L1 data cache"),
    {"l1d.latency_on", CFG_CHOICE, S(l1d_latency_on), "all", 0, 0, "all|hits", 0,
     "which L1D accesses pay l1d.latency: all (hits and fills) or hits (the CCWS/DAWS "
     "simulator's -L1_HIT_LATENCY: a fill delivers its data at once)", 0, 0},
    K_BOOL("l1d.flush", l1d_flush, "0",
           "1: invalidate every L1D and constant cache (and the lost-locality victim tags) "
           "when a kernel ends (GPGPU-Sim -gpgpu_flush_l1_cache)"),
    K_CACHE("l1d", l1d, "32", "128", "4", "lru", "32", "8", "8", "1", "L1 data cache"),
    K_CACHE("l1c", l1c, "64", "64", "2", "lru", "2", "32", "4", "1", "L1 constant cache"),
    /* GPGPU-Sim's GTX480 (configs/tested-cfgs/SM2_GTX480): -gpgpu_tex_cache:l1
     * N:4:128:24,L:R:m:N:L,T:128:4,128:2 (12 KB, LRU, 128 MSHR entries merging 4) */
    K_CACHE("tex", l1t, "4", "128", "24", "lru", "128", "4", "128", "1",
            "L1 texture cache (tex/tld4 fetches)"),
    K_BOOL("tex.enabled", tex_enabled, "1",
           "0: texture fetches bypass the texture cache and go through the L1D as global loads "
           "(tex.* defaults: GPGPU-Sim's GTX480 -gpgpu_tex_cache:l1 "
           "N:4:128:24,L:R:m:N:L,T:128:4,128:2, hit latency 1 is our choice)"),
    K_BOOL("tex.nc", tex_nc, "0",
           "1: ld.global.nc (__ldg, const __restrict__ loads) also read through the texture "
           "cache, the read-only data path of Fermi/Kepler (default 0: they use the L1D)"),
    K_CACHE("l1i", l1i, "4", "128", "4", "lru", "2", "32", "4", "1", "L1 instruction cache"),
    K_BOOL("coalesce.sectored", coalesce_sectored, "0",
           "1: every coalesced segment is 32 bytes (sectored, SPEC 1.3)"),

    /* ---- interconnect ---- */
    K_U32("icnt.latency", icnt_latency, "8", 0, LAT_MAX, "crossbar latency in icnt cycles, each way"),
    K_U32("icnt.flit", icnt_flit_bytes, "32", 1, 4096, "bytes a crossbar port moves per icnt cycle"),
    K_U32("icnt.queue", icnt_queue, "16", 1, 4096, "packets buffered per crossbar port"),
    K_U32("icnt.ctrl_bytes", icnt_ctrl_bytes, "8", 0, 4096,
          "control bytes a packet that carries data (a write, a read reply) adds to it "
          "(GPGPU-Sim 3.x: 8, its READ_PACKET_SIZE / WRITE_PACKET_SIZE: a 128-byte reply is "
          "136 bytes, 5 flits of 32); a read request is 8 bytes either way"),

    /* ---- memory partitions ---- */
    K_U32("mem.channels", n_channels, "6", 1, 256, "DRAM channels (memory partitions)"),
    K_U32("mem.subparts", subparts_per_channel, "2", 1, 64,
          "memory sub-partitions (L2 slices) per channel"),
    K_BOOL("l2.enabled", l2_enabled, "1", "0: no L2, requests go straight to DRAM"),
    K_CACHE("l2", l2, "64", "128", "8", "lru", "32", "4", "4", "0",
            "L2 slice (per sub-partition)"),
    K_U32("l2.banks", l2_banks, "1", 1, 256, "banks per L2 slice"),
    K_U32("l2.ports", l2_ports, "1", 1, 64, "accesses one L2 bank serves per L2 cycle"),
    K_U32("l2.bank_queue", l2_bank_queue, "8", 1, 4096, "request queue entries per L2 bank"),
    K_U32("l2.reply_queue", l2_reply_queue, "8", 0, 4096,
          "0: an L2 slice's reply queue to the interconnect is unbounded; else it holds this "
          "many replies, and while it is full no request is looked up (GPGPU-Sim 3.x: the "
          "L2-to-icnt queue, the last field of -gpgpu_dram_partition_queues, default 8; "
          "replies of DRAM fills enter it regardless, and so do bypassed reads' unless "
          "l2.fill_queue > 0)"),
    K_U32("l2.fill_queue", l2_fill_queue, "0", 0, 4096,
          "0: every DRAM return that is ready fills its L2 slice at once (only l2.port_bytes "
          "holds fills back); else each L2 bank has a DRAM-to-L2 queue of this many returns "
          "(MeDiC Section 5: per-bank DRAM-to-L2 queues; GPGPU-Sim 3.x has one of 8 per slice, "
          "the third field of -gpgpu_dram_partition_queues): a return enters its bank's queue "
          "while it has room (a full one holds the channel's returns at their head) and each "
          "bank takes one return per L2 cycle from it, beside its lookups; a bypassed read's "
          "data (or a write acknowledgement) waits at the head of its queue while the reply "
          "queue is full (l2.reply_queue); write-backs take no place"),
    K_BOOL("l2.memcpy_fill", l2_memcpy_fill, "0",
           "1: host-to-device copies leave their lines in the L2, as GPGPU-Sim 4.x's "
           "-gpgpu_perf_sim_memcpy (no 3.x release had it: the first kernel starts cold)"),
    K_U32("l2.sector_bytes", l2_sector_bytes, "0", 0, 4096,
          "0: the L2 fetches and keeps whole lines; else lines of sectors of this many bytes "
          "(GPGPU-Sim 4.x sectored L2 'S:', 32 B): a miss fetches the sectors its request "
          "covers, a read needing a missing sector of a present line is a sector miss"),
    K_U32("l2.port_bytes", l2_port_bytes, "32", 0, 4096,
          "0: an L2 slice moves any amount of data per l2 cycle; else the width in bytes of "
          "its data port and of its fill port (GPGPU-Sim 3.2.2's L2 data port, GTX480: 32): a "
          "hit occupies the data port ceil(request bytes / width) l2 cycles, a miss that "
          "writes a dirty line back ceil(line / width), a DRAM fill the fill port "
          "ceil(fetched bytes / width); no lookup starts while the data port is occupied, no "
          "fill while the fill port is"),
    K_BOOL("l2.flush", l2_flush, "0",
           "1: invalidate the L2 when a kernel ends (the CCWS/DAWS simulator's flush)"),
    {"l2.index_addr", CFG_CHOICE, S(l2_index_addr), "channel", 0, 0, "channel|full", 0,
     "address the L2 set index is taken from: channel (channel bits removed, GPGPU-Sim "
     "3.2.1 and later) or full (GPGPU-Sim 3.1 and 3.2.0, the CCWS/DAWS simulator)", 0, 0},
    K_U32("l2.input_ports", l2_input_ports, "1", 1, 64,
          "interconnect ports of an L2 sub-partition: packets it can be receiving at once "
          "(MeDiC's dual-ported partition, SPEC 7.6: 2)"),
    K_BOOL("l2.rotate", l2_rotate, "0",
           "1: the L2 bank served first rotates every L2 cycle (MeDiC, SPEC 7.6); 0: bank 0 "
           "first"),
    K_U32("l2.rop_latency", l2_rop_latency, "120", 0, LAT_MAX,
          "l2 cycles every request (hit or miss) waits between arriving at its L2 sub-partition "
          "and entering its bank queue, as GPGPU-Sim's ROP delay; a bypassed read waits "
          "l2.bypass_rop instead"),
    K_U32("l2.bypass_rop", l2_bypass_rop, "0", 0, LAT_MAX,
          "l2 cycles a read the L2 policy bypasses waits between arriving at its L2 "
          "sub-partition and entering the DRAM queue (a FIFO beside the ROP queue); 0: "
          "straight to the DRAM queue.  MeDiC in GPGPU-Sim 3.2.1: the ROP delay is applied "
          "at the partition's entry, before the paper's bypass demultiplexer"),

    /* ---- DRAM ---- */
    K_U32("dram.banks", dram_banks, "16", 1, 1024, "banks per channel"),
    K_SZ32("dram.row_bytes", dram_row_bytes, "4K", 32, 1 * MiB, "row (page) size per channel in bytes"),
    K_U32("dram.bus_bytes", dram_bus_bytes, "8", 1, 4096, "data bus bytes per beat per channel"),
    K_U32("dram.burst", dram_burst, "8", 1, 256, "burst length in beats"),
    K_U32("dram.data_rate", dram_data_rate, "4", 1, 64,
          "data beats per command clock (GDDR3 2, GDDR5 4)"),
    K_U32("dram.tCCD", tCCD, "2", 0, LAT_MAX, "column-to-column delay, DRAM cycles"),
    K_U32("dram.tRRD", tRRD, "6", 0, LAT_MAX, "ACT-to-ACT delay between banks, DRAM cycles"),
    K_U32("dram.tRCD", tRCD, "12", 0, LAT_MAX, "ACT-to-column delay, DRAM cycles"),
    K_U32("dram.tRAS", tRAS, "28", 0, LAT_MAX, "ACT-to-PRE minimum, DRAM cycles"),
    K_U32("dram.tRP", tRP, "12", 0, LAT_MAX, "PRE-to-ACT delay, DRAM cycles"),
    K_U32("dram.tRC", tRC, "40", 0, LAT_MAX, "ACT-to-ACT delay in one bank, DRAM cycles"),
    K_U32("dram.CL", CL, "12", 0, LAT_MAX, "read (CAS) latency, DRAM cycles"),
    K_U32("dram.WL", WL, "4", 0, LAT_MAX, "write latency, DRAM cycles"),
    K_U32("dram.tCDLR", tCDLR, "5", 0, LAT_MAX, "last write data to read command, DRAM cycles"),
    K_U32("dram.tWR", tWR, "12", 0, LAT_MAX, "write recovery, DRAM cycles"),
    K_U32("dram.latency", dram_latency, "132", 0, LAT_MAX,
          "fixed controller latency added to every access, DRAM cycles"),
    K_U32("dram.queue", dram_queue, "16", 1, 4096, "scheduler queue entries per channel"),
    K_POL("dram.sched", dram_sched, "frfcfs", "DRAM scheduler policy spec (frfcfs, fcfs, wms; warpsim policies lists them)"),
    K_SZ32("dram.chunk", addr_chunk, "256", 32, 1 * MiB,
           "bytes of consecutive addresses mapped to one channel (power of two)"),

    /* ---- energy model (timing/energy.h): nJ per event, GPUWattch's GTX480
     * model (GPGPU-Sim gpuwattch_gtx480.xml) evaluated per event ---- */
#define K_NJ(n, fld, d, doc) K_DBL("energy." n, energy.fld, d, 0, 1e9, "nJ per " doc)
    K_NJ("inst", inst, "0.003614", "warp instruction decoded (GPUWattch TOT_INST)"),
    K_NJ("fp_int", fp_int, "0.05489",
         "warp instruction that is not a branch, call, exit, barrier or fence (FP_INT)"),
    K_NJ("l1i_hit", l1i_hit, "0.06343", "instruction-cache hit (IC_H)"),
    K_NJ("l1i_miss", l1i_miss, "2.169", "instruction-cache miss (IC_M)"),
    K_NJ("l1d_read_hit", l1d_read_hit, "2.935",
         "L1D read hit or merged miss, with the coalescer (DC_RH)"),
    K_NJ("l1d_read_miss", l1d_read_miss, "2.225", "L1D read miss (DC_RM)"),
    K_NJ("l1d_write_hit", l1d_write_hit, "0.2201", "L1D write hit (DC_WH)"),
    K_NJ("l1d_write_miss", l1d_write_miss, "2.604", "L1D write miss (DC_WM)"),
    K_NJ("tex_hit", tex_hit, "1.353", "texture-cache hit or merged miss (TC_H)"),
    K_NJ("tex_miss", tex_miss, "2.225", "texture-cache miss (TC_M)"),
    K_NJ("l1c_hit", l1c_hit, "1.467", "constant-cache hit or merged miss (CC_H)"),
    K_NJ("l1c_miss", l1c_miss, "1.113", "constant-cache miss (CC_M)"),
    K_NJ("smem", smem, "2.119", "shared-memory bank cycle (SHRD_ACC)"),
    K_NJ("rf_read", rf_read, "0.007267", "register read of one thread (REG_RD)"),
    K_NJ("rf_write", rf_write, "0.005986", "register write of one thread (REG_WR)"),
    K_NJ("non_rf", non_rf, "0.05301", "non-register operand of one thread (NON_REG_OPs)"),
    K_NJ("sp", sp, "0.002695", "integer-ALU access (SP_ACC)"),
    K_NJ("fpu", fpu, "0.02958", "FPU access (FPU_ACC)"),
    K_NJ("sfu", sfu, "0.04835", "SFU access (SFU_ACC)"),
    K_NJ("l2_read_hit", l2_read_hit, "2.805", "L2 read hit or merged miss (L2_RH)"),
    K_NJ("l2_read_miss", l2_read_miss, "0.1020", "L2 read miss, the tag lookup (L2_RM)"),
    K_NJ("l2_write_hit", l2_write_hit, "13.85", "L2 write hit or merged miss (L2_WH)"),
    K_NJ("l2_write_miss", l2_write_miss, "15.02", "L2 write miss (L2_WM)"),
    K_NJ("icnt_flit", icnt_flit, "1.939", "interconnect flit, either network (NOC_A)"),
    K_NJ("dram_read", dram_read, "26.95", "DRAM read burst, with the controller (MEM_RD)"),
    K_NJ("dram_write", dram_write, "15.86", "DRAM write burst, with the controller (MEM_WR)"),
    K_NJ("dram_precharge", dram_precharge, "4.232", "DRAM precharge (MEM_PRE)"),
#undef K_NJ
    K_DBL("energy.pipeline_w", energy.pipeline_w, "25.46", 0, 1e6,
          "W of the SM pipelines at full duty (GPUWattch PIPE_A): charged per SIMT-active "
          "thread instruction as W / (core clock x 32 x sm.schedulers x sm.count)"),
    K_DBL("energy.idle_sm_w", energy.idle_sm_w, "1.59", 0, 1e6,
          "W of an SM with no resident CTA (GPUWattch IDLE_CORE_N)"),
    K_DBL("energy.constant_w", energy.constant_w, "11", 0, 1e6,
          "W drawn whatever the activity (GPUWattch CONST_DYNAMICN, with the memory "
          "controllers' fixed power)"),
};
#define CFG_NKEYS (sizeof cfg_keys / sizeof cfg_keys[0])

/* ---- value parsing --------------------------------------------------------- */

int config_parse_size(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        default: return -1;
        }
        end++;
        if (*end == 'i')
            end++;
        if (*end == 'B' || *end == 'b')
            end++;
        if (*end)
            return -1;
    }
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

static int cfg_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int cfg_is_ident(const char *b, const char *e)
{
    if (b == e || !(isalpha((unsigned char)*b) || *b == '_'))
        return 0;
    for (const char *p = b; p < e; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return 0;
    return 1;
}

/* "name" or "name:key=value,key=value". */
static int cfg_policy_syntax_ok(const char *s)
{
    const char *colon = strchr(s, ':');
    const char *end = colon ? colon : s + strlen(s);
    if (!cfg_is_ident(s, end))
        return 0;
    if (!colon)
        return 1;
    const char *p = colon + 1;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *pe = comma ? comma : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(pe - p));
        if (!eq || !cfg_is_ident(p, eq) || eq + 1 == pe)
            return 0;
        for (const char *q = eq + 1; q < pe; q++)
            if (*q == '=' || *q == ':' || isspace((unsigned char)*q))
                return 0;
        if (!comma)
            return 1;
        p = comma + 1;
    }
}

static const char *cfg_allowed(const struct cfg_key *k, char *buf, size_t n)
{
    switch (k->type) {
    case CFG_U32:
    case CFG_U64:
        if (k->max)
            snprintf(buf, n, "an integer from %" PRIu64 " to %" PRIu64, k->min, k->max);
        else
            snprintf(buf, n, "an integer >= %" PRIu64, k->min);
        break;
    case CFG_SIZE32:
    case CFG_SIZE64:
        if (k->max)
            snprintf(buf, n, "a byte count from %" PRIu64 " to %" PRIu64
                     " with optional K, M or G suffix", k->min, k->max);
        else
            snprintf(buf, n, "a byte count >= %" PRIu64 " with optional K, M or G suffix%s",
                     k->min, k->type == CFG_SIZE32 ? " (below 4G)" : "");
        break;
    case CFG_DOUBLE:
        snprintf(buf, n, "a number from %g to %g", k->dmin, k->dmax);
        break;
    case CFG_BOOL:
        snprintf(buf, n, "0, 1, true, false, yes, no, on or off");
        break;
    case CFG_POLICY:
        snprintf(buf, n, "a policy spec name[:key=value,...] shorter than %zu characters",
                 k->len);
        break;
    case CFG_CHOICE: {
        snprintf(buf, n, "one of: %s", k->choices);
        for (char *p = buf; *p; p++)
            if (*p == '|')
                *p = ',';
        break;
    }
    }
    return buf;
}

static int cfg_bad_value(const struct cfg_key *k, const char *value, struct err *e)
{
    char allowed[256];
    return err_set(e, WS_ERR_INVALID, "configuration key '%s': invalid value '%s' (allowed: %s)",
                   k->name, value, cfg_allowed(k, allowed, sizeof allowed));
}

static int cfg_apply(struct gpu_config *c, const struct cfg_key *k, const char *value,
                     struct err *e)
{
    char *field = (char *)c + k->off;
    uint64_t v = 0;
    switch (k->type) {
    case CFG_U32:
    case CFG_U64:
    case CFG_SIZE32:
    case CFG_SIZE64: {
        int bad = (k->type == CFG_U32 || k->type == CFG_U64) ? cfg_parse_u64(value, &v)
                                                             : config_parse_size(value, &v);
        uint64_t hi = (k->type == CFG_U32 || k->type == CFG_SIZE32) ? UINT32_MAX : UINT64_MAX;
        if (k->max && k->max < hi)
            hi = k->max;
        if (bad || v < k->min || v > hi)
            return cfg_bad_value(k, value, e);
        if (k->type == CFG_U32 || k->type == CFG_SIZE32) {
            uint32_t x = (uint32_t)v;
            memcpy(field, &x, sizeof x);
        } else {
            memcpy(field, &v, sizeof v);
        }
        return WS_OK;
    }
    case CFG_DOUBLE: {
        char *end;
        errno = 0;
        double d = strtod(value, &end);
        if (errno || end == value || *end || !isfinite(d) || d < k->dmin || d > k->dmax)
            return cfg_bad_value(k, value, e);
        memcpy(field, &d, sizeof d);
        return WS_OK;
    }
    case CFG_BOOL: {
        static const char *const yes[] = {"1", "true", "yes", "on"};
        static const char *const no[] = {"0", "false", "no", "off"};
        for (int i = 0; i < 4; i++) {
            uint32_t x = 2;
            if (strcasecmp(value, yes[i]) == 0)
                x = 1;
            else if (strcasecmp(value, no[i]) == 0)
                x = 0;
            if (x != 2) {
                memcpy(field, &x, sizeof x);
                return WS_OK;
            }
        }
        return cfg_bad_value(k, value, e);
    }
    case CFG_POLICY:
        if (strlen(value) >= k->len || !cfg_policy_syntax_ok(value))
            return cfg_bad_value(k, value, e);
        snprintf(field, k->len, "%s", value);
        return WS_OK;
    case CFG_CHOICE: {
        size_t n = strlen(value);
        for (const char *p = k->choices; *p;) {
            const char *bar = strchr(p, '|');
            size_t w = bar ? (size_t)(bar - p) : strlen(p);
            if (n && w == n && strncmp(p, value, n) == 0 && n < k->len) {
                snprintf(field, k->len, "%s", value);
                return WS_OK;
            }
            p += w + (bar ? 1 : 0);
        }
        return cfg_bad_value(k, value, e);
    }
    }
    panic("bad configuration key type %d", (int)k->type);
}

/* ---- unknown keys ---------------------------------------------------------- */

static size_t cfg_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static size_t cfg_group_len(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

/* Twice the edit distance, plus one for a key outside `key`'s "group.":
 * same-group keys rank first among equally distant ones. */
static size_t cfg_key_score(const char *key, const char *name)
{
    size_t d = cfg_edit_distance(key, name);
    size_t g = cfg_group_len(key);
    int same = strchr(key, '.') && cfg_group_len(name) == g && strncmp(name, key, g) == 0;
    return 2 * d + !same;
}

static int cfg_unknown_key(const char *key, struct err *e)
{
    char list[ERR_MSG_MAX / 2];
    size_t used = 0;
    list[0] = '\0';
    /* candidates by edit distance (at most a third of the key, or 3); each
     * key's score computed once (an unknown key of 64 characters against
     * every key, once per distance, took tens of milliseconds) */
    size_t limit = strlen(key) / 3 > 3 ? strlen(key) / 3 : 3;
    size_t score[CFG_NKEYS];
    for (size_t i = 0; i < CFG_NKEYS; i++)
        score[i] = cfg_key_score(key, cfg_keys[i].name);
    int found = 0;
    for (size_t d = 0; d <= 2 * limit + 1 && found < 4; d++)
        for (size_t i = 0; i < CFG_NKEYS && found < 4; i++)
            if (score[i] == d) {
                used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                                         found ? ", " : "", cfg_keys[i].name);
                found++;
                if (used >= sizeof list)
                    used = sizeof list - 1;
            }
    if (!found) { /* keys of the same group, else the group list */
        size_t g = cfg_group_len(key);
        for (size_t i = 0; i < CFG_NKEYS; i++)
            if (strchr(key, '.') && cfg_group_len(cfg_keys[i].name) == g &&
                strncmp(cfg_keys[i].name, key, g) == 0) {
                used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                                         found ? ", " : "", cfg_keys[i].name);
                found++;
                if (used >= sizeof list)
                    used = sizeof list - 1;
            }
        if (found)
            return err_set(e, WS_ERR_INVALID,
                           "unknown configuration key '%s' (keys of that group: %s)", key, list);
        for (size_t i = 0; i < CFG_NKEYS; i++) {
            size_t gl = cfg_group_len(cfg_keys[i].name);
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = cfg_group_len(cfg_keys[j].name) == gl &&
                       strncmp(cfg_keys[j].name, cfg_keys[i].name, gl) == 0;
            if (seen)
                continue;
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%.*s", used ? ", " : "",
                                     (int)gl, cfg_keys[i].name);
            if (used >= sizeof list)
                used = sizeof list - 1;
        }
        return err_set(e, WS_ERR_INVALID,
                       "unknown configuration key '%s' (groups: %s; `warpsim options` lists "
                       "every key)",
                       key, list);
    }
    return err_set(e, WS_ERR_INVALID, "unknown configuration key '%s' (did you mean %s?)", key,
                   list);
}

/* ---- public API ------------------------------------------------------------ */

static const struct cfg_key *cfg_find(const char *key)
{
    for (size_t i = 0; i < CFG_NKEYS; i++)
        if (strcmp(cfg_keys[i].name, key) == 0)
            return &cfg_keys[i];
    return NULL;
}

int config_set(struct gpu_config *c, const char *key, const char *value, struct err *e)
{
    const struct cfg_key *k = cfg_find(key);
    if (!k)
        return cfg_unknown_key(key, e);
    return cfg_apply(c, k, value ? value : "", e);
}

static void cfg_defaults_where(struct gpu_config *c, int keep_sim)
{
    struct err e;
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        if (keep_sim && cfg_keys[i].sim)
            continue;
        if (cfg_apply(c, &cfg_keys[i], cfg_keys[i].def, &e) != WS_OK)
            panic("bad default for '%s': %s", cfg_keys[i].name, e.msg);
    }
}

void config_defaults(struct gpu_config *c)
{
    memset(c, 0, sizeof *c);
    cfg_defaults_where(c, 0);
}

int config_key_is_simulation(const char *key)
{
    const struct cfg_key *k = cfg_find(key);
    return k && k->sim;
}

void config_reset_machine(struct gpu_config *c)
{
    cfg_defaults_where(c, 1);
}

/* Text of one key's current value into buf. */
static void cfg_format(const struct gpu_config *c, const struct cfg_key *k, char *buf, size_t n)
{
    const char *field = (const char *)c + k->off;
    uint64_t v = 0;
    switch (k->type) {
    case CFG_U32:
    case CFG_BOOL:
    case CFG_SIZE32: {
        uint32_t x;
        memcpy(&x, field, sizeof x);
        v = x;
        break;
    }
    case CFG_U64:
    case CFG_SIZE64:
        memcpy(&v, field, sizeof v);
        break;
    case CFG_DOUBLE: {
        double d;
        memcpy(&d, field, sizeof d);
        snprintf(buf, n, "%.15g", d);
        if (strtod(buf, NULL) != d)
            snprintf(buf, n, "%.17g", d);
        return;
    }
    case CFG_POLICY:
    case CFG_CHOICE:
        snprintf(buf, n, "%s", field);
        return;
    }
    if (k->type == CFG_SIZE32 || k->type == CFG_SIZE64) {
        static const char suffix[] = {'G', 'M', 'K'};
        static const unsigned shift[] = {30, 20, 10};
        for (int i = 0; i < 3; i++)
            if (v && v % ((uint64_t)1 << shift[i]) == 0) {
                snprintf(buf, n, "%" PRIu64 "%c", v >> shift[i], suffix[i]);
                return;
            }
    }
    snprintf(buf, n, "%" PRIu64, v);
}

void config_print(const struct gpu_config *c, FILE *out)
{
    char buf[CONFIG_NAME_MAX + 32];
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        cfg_format(c, &cfg_keys[i], buf, sizeof buf);
        fprintf(out, "%s = %s\n", cfg_keys[i].name, buf);
    }
}

/* The keys functional execution reads; every other key configures the timing
 * model. */
static const char *const cfg_functional_keys[] = {
    "mode", "device_memory", "local_memory_per_thread", "max_warp_insn", "oob_read_zero",
    "racecheck", "func_order", "func_window"};

void config_print_used(const struct gpu_config *c, FILE *out)
{
    if (strcmp(c->mode, "functional") != 0) {
        config_print(c, out);
        return;
    }
    char buf[CONFIG_NAME_MAX + 32];
    for (size_t i = 0; i < sizeof cfg_functional_keys / sizeof cfg_functional_keys[0]; i++) {
        const struct cfg_key *k = cfg_find(cfg_functional_keys[i]);
        cfg_format(c, k, buf, sizeof buf);
        fprintf(out, "%s = %s\n", k->name, buf);
    }
}

static void cfg_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

void config_print_json(const struct gpu_config *c, FILE *out, int indent)
{
    char buf[CONFIG_NAME_MAX + 32];
    fputs("{\n", out);
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const struct cfg_key *k = &cfg_keys[i];
        fprintf(out, "%*s", indent + 2, "");
        cfg_json_string(out, k->name);
        fputs(": ", out);
        const char *field = (const char *)c + k->off;
        switch (k->type) {
        case CFG_U32:
        case CFG_BOOL:
        case CFG_SIZE32: {
            uint32_t x;
            memcpy(&x, field, sizeof x);
            fprintf(out, "%" PRIu32, x);
            break;
        }
        case CFG_U64:
        case CFG_SIZE64: {
            uint64_t x;
            memcpy(&x, field, sizeof x);
            fprintf(out, "%" PRIu64, x);
            break;
        }
        case CFG_DOUBLE:
            cfg_format(c, k, buf, sizeof buf);
            fputs(buf, out);
            break;
        case CFG_POLICY:
        case CFG_CHOICE:
            cfg_json_string(out, field);
            break;
        }
        fputs(i + 1 < CFG_NKEYS ? ",\n" : "\n", out);
    }
    fprintf(out, "%*s}", indent, "");
}

void config_describe(FILE *out)
{
    char allowed[256];
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const struct cfg_key *k = &cfg_keys[i];
        fprintf(out, "%-26s %s\n%-26s default %s; allowed: %s\n", k->name, k->doc, "", k->def,
                cfg_allowed(k, allowed, sizeof allowed));
    }
}

/* ---- validation ------------------------------------------------------------ */

static int cfg_pow2(uint64_t v)
{
    return v && (v & (v - 1)) == 0;
}

/* Lines in one cache (tags are kept per line): 64 MiB of 64-byte lines. */
#define CFG_MAX_CACHE_LINES (1ull << 20)

static int cfg_check_cache(const struct cache_geometry *g, const char *p, struct err *e)
{
    if (!cfg_pow2(g->sets))
        return err_set(e, WS_ERR_INVALID, "configuration: %s.sets = %" PRIu32
                       " is not a power of two", p, g->sets);
    if (!cfg_pow2(g->line))
        return err_set(e, WS_ERR_INVALID, "configuration: %s.line = %" PRIu32
                       " is not a power of two", p, g->line);
    if (g->assoc < 1 || g->assoc > 64)
        return err_set(e, WS_ERR_INVALID, "configuration: %s.assoc = %" PRIu32
                       " is outside 1..64", p, g->assoc);
    if (strcmp(g->index, "fermi") == 0 && g->sets != 32 && g->sets != 64)
        return err_set(e, WS_ERR_INVALID, "configuration: %s.index = fermi needs 32 or 64 sets, "
                       "not %" PRIu32, p, g->sets);
    if ((uint64_t)g->sets * g->assoc > CFG_MAX_CACHE_LINES)
        return err_set(e, WS_ERR_INVALID, "configuration: %s.sets x %s.assoc = %" PRIu64
                       " lines, more than the limit of %llu", p, p,
                       (uint64_t)g->sets * g->assoc, CFG_MAX_CACHE_LINES);
    return WS_OK;
}

int config_validate(const struct gpu_config *c, struct err *e)
{
    if (c->max_threads_per_sm % 32 != 0)
        return err_set(e, WS_ERR_INVALID,
                       "configuration: sm.threads = %" PRIu32 " is not a multiple of 32 (the "
                       "warp size)", c->max_threads_per_sm);
    if (c->max_threads_per_sm / 32 > c->max_warps_per_sm)
        return err_set(e, WS_ERR_INVALID,
                       "configuration: sm.threads = %" PRIu32 " needs %" PRIu32
                       " warps but sm.warps = %" PRIu32,
                       c->max_threads_per_sm, c->max_threads_per_sm / 32, c->max_warps_per_sm);
    if (c->n_schedulers > c->max_warps_per_sm)
        return err_set(e, WS_ERR_INVALID,
                       "configuration: sm.schedulers = %" PRIu32 " exceeds sm.warps = %" PRIu32,
                       c->n_schedulers, c->max_warps_per_sm);
    uint32_t per = (c->max_warps_per_sm + c->n_schedulers - 1) / c->n_schedulers;
    if (per > 64)
        return err_set(e, WS_ERR_INVALID,
                       "configuration: %" PRIu32 " warps per scheduler (sm.warps = %" PRIu32
                       " / sm.schedulers = %" PRIu32 ") exceeds the limit of 64",
                       per, c->max_warps_per_sm, c->n_schedulers);
    if (!(c->core_mhz > 0 && c->icnt_mhz > 0 && c->l2_mhz > 0 && c->dram_mhz > 0))
        return err_set(e, WS_ERR_INVALID, "configuration: every clock.* must be > 0");
    if (cfg_check_cache(&c->l1d, "l1d", e) || cfg_check_cache(&c->l1c, "l1c", e) ||
        cfg_check_cache(&c->l1t, "tex", e) ||
        cfg_check_cache(&c->l1i, "l1i", e) || cfg_check_cache(&c->l2, "l2", e))
        return e->code;
    uint32_t sec = c->l2_sector_bytes;
    if (sec && (!cfg_pow2(sec) || sec > c->l2.line || c->l2.line / sec > 8))
        return err_set(e, WS_ERR_INVALID, "configuration: l2.sector_bytes = %" PRIu32
                       " must be a power of two dividing l2.line (%" PRIu32 ") into at most "
                       "8 sectors", sec, c->l2.line);
    if (c->smem_banks > 64 || !cfg_pow2(c->smem_banks))
        return err_set(e, WS_ERR_INVALID,
                       "configuration: smem.banks = %" PRIu32 " must be a power of two <= 64",
                       c->smem_banks);
    if (!cfg_pow2(c->dram_banks))
        return err_set(e, WS_ERR_INVALID,
                       "configuration: dram.banks = %" PRIu32 " is not a power of two",
                       c->dram_banks);
    if (!cfg_pow2(c->dram_row_bytes))
        return err_set(e, WS_ERR_INVALID,
                       "configuration: dram.row_bytes = %" PRIu32 " is not a power of two",
                       c->dram_row_bytes);
    if (!cfg_pow2(c->addr_chunk))
        return err_set(e, WS_ERR_INVALID,
                       "configuration: dram.chunk = %" PRIu32 " is not a power of two",
                       c->addr_chunk);
    uint32_t line = c->l2_enabled ? c->l2.line : c->l1d.line;
    if (c->addr_chunk < line)
        return err_set(e, WS_ERR_INVALID,
                       "configuration: dram.chunk = %" PRIu32
                       " is smaller than the %" PRIu32 "-byte line sent to a channel",
                       c->addr_chunk, line);
    if (c->l2_enabled && c->l2.line < c->l1d.line)
        return err_set(e, WS_ERR_INVALID,
                       "configuration: l2.line = %" PRIu32 " is smaller than l1d.line = %" PRIu32,
                       c->l2.line, c->l1d.line);
    if (c->l1d.mshr_entries && c->l1d.mshr_max_merge < 1)
        return err_set(e, WS_ERR_INVALID, "configuration: l1d.mshr_merge must be >= 1");
    if (c->dram_sched[0] == '\0' || c->sched[0] == '\0' || c->classifier[0] == '\0')
        return err_set(e, WS_ERR_INVALID,
                       "configuration: sm.sched, sm.classifier and dram.sched must be set");
    return WS_OK;
}

/* ---- loading --------------------------------------------------------------- */

static char *cfg_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* Does the text look like a GPGPU-Sim gpgpusim.config? */
static int cfg_is_gpgpusim(const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "-gpgpu_", 7) == 0 || strncmp(p, "-dram", 5) == 0)
            return 1;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    return 0;
}

static int cfg_load_keyvalue(struct gpu_config *c, char *text, const char *path, struct err *e)
{
    unsigned lineno = 0;
    char *line = text;
    while (line) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = cfg_trim(line);
        line = next;
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq)
            return err_set(e, WS_ERR_INVALID, "%s:%u: expected 'key = value', got '%s'", path,
                           lineno, s);
        *eq = '\0';
        char *key = cfg_trim(s), *value = cfg_trim(eq + 1);
        if (!*key)
            return err_set(e, WS_ERR_INVALID, "%s:%u: missing key before '='", path, lineno);
        int rc = strcmp(key, "preset") == 0 ? config_preset(c, value, e)
                                            : config_set(c, key, value, e);
        if (rc != WS_OK)
            return err_prefix(e, "%s:%u: ", path, lineno);
    }
    return WS_OK;
}

int config_load(struct gpu_config *c, const char *preset_or_path, struct err *e)
{
    return config_load_ignored(c, preset_or_path, NULL, e);
}

int config_load_ignored(struct gpu_config *c, const char *preset_or_path, char **ignored,
                        struct err *e)
{
    if (ignored)
        *ignored = NULL;
    for (const char *const *p = config_preset_names(); *p; p++)
        if (strcmp(*p, preset_or_path) == 0) {
            if (ignored)
                *ignored = xstrdup("");
            return config_preset(c, preset_or_path, e);
        }
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(preset_or_path, &text, &len, e) != WS_OK) {
        char names[256] = "";
        size_t used = 0;
        for (const char *const *p = config_preset_names(); *p && used < sizeof names; p++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                     used ? ", " : "", *p);
        return err_prefix(e, "--config '%s' is neither a preset (%s) nor a readable file: ",
                          preset_or_path, names);
    }
    if (strlen(text) != len) {
        free(text);
        return err_set(e, WS_ERR_INVALID, "%s: configuration file contains a NUL byte",
                       preset_or_path);
    }
    int rc;
    if (cfg_is_gpgpusim(text)) {
        rc = config_import_gpgpusim(c, text, preset_or_path, ignored, e);
    } else {
        rc = cfg_load_keyvalue(c, text, preset_or_path, e);
        if (rc == WS_OK && ignored)
            *ignored = xstrdup("");
    }
    free(text);
    return rc;
}
