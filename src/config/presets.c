/* presets.c: the named presets, one per seed paper's baseline table
 * (../shared/SPEC-policies.md 4.1, 5.3, 6.4, 7.8, 8.4).  Each preset is a
 * list of "key=value" settings applied over the GTX480 defaults; values no
 * table gives are marked CHOICE here and in configs/README.md. */
#include "config/config.h"

#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "config/config_internal.h"

struct cfg_preset {
    const char *name;
    const char *const *settings; /* NULL-terminated "key=value" */
};

/* GTX480 as GPGPU-Sim 3.x ran it: exactly the defaults (configs/README.md). */
static const char *const preset_gtx480[] = {NULL};

/* DAWS Table 1 (SPEC 4.1) as its simulator ran it: the CCWS/DAWS release
 * (tgrogers/ccws-2012, configs/QuadroFX5800-CCWS, defaults of its
 * gpu-sim.cc and cuda-sim.cc), a GPGPU-Sim 3.0/3.1 fork.  GPGPU-Sim runs a
 * whole warp per core cycle, so the 1300 MHz SIMD-8 shader is a 325 MHz core;
 * every core latency below is in those cycles (docs/baselines-audit.md 3.1). */
static const char *const preset_daws[] = {
    "sm.count=30", "sm.schedulers=1", "sm.warps=32", "sm.threads=1024", "sm.registers=16384",
    /* CHOICE: the paper's kernels ran with all 32 warps resident (Best-SWL
     * limits up to 32, Table 3), so they fit 16384 / 1024 = 16 registers per
     * thread; nvcc 13 code needs far more (ptxas: 43-63 for memc, kmeans,
     * spmv), which would cap occupancy at 8-24 warps and hide the cache
     * contention the paper studies. */
    "sm.regs_per_thread=16",
    "sm.shared=16K", "sm.ctas=8", "sm.sched=gto",
    "sm.max_issue_per_warp=2", /* -gpgpu_max_insn_issue_per_warp default */
    "clock.core=325", "clock.icnt=650", "clock.l2=650", "clock.dram=800",
    /* one SP, one SFU pipe, a full warp per core cycle; -ptx_opcode_latency_fp
     * and _int defaults 1 (ADD, MUL, MAD), initiation 1; transcendentals 8/8 */
    "sp.units=1", "sp.latency=1", "sp.ii=1", "int.latency=1", "int.ii=1",
    "sfu.latency=8", "sfu.ii=8",
    "smem.banks=16",
    /* the last -gpgpu_cache:dl1 of the release config: L,32:128:8:L:R:m,A:16:4,4 */
    "l1d.sets=32", "l1d.line=128", "l1d.assoc=8", "l1d.policy=lru", "l1d.mshr=16",
    "l1d.mshr_merge=4", "l1d.miss_queue=4",
    "l1d.latency=20", "l1d.latency_on=hits", /* -L1_HIT_LATENCY 20, load hits only */
    /* the release hashes every cache's set index; it flushes the L1s at the
     * end of a kernel (-gpgpu_flush_cache 1) and invalidates the L2 */
    "l1d.index=ccws_hash", "l1c.index=ccws_hash", "l1i.index=ccws_hash", "l2.index=ccws_hash",
    "l2.index_addr=full", "l1d.flush=1", "l2.flush=1",
    "l1c.sets=64", "l1c.line=64", "l1c.assoc=2",  /* 8 KB constant cache */
    "l1i.sets=4", "l1i.line=256", "l1i.assoc=4", /* N,4:256:4 */
    /* texture cache: Table 1's 32 KB, 64 B lines, 16 ways (the release config
     * has N,8:32:20 = 5 KB); its F:128:4,16:2 fragment and miss queues; the
     * paper's SPMV kernels read x through it (tex.nc: their __ldg loads) */
    "tex.sets=32", "tex.line=64", "tex.assoc=16", "tex.mshr=128", "tex.mshr_merge=4",
    "tex.miss_queue=16", "tex.index=ccws_hash", "tex.nc=1",
    "mem.channels=8", "mem.subparts=1",
    "l2.sets=128", "l2.line=128", "l2.assoc=8", "l2.policy=lru", "l2.mshr=16",
    /* -rop_latency 115 core cycles (release default) = 230 l2 cycles */
    "l2.latency=0", "l2.rop_latency=230",
    "l2.port_bytes=0", /* 3.1 has no L2 data port (added in 3.2.2) */
    "dram.banks=8", "dram.tCCD=2", "dram.tRRD=8", "dram.tRCD=12", "dram.tRAS=25", "dram.tRP=10",
    "dram.tRC=35", "dram.CL=10", "dram.WL=7", "dram.tCDLR=6", "dram.tWR=13", "dram.burst=4",
    "dram.data_rate=2", /* GDDR3 is double data rate: 8 ch x 8 B x 2 x 800 MHz = 102 GB/s */
    "dram.bus_bytes=8", "dram.row_bytes=2K",
    "dram.latency=74", /* -dram_latency 30 core cycles x 800 / 325 */
    "dram.queue=32", "dram.sched=frfcfs", NULL};

