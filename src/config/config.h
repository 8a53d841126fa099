/* config.h: the simulated GPU's configuration: named, typed, validated keys.
 *
 * Data flow: defaults -> preset (--config daws) or file -> --set key=value
 * -> struct gpu_config, read (never written) by the timing model and the
 * policies.  Every key lives in one table in config.c (name, type, field,
 * default, documentation), so adding a key is one row.  Unknown keys and bad
 * values are rejected naming the key and the allowed values; the effective
 * configuration is printed with config_print() (every key) or
 * config_print_used() (the keys the run's mode reads).
 *
 * Clock frequencies are in MHz; latencies are in cycles of the component's own
 * clock domain (core for SM and L1, icnt, l2, dram). */
#ifndef WS_CONFIG_CONFIG_H
#define WS_CONFIG_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

#define CONFIG_NAME_MAX 128 /* policy specs: "name[:key=value,...]" */

struct cache_geometry {
    uint32_t sets, line, assoc;  /* bytes = sets * line * assoc */
    char policy[CONFIG_NAME_MAX];/* replacement/insertion policy spec, e.g. "lru" */
    uint32_t mshr_entries;       /* 0 = blocking cache / no MSHR table */
    uint32_t mshr_max_merge;
    uint32_t miss_queue;         /* entries */
    uint32_t hit_latency;        /* cycles of the owning clock domain */
    char index[16];              /* set-index function: linear | ccws_hash | fermi */
};

/* Energy per event in nJ (and three powers in W) of the event-energy model,
 * keys energy.*: defaults are GPUWattch's GTX480 model (timing/energy.h). */
struct energy_coeffs {
    double inst, fp_int;                     /* per warp instruction */
    double l1i_hit, l1i_miss;
    double l1d_read_hit, l1d_read_miss, l1d_write_hit, l1d_write_miss;
    double tex_hit, tex_miss, l1c_hit, l1c_miss;
    double smem;                             /* per shared-memory bank cycle */
    double rf_read, rf_write, non_rf;        /* per thread operand */
    double sp, fpu, sfu;                     /* per unit access */
    double l2_read_hit, l2_read_miss, l2_write_hit, l2_write_miss;
    double icnt_flit;
    double dram_read, dram_write, dram_precharge; /* per burst, per precharge */
    double pipeline_w, idle_sm_w, constant_w;
};

struct gpu_config {
    /* ---- simulation ---- */
    char mode[16];               /* "functional" | "timing" */
    uint64_t device_memory;      /* bytes of simulated device memory */
    uint64_t local_memory_per_thread;
    uint64_t max_warp_insn;      /* per launch, 0 = unlimited */
    uint32_t oob_read_zero;      /* a global read outside every allocation gives 0 */
    uint64_t deadlock_cycles;    /* watchdog: no issue and no memory progress */
    uint64_t livelock_cycles;    /* watchdog: warps at a barrier, the others never come */
    uint64_t timeline_interval;  /* cycles between --timeline samples */
    uint32_t timeline_phases;    /* timeline columns of warps per phase (0 = none) */
    uint32_t skip_idle_cycles;   /* jump over cycles in which nothing can happen */
    uint32_t sample_kernels;     /* kernel-level sampled simulation (api/sample.h) */
    uint32_t sample_kernel_detail; /* detailed launches per group before estimating */
    uint32_t sample_kernel_resample; /* also detailed: a group's launches base^k (< 2: none) */
    uint64_t sample_ctas;        /* intra-kernel sampling: CTAs in detail, 0 = all */
    uint32_t sample_warm;        /* sampling: skipped work warms the L2 and L1Ds */
    uint32_t racecheck;          /* report shared-memory hazards (func/racecheck.h) */
    char func_order[16];         /* functional mode: "serial" | "interleaved" */
    uint32_t func_window;        /* interleaved order: CTAs run together */
    uint32_t threads;            /* host threads simulating the SMs (0 = the machine's cores) */

    /* ---- clocks (MHz) ---- */
    double core_mhz, icnt_mhz, l2_mhz, dram_mhz;

