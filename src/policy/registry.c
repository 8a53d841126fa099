/* registry.c: resolve a policy spec "name[:k=v,...]" against the generated
 * policy tables (cmake/policies.cmake) and parse its parameters. */
#include "policy/registry.h"

#include <stdio.h>
#include <string.h>

/* Split spec into name (copied into name, cap bytes) and the parameter text
 * after ':' (NULL if none).  Returns -1 when the name is empty or too long. */
static int registry_split(const char *spec, char *name, size_t cap, const char **rest)
{
    if (!spec)
        return -1;
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len == 0 || len >= cap)
        return -1;
    memcpy(name, spec, len);
    name[len] = '\0';
    *rest = colon ? colon + 1 : NULL;
    return 0;
}

/* The known names of one table, comma separated, into buf. */
static void registry_known(const char *const *names, unsigned n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        int w = snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
    }
}

/* Shared look-up: names[i] is the name of entry i; returns its index or sets e. */
static int registry_find(const char *kind, const char *spec, const char *const *names,
                         unsigned n, const char **rest, struct err *e)
{
    char name[64];
    char known[512];
    registry_known(names, n, known, sizeof known);
    if (registry_split(spec, name, sizeof name, rest) != 0)
        return -err_set(e, WS_ERR_INVALID, "empty or malformed %s spec '%s' (known: %s)", kind,
                        spec ? spec : "", known);
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return (int)i;
    return -err_set(e, WS_ERR_INVALID, "unknown %s '%s' (known: %s)", kind, name, known);
}

#define REGISTRY_NAMES_MAX 128

int registry_sched(const char *spec, const struct sched_ops **ops, struct param_set *params,
                   struct err *e)
{
    const char *names[REGISTRY_NAMES_MAX];
    unsigned n = sched_policy_count < REGISTRY_NAMES_MAX ? sched_policy_count : REGISTRY_NAMES_MAX;
    for (unsigned i = 0; i < n; i++)
        names[i] = sched_policies[i]->name;
    const char *rest;
    int i = registry_find("warp scheduler", spec, names, n, &rest, e);
    if (i < 0)
        return -i;
    *ops = sched_policies[i];
    return param_parse(params, sched_policies[i]->params, names[i], rest, e);
}

int registry_cache(const char *spec, const struct cache_policy_ops **ops,
                   struct param_set *params, struct err *e)
{
    const char *names[REGISTRY_NAMES_MAX];
    unsigned n = cache_policy_count < REGISTRY_NAMES_MAX ? cache_policy_count : REGISTRY_NAMES_MAX;
    for (unsigned i = 0; i < n; i++)
        names[i] = cache_policies[i]->name;
    const char *rest;
    int i = registry_find("cache policy", spec, names, n, &rest, e);
    if (i < 0)
        return -i;
    *ops = cache_policies[i];
    return param_parse(params, cache_policies[i]->params, names[i], rest, e);
}

int registry_dram(const char *spec, const struct dram_sched_ops **ops, struct param_set *params,
                  struct err *e)
{
    const char *names[REGISTRY_NAMES_MAX];
    unsigned n = dram_policy_count < REGISTRY_NAMES_MAX ? dram_policy_count : REGISTRY_NAMES_MAX;
    for (unsigned i = 0; i < n; i++)
        names[i] = dram_policies[i]->name;
    const char *rest;
    int i = registry_find("DRAM scheduler", spec, names, n, &rest, e);
    if (i < 0)
        return -i;
    *ops = dram_policies[i];
    return param_parse(params, dram_policies[i]->params, names[i], rest, e);
}

int registry_classify(const char *spec, const struct classify_ops **ops,
                      struct param_set *params, struct err *e)
{
    const char *names[REGISTRY_NAMES_MAX];
    unsigned n =
        classify_policy_count < REGISTRY_NAMES_MAX ? classify_policy_count : REGISTRY_NAMES_MAX;
    for (unsigned i = 0; i < n; i++)
        names[i] = classify_policies[i]->name;
    const char *rest;
    int i = registry_find("request classifier", spec, names, n, &rest, e);
    if (i < 0)
        return -i;
    *ops = classify_policies[i];
    return param_parse(params, classify_policies[i]->params, names[i], rest, e);
}
