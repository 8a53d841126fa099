/* racecheck.h: shared-memory hazards between barriers (option racecheck).
 *
 * With the option on, every CTA keeps a shadow of its shared memory: for each
 * byte, the last thread that wrote it and a thread that read it since the
 * CTA's last barrier release (an "epoch").  An access that meets an access of
 * another warp in the same epoch at the same byte, at least one of them a
 * write and not both atomics, is a hazard: read after write (RAW), write
 * after read (WAR) or write after write (WAW), the accesses a racecheck tool
 * such as compute-sanitizer's reports.  The check does not depend on the
 * order warps run in, so the functional driver's warp-until-barrier order and
 * the timing model find the same hazards.
 *
 * Choices (docs/cuda.md): accesses of one warp are never a hazard with each
 * other (warpsim runs a warp's lanes in lock step under its SIMT stack); the
 * release of any barrier, named ones included, starts a new epoch for the
 * whole CTA; only shared memory is checked.
 *
 * Hazards are collected per launch, one entry per (kind, first PC, second PC)
 * with a count and the first occurrence, and printed by race_report. */
#ifndef WS_FUNC_RACECHECK_H
#define WS_FUNC_RACECHECK_H

#include <stdint.h>
#include <stdio.h>

struct func_kernel;
struct func_cta;
struct step;

/* Start of a CTA: its shadow covers its shared memory, all bytes unaccessed. */
void race_cta_begin(struct func_cta *c);
/* A barrier of c released its warps: a new epoch. */
void race_epoch(struct func_cta *c);
/* Lane `lane` of the step accessed n bytes of shared memory at offset off
 * (kind: enum acc_kind). */
void race_access(const struct step *s, uint32_t lane, uint64_t off, unsigned n, int kind);
void race_cta_free(struct func_cta *c);

/* Print the launch's hazards (nothing if none); frees the launch's log. */
void race_report(struct func_kernel *k, FILE *out);

#endif