    /* ---- SM ---- */
    uint32_t n_sms;
    uint32_t max_warps_per_sm;   /* resident warp slots */
    uint32_t max_threads_per_sm;
    uint32_t max_ctas_per_sm;
    uint32_t regs_per_sm;        /* 32-bit registers */
    uint32_t regs_per_thread;    /* occupancy input; 0 = analysis estimate */
    uint32_t regs_round;         /* per-thread registers allocated in multiples of this */
    uint32_t shared_per_sm;      /* bytes */
    uint32_t n_schedulers;       /* per SM; warp slot i -> scheduler i % n */
    uint32_t issue_interval;     /* cycles between issues of one scheduler (1, or 2 for PAWS) */
    uint32_t max_issue_per_warp; /* instructions per warp per issue slot (1) */
    uint32_t ibuffer_entries;    /* per warp (2) */
    char sched[CONFIG_NAME_MAX]; /* warp scheduler spec, e.g. "gto", "two_level_active:active=8" */
    char classifier[CONFIG_NAME_MAX]; /* request classifier spec (src/policy/classify/), "none" */
    char issue_model[16];        /* how a picked warp's instruction issues: "warp", "lwm" */
    uint32_t lwm_rows;           /* rows of 32 threads per large warp (issue model lwm) */
    uint32_t barrel;             /* 1: a warp issues only once its previous instructions completed */
    uint32_t store_ack;          /* 1: stores are acknowledged; warps and fences wait for them */
    uint32_t hoist_loads;        /* 1: loads move up their block (analysis/hoist.h) */
    uint32_t ptxas_regs;         /* 1: exec'd kernels' registers from ptxas -v */

    /* execution units: count = pipeline registers (units that can accept an
     * instruction per cycle), latency and initiation interval in core cycles */
    uint32_t sp_units, sp_latency, sp_ii;
    uint32_t sfu_units, sfu_latency, sfu_ii;
    uint32_t dp_units, dp_latency, dp_ii;   /* 0 units: DP runs on SFU */
    uint32_t int_units, int_latency, int_ii;/* 0 units: INT runs on SP */
    uint32_t ldst_units;                    /* memory instructions accepted per cycle */

    /* ---- shared memory ---- */
    uint32_t smem_banks;         /* 32 */
    uint32_t smem_latency;

    /* ---- L1 data, constant and instruction caches (per SM) ---- */
    uint32_t l1d_enabled;        /* 0: global loads bypass L1 */
    struct cache_geometry l1d;
    struct cache_geometry l1c;   /* constant cache */
    struct cache_geometry l1t;   /* texture cache (tex.*) */
    uint32_t tex_enabled;        /* 0: texture fetches go through the L1D as global loads */
    uint32_t tex_nc;             /* 1: ld.global.nc also reads through the texture cache */
    struct cache_geometry l1i;   /* instruction cache */
    uint32_t coalesce_sectored;  /* 1: every segment is 32 B (SPEC 1.3) */

    /* ---- interconnect ---- */
    uint32_t icnt_latency;       /* icnt cycles, each direction */
    uint32_t icnt_flit_bytes;    /* bytes a port moves per icnt cycle */
    uint32_t icnt_queue;         /* packets buffered per port */
    uint32_t icnt_ctrl_bytes;    /* control bytes added to packets carrying data */

    /* ---- memory partitions: L2 slices and DRAM channels ---- */
    uint32_t n_channels;         /* DRAM channels (memory partitions) */
    uint32_t subparts_per_channel;
    struct cache_geometry l2;    /* per sub-partition */
    uint32_t l2_banks;           /* per sub-partition */
    uint32_t l2_ports;           /* accesses one bank serves per l2 cycle */
    uint32_t l2_bank_queue;      /* request queue entries per bank */
    uint32_t l2_reply_queue;     /* 0: unbounded; else replies the L2-to-icnt queue holds
                                    before lookups wait (GPGPU-Sim's L2_icnt queue) */
    uint32_t l2_fill_queue;      /* 0: DRAM returns fill at once; else returns each bank's
                                    DRAM-to-L2 queue holds (one fill per bank per l2 cycle) */
    char l1d_latency_on[8];      /* "all": hits and fills pay l1d.latency; "hits": hits only */
    uint32_t l1d_flush, l2_flush;/* invalidate at the end of every kernel */
    uint32_t l2_memcpy_fill;     /* host-to-device copies write their lines into the L2 */
    uint32_t l2_sector_bytes;    /* 0: whole lines; else sectors of this size (4.x "S:") */
    uint32_t l2_port_bytes;      /* 0: no port limit; else bytes the data and fill ports move
                                    per l2 cycle (GPGPU-Sim 3.2.2 data port width) */
    char l2_index_addr[8];       /* "channel": L2 set from the channel-local address; "full" */
    uint32_t l2_input_ports;     /* interconnect ports of a sub-partition's input */
    uint32_t l2_rotate;          /* the first bank served rotates per l2 cycle */
    uint32_t l2_rop_latency;     /* l2 cycles from arrival to the bank queue (GPGPU-Sim ROP) */
    uint32_t l2_bypass_rop;      /* l2 cycles from arrival to the DRAM queue of a bypassed read */
    uint32_t l2_enabled;