/* Phase-Aware Table I (SPEC 5.3): GPGPU-Sim 3.2 as a Tesla M2090.  No
 * release exists; GPGPU-Sim's convention (a warp per core cycle) makes the
 * 1300 MHz shader a 650 MHz core issuing one instruction per scheduler per
 * cycle, on the 3.2.2 Fermi configuration (docs/baselines-audit.md 3.3). */
static const char *const preset_paws[] = {
    "sm.count=16", "sm.ctas=8", "sm.warps=48", "sm.threads=1536", "sm.schedulers=2",
    "clock.core=650", "clock.icnt=650", "clock.l2=650",
    "clock.dram=925", /* GDDR5 command clock: 1850 MHz data clock / 2 */
    /* Table I's 650 GFLOPS double precision: one DP warp per core cycle */
    "dp.units=1", "dp.latency=8", "dp.ii=1",
    "dram.latency=142", /* -dram_latency 100 core cycles x 925 / 650 */
    /* Section IV-A: the paper ran PTX-plus, code ptxas had scheduled, where a
     * block's loads sit above the arithmetic that does not need them */
    "ptx.hoist_loads=1",
    NULL};

/* Large warps / two-level slides (SPEC 6.4): one core, no L2, a simple DRAM
 * with 100-cycle row hits and 300-cycle row conflicts at 32 GB/s. */
static const char *const preset_lwm[] = {
    "sm.count=1", "sm.warps=32", "sm.threads=1024", "sm.ctas=8", /* CHOICE: CTA limit */
    "sm.registers=16384", /* 64 KB register file */
    /* the slides' 1024 thread contexts in 64 KB: 16 registers each, whatever
     * ptxas counts (its counts would leave 2 or 1 of 4 large warps resident) */
    "sm.regs_per_thread=16",
    /* the paper's core: a warp is fetched again only once its instruction
     * completed (barrel processing, the reason for the large warp's re-fetch
     * rules), not a scoreboard */
    "sm.barrel=1",
    "sm.shared=128K", "smem.banks=32", "sm.schedulers=1", "sm.sched=lrr",
    "clock.core=1000", "clock.icnt=1000", "clock.l2=1000", "clock.dram=1000", /* CHOICE */
    "sp.units=1", "sp.latency=5", "sp.ii=1", /* in-order 5-stage, 32 lanes */
    "sfu.units=1", "sfu.latency=5", "sfu.ii=1",        /* CHOICE: SFU like the SIMD pipe */
    "l1d.sets=256", "l1d.line=128", "l1d.assoc=4",     /* 128 KB 4-way D-cache */
    "l1i.sets=8", "l1i.line=128", "l1i.assoc=4",       /* 4 KB I-cache */
    "icnt.latency=1", "l2.enabled=0", "mem.channels=1", "mem.subparts=1",
    "dram.banks=8", "dram.row_bytes=4K", "dram.sched=fcfs",
    /* 8 B x 4 beats x 1000 MHz = 32 GB/s; a 128 B line is one 16-beat burst
     * (4 cycles).  Row hit ~ CL + burst = 100; conflict ~ tRP + tRCD + CL +
     * burst = 300 (CHOICE: how the two latencies are split into timings) */
    "dram.bus_bytes=8", "dram.data_rate=4", "dram.burst=16", "dram.tCCD=4", "dram.CL=96",
    "dram.tRCD=100", "dram.tRP=100", "dram.tRAS=100", "dram.tRC=200", "dram.tRRD=1",
    "dram.WL=1", "dram.tCDLR=1", "dram.tWR=1", "dram.latency=0", "dram.queue=16", NULL};

/* MeDiC Table I (SPEC 7.8) on GPGPU-Sim 3.2.1's GTX480 configuration
 * (700:1400:700:924 there; Table I's 1400 MHz is the Fermi shader clock,
 * a 700 MHz core in GPGPU-Sim's convention), with the paper's banked L2. */
