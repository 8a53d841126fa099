/* stats.h: the statistics registry.
 *
 * Components own their counters as plain uint64_t fields and bump them in the
 * hot loop with no indirection; once, at construction, they register each
 * counter by name with a pointer (and, for per-SM or per-bank copies, a count
 * and stride so the registry sums them).  Derived figures (IPC, MPKI, hit
 * rates, averages) are registered as ratios of registered counters.  The
 * registry reads the pointers only when asked: text summary, JSON, timeline
 * samples, per-kernel snapshots.
 *
 * Names follow GPGPU-Sim where one exists (gpu_sim_cycle, gpu_sim_insn,
 * gpu_ipc, L1D_... as "l1d_accesses"...) and are otherwise snake_case with a
 * component prefix (l1d_, l2_, dram_, icnt_, sched_).  Registration order is
 * output order, so output is deterministic. */
#ifndef WS_STATS_STATS_H
#define WS_STATS_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct stats;

struct stats *stats_new(void);
void stats_free(struct stats *s);

/* A counter: value = sum over i < count of *(uint64_t *)((char *)ptr + i * stride).
 * Use count = 1, stride = 0 for a single counter.  Duplicate names panic
 * (a simulator bug). */
void stats_counter(struct stats *s, const char *name, const char *desc, const uint64_t *ptr,
                   uint32_t count, size_t stride);

/* A running maximum kept in count copies (one per SM, say): value = the
 * largest of them.  Per-kernel snapshots take differences, as of counters. */
void stats_counter_max(struct stats *s, const char *name, const char *desc, const uint64_t *ptr,
                       uint32_t count, size_t stride);

/* A derived value: scale * num / den, where num and den are names of
 * counters, sums or ratios registered earlier (den 0 gives 0).  E.g. gpu_ipc =
 * gpu_sim_insn / gpu_sim_cycle, l1d_mpki = 1000 * l1d_misses / gpu_sim_insn. */
void stats_ratio(struct stats *s, const char *name, const char *desc, const char *num,
                 const char *den, double scale);

/* A weighted sum: sum over i < nterms of weights[i] * terms[i] (names of
 * counters, sums or ratios registered earlier), e.g. an energy as events x energy per
 * event.  Per-kernel snapshots take it over the kernel's counts. */
void stats_sum(struct stats *s, const char *name, const char *desc, uint32_t nterms,
               const char *const *terms, const double *weights);

/* A histogram: nbins counters (summed over count copies with stride between
 * copies) labelled by bin_names, e.g. the lane-activity histogram W0-4..W29-32. */
void stats_histogram(struct stats *s, const char *name, const char *desc, const uint64_t *bins,
                     uint32_t nbins, const char *const *bin_names, uint32_t count, size_t stride);

/* Prefix for the names registered from now on (counters, ratios,
 * histograms, timeline columns); NULL or "" for none.  A ratio's operands are
 * looked up with the prefix first, then as given.  The memory system sets
 * the cache's or DRAM's prefix (l1d_, l2_, dram_) around a policy's stats
 * hook, so one policy can report from several caches. */
void stats_set_prefix(struct stats *s, const char *prefix);

/* Current value of a counter or ratio by name; 0 if unknown (returns -1). */
int stats_get(const struct stats *s, const char *name, double *out);
int stats_get_u64(const struct stats *s, const char *name, uint64_t *out);

/* Output. */
void stats_print_text(const struct stats *s, FILE *out);
void stats_print_json(const struct stats *s, FILE *out, int indent); /* one JSON object */

/* Per-kernel snapshots: stats_kernel_end() records the difference of every
 * counter since the previous call, with a label (kernel name); the JSON
 * writer can emit the list. */
void stats_kernel_end(struct stats *s, const char *label);
void stats_print_kernels_json(const struct stats *s, FILE *out, int indent);

/* Timeline: stats_timeline_sample(s, cycle) appends a row of the named
 * columns (registered with stats_timeline_column, values read from counters
 * or gauges); written as CSV. */
void stats_timeline_column(struct stats *s, const char *name, const uint64_t *ptr,
                           uint32_t count, size_t stride);
void stats_timeline_sample(struct stats *s, uint64_t cycle);
void stats_timeline_write_csv(const struct stats *s, FILE *out);

#endif