    /* ---- DRAM (GDDR timing, in DRAM command-clock cycles) ---- */
    uint32_t dram_banks;
    uint32_t dram_row_bytes;
    uint32_t dram_bus_bytes;     /* bytes per data-bus beat per channel */
    uint32_t dram_burst;         /* burst length (beats) */
    uint32_t dram_data_rate;     /* beats per command clock (GDDR: 2 or 4) */
    uint32_t tCCD, tRRD, tRCD, tRAS, tRP, tRC, CL, WL, tCDLR, tWR;
    uint32_t dram_queue;         /* request queue entries per channel */
    char dram_sched[CONFIG_NAME_MAX];
    uint32_t addr_chunk;         /* bytes of consecutive addresses per channel */
    uint32_t dram_latency;       /* fixed controller/pipeline latency added to every DRAM
                                  * access, DRAM cycles (GPGPU-Sim -dram_latency) */
    struct energy_coeffs energy; /* the event-energy model (timing/energy.h) */
};

/* Defaults: a GTX480-like GPU (Fermi), the baseline most seed papers share. */
void config_defaults(struct gpu_config *c);

/* Apply a named preset over the current values: daws, paws, lwm, medic, cawa,
 * gtx480.  WS_ERR_INVALID naming the preset and listing the valid ones.
 * A preset defines the whole simulated machine: every key except the
 * simulation group (mode, device_memory, local_memory_per_thread,
 * max_warp_insn, deadlock_cycles, timeline_interval) is first reset to the
 * default, then the preset's values are applied. */
int config_preset(struct gpu_config *c, const char *name, struct err *e);
/* NULL-terminated list of preset names; the "key=value" settings of one
 * preset (NULL-terminated, NULL if unknown) for documentation. */
const char *const *config_preset_names(void);
const char *const *config_preset_settings(const char *name);

/* Set one key from its text value (validated). */
int config_set(struct gpu_config *c, const char *key, const char *value, struct err *e);

/* `--config X`: a preset name, or a file of "key = value" lines (# comments),
 * or a GPGPU-Sim gpgpusim.config (recognised by its "-gpgpu_" options). */
int config_load(struct gpu_config *c, const char *preset_or_path, struct err *e);
/* Same; for a GPGPU-Sim file *ignored receives the ignored-options list (a
 * newline-separated string to free; "" for presets and key/value files). */
int config_load_ignored(struct gpu_config *c, const char *preset_or_path, char **ignored,
                        struct err *e);

/* Import a GPGPU-Sim gpgpusim.config text: maps every modelled option; the
 * others are collected in `ignored` (a newline-separated list, may be NULL). */
int config_import_gpgpusim(struct gpu_config *c, const char *text, const char *name,
                           char **ignored, struct err *e);

/* Cross-field checks (e.g. warps fit threads, cache sizes are powers of two
 * where required). */
int config_validate(const struct gpu_config *c, struct err *e);

/* 1 if `key` belongs to the simulation group (mode, limits, watchdog, output
 * sampling): such keys describe how to run, not the machine, so they are kept
 * across presets and may change after the timing model has been built. */
int config_key_is_simulation(const char *key);

/* "key = value" for every key, in table order (the output loads back with
 * config_load). */
void config_print(const struct gpu_config *c, FILE *out);
/* The same for the keys the current mode reads: every key in timing mode; in
 * functional mode only mode, device_memory, local_memory_per_thread,
 * max_warp_insn, oob_read_zero, racecheck, func_order and func_window (the
 * rest configure the timing model). */
void config_print_used(const struct gpu_config *c, FILE *out);
/* Same as a JSON object (for --stats-json): "{" at the current position,
 * members indented by indent + 2 spaces, "}" indented by indent. */
void config_print_json(const struct gpu_config *c, FILE *out, int indent);
/* Key list with documentation and defaults (warpsim options). */
void config_describe(FILE *out);

/* Registers per thread as a CTA's allocation counts them: rpt rounded up to a
 * multiple of sm.regs_round (GPGPU-Sim 3.x's shader_core_config::max_cta; the
 * CTA's threads are padded to whole warps beside it). */
static inline uint32_t config_regs_alloc(const struct gpu_config *c, uint32_t rpt)
{
    uint32_t round = c->regs_round ? c->regs_round : 1;
    return (rpt + round - 1) / round * round;
}

/* Size text "64K", "4G", "123" -> bytes; 0 on success. */
int config_parse_size(const char *s, uint64_t *out);

#endif