static const char *const preset_medic[] = {
    "sm.count=15", "sm.sched=gto", "sm.schedulers=2",
    "clock.core=700", "clock.icnt=1400", "clock.l2=700", "clock.dram=1674",
    "l1d.sets=32", "l1d.line=128", "l1d.assoc=4", "l1d.policy=lru",
    "mem.channels=6", "mem.subparts=1", /* one L2 slice per partition */
    "l2.sets=64", "l2.line=128", "l2.assoc=16", "l2.policy=lru", /* 128 KB x 6 = 768 KB */
    /* Table I: 2 banks and 2 interconnect ports per partition; the ports are
     * the partition's input (the 1400 MHz interconnect brings 2 requests per
     * L2 cycle), each bank looks up one request per cycle as GPGPU-Sim's cache */
    "l2.banks=2", "l2.ports=1",
    "l2.rotate=1", /* Section 5: the first port and bank rotate every cycle */
    /* -rop_latency 120 plus the paper's 10-cycle bank lookup and its 1-cycle
     * bank arbiter (CHOICE: all before the lookup, hits and misses alike) */
    "l2.rop_latency=131",
    /* a bypassed read skips the arbiter and the lookup, not the ROP delay,
     * which GPGPU-Sim 3.2.1 applies on entry to the partition */
    "l2.bypass_rop=120",
    "l2.port_bytes=0", /* 3.2.1 has no L2 data port (added in 3.2.2) */
    /* Section 5: DRAM returns enter per-bank DRAM-to-L2 queues; 8 returns
     * each, 3.2.1's DRAM-to-L2 queue (-gpgpu_dram_partition_queues 8:8:8:8) */
    "l2.fill_queue=8",
    "dram.banks=8", "dram.burst=8", "dram.sched=frfcfs",
    /* GDDR5 at 1674 MHz, 2 beats per command clock (CHOICE), timings in those cycles */
    "dram.data_rate=2", "dram.tCCD=4", "dram.tRRD=12", "dram.tRCD=24", "dram.tRAS=56",
    "dram.tRP=24", "dram.tRC=80", "dram.CL=24", "dram.WL=8", "dram.tCDLR=10", "dram.tWR=24",
    "dram.latency=239", /* -dram_latency 100 core cycles = 143 ns */
    NULL};

/* CAWA Table 1 (SPEC 8.4): GPGPU-Sim 3.2.0 GTX480 with a 16-way L1D; the
 * 3.2.0 configuration clocks the interconnect at 1400 MHz. */
static const char *const preset_cawa[] = {
    "sm.count=15", "sm.warps=48", "sm.threads=1536", "sm.ctas=8", "sm.schedulers=2",
    "sm.registers=32768", "sm.shared=48K", "sm.sched=lrr", "clock.icnt=1400",
    "l1d.sets=8", "l1d.line=128", "l1d.assoc=16", /* 16 KB */
    "l1i.sets=4", "l1i.line=128", "l1i.assoc=4",  /* 2 KB */
    "mem.channels=6", "mem.subparts=1",
    "l2.sets=64", "l2.line=128", "l2.assoc=16", /* 64 x 16 x 6 banks = 768 KB */
    "l2.index_addr=full", /* 3.2.0 indexes the L2 with the channel bits in */
    "l2.port_bytes=0",    /* 3.2.0 has no L2 data port (added in 3.2.2) */
    NULL};

static const struct cfg_preset cfg_presets[] = {
    {"gtx480", preset_gtx480}, {"daws", preset_daws},   {"paws", preset_paws},
    {"lwm", preset_lwm},       {"medic", preset_medic}, {"cawa", preset_cawa},
};
#define CFG_NPRESETS (sizeof cfg_presets / sizeof cfg_presets[0])

static const char *const cfg_preset_names[] = {"gtx480", "daws", "paws", "lwm",
                                               "medic",  "cawa", NULL};

const char *const *config_preset_names(void)
{
    return cfg_preset_names;
}

const char *const *config_preset_settings(const char *name)
{
    for (size_t i = 0; i < CFG_NPRESETS; i++)
        if (strcmp(cfg_presets[i].name, name) == 0)
            return cfg_presets[i].settings;
    return NULL;
}

int config_preset(struct gpu_config *c, const char *name, struct err *e)
{
    const char *const *set = config_preset_settings(name);
    if (!set)
        return err_set(e, WS_ERR_INVALID,
                       "unknown configuration preset '%s' (valid: gtx480, daws, paws, lwm, "
                       "medic, cawa; or a file name)",
                       name);
    config_reset_machine(c);
    for (; *set; set++) {
        char key[64];
        const char *eq = strchr(*set, '=');
        ws_assert(eq && (size_t)(eq - *set) < sizeof key);
        snprintf(key, sizeof key, "%.*s", (int)(eq - *set), *set);
        if (config_set(c, key, eq + 1, e) != WS_OK)
            panic("preset %s: %s", name, e->msg);
    }
    return WS_OK;
}
