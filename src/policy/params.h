/* params.h: named, typed, documented policy parameters.
 *
 * A policy is selected by a spec "name" or "name:key=value,key=value"
 * (e.g. "two_level_active:active=8,inner=gto").  Each policy lists its
 * parameters in a NULL-terminated array of struct param_desc; the registry
 * parses the spec against it (unknown key, bad number -> an error naming the
 * policy, the key and the allowed keys) and hands the policy a param_set to
 * read with param_int()/param_str()/param_double().  Defaults come from the
 * descriptors, so a policy never sees a missing key. */
#ifndef WS_POLICY_PARAMS_H
#define WS_POLICY_PARAMS_H

#include <stdint.h>

#include "base/err.h"

enum param_type { PARAM_INT, PARAM_DOUBLE, PARAM_STR };

struct param_desc {
    const char *name;
    enum param_type type;
    const char *def; /* default, as text */
    const char *doc; /* one line, cites the paper where the value comes from */
};

#define PARAM_MAX 16
#define PARAM_STR_MAX 1024 /* a file path (e.g. a DAWS load profile) fits */

struct param_set {
    uint32_t n;
    const struct param_desc *desc[PARAM_MAX];
    int64_t i[PARAM_MAX];
    double d[PARAM_MAX];
    char s[PARAM_MAX][PARAM_STR_MAX];
};

/* Parse "k=v,k=v" (may be empty or NULL) against descs; policy names the
 * policy in messages. */
int param_parse(struct param_set *out, const struct param_desc *descs, const char *policy,
                const char *text, struct err *e);

/* Look-ups: the name must be one of the policy's descriptors (panic otherwise). */
int64_t param_int(const struct param_set *p, const char *name);
double param_double(const struct param_set *p, const char *name);
const char *param_str(const struct param_set *p, const char *name);

#endif
