/* test_registry.c: policy specs resolve by name, parameters parse against
 * their descriptors with defaults, and every mistake is an error that names
 * the policy, the key and what is allowed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"

static void test_lookup_and_defaults(void **state)
{
    (void)state;
    const struct sched_ops *s = NULL;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_sched("gto", &s, &ps, &e), WS_OK);
    assert_string_equal(s->name, "gto");
    assert_int_equal(ps.n, 0);
    assert_int_equal(registry_sched("two_level_active", &s, &ps, &e), WS_OK);
    assert_string_equal(s->name, "two_level_active");
    assert_int_equal(param_int(&ps, "active"), 6);
    assert_string_equal(param_str(&ps, "inner"), "lrr");
    assert_int_equal(registry_sched("two_level_active:active=8,inner=gto", &s, &ps, &e), WS_OK);
    assert_int_equal(param_int(&ps, "active"), 8);
    assert_string_equal(param_str(&ps, "inner"), "gto");
    assert_string_equal(param_str(&ps, "outer"), "lrr");
    assert_int_equal(registry_sched("two_level_fg:timeout=0x10", &s, &ps, &e), WS_OK);
    assert_int_equal(param_int(&ps, "timeout"), 16);
    assert_int_equal(param_int(&ps, "group"), 8);

    const struct cache_policy_ops *c = NULL;
    assert_int_equal(registry_cache("brrip:epsilon=0.25", &c, &ps, &e), WS_OK);
    assert_string_equal(c->name, "brrip");
    assert_true(param_double(&ps, "epsilon") == 0.25);
    assert_int_equal(param_int(&ps, "bits"), 2);
    const struct dram_sched_ops *d = NULL;
    assert_int_equal(registry_dram("frfcfs", &d, &ps, &e), WS_OK);
    assert_string_equal(d->name, "frfcfs");
}

static void test_unknown_names_list_known(void **state)
{
    (void)state;
    const struct sched_ops *s = NULL;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_sched("x", &s, &ps, &e), WS_ERR_INVALID);
    /* the list comes from the registry, so later policies extend it */
    assert_non_null(strstr(e.msg, "unknown warp scheduler 'x' (known: "));
    for (unsigned i = 0; i < sched_policy_count; i++)
        assert_non_null(strstr(e.msg, sched_policies[i]->name));
    assert_non_null(strstr(e.msg, "gto, lrr, oldest"));
    assert_null(s);
    err_clear(&e);
    assert_int_equal(registry_sched("", &s, &ps, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "(known: ")); /* names sorted: ccws, daws_..., gto, ... */
    assert_non_null(strstr(e.msg, "gto"));
    err_clear(&e);
    assert_int_equal(registry_sched(":active=1", &s, &ps, &e), WS_ERR_INVALID);
    const struct cache_policy_ops *c = NULL;
    err_clear(&e);
    assert_int_equal(registry_cache("plru", &c, &ps, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "unknown cache policy 'plru' (known: "));
    assert_non_null(strstr(e.msg, "srrip"));
    const struct dram_sched_ops *d = NULL;
    err_clear(&e);
    assert_int_equal(registry_dram("frfcfs2", &d, &ps, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "unknown DRAM scheduler 'frfcfs2' (known: fcfs, frfcfs"));
}

static void test_parameter_errors(void **state)
{
    (void)state;
    const struct sched_ops *s = NULL;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_sched("two_level_active:foo=1", &s, &ps, &e), WS_ERR_INVALID);
    assert_string_equal(e.msg, "policy 'two_level_active': unknown parameter 'foo' "
                               "(allowed keys: active, inner, outer, release)");
    err_clear(&e);
    assert_int_equal(registry_sched("two_level_active:active=many", &s, &ps, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "'two_level_active'"));
    assert_non_null(strstr(e.msg, "'active' must be an integer"));
    err_clear(&e);
    assert_int_equal(registry_sched("two_level_active:active=4,active=5", &s, &ps, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "given twice"));
    err_clear(&e);
    assert_int_equal(registry_sched("two_level_active:active", &s, &ps, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "expected key=value"));
    err_clear(&e);
    assert_int_equal(registry_sched("two_level_active:active=4,", &s, &ps, &e), WS_ERR_INVALID);
    err_clear(&e);
    assert_int_equal(registry_sched("lrr:x=1", &s, &ps, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "allowed keys: none"));
    err_clear(&e);
    const struct cache_policy_ops *c = NULL;
    assert_int_equal(registry_cache("brrip:epsilon=abc", &c, &ps, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "'epsilon' must be a number"));
}

/* Values that parse but are out of range are rejected by the policy's init. */
static void test_init_validates(void **state)
{
    (void)state;
    static const char *bad_sched[] = {"two_level_active:active=0", "two_level_active:inner=rr",
                                      "two_level_active:outer=x", "two_level_fg:group=0",
                                      "two_level_fg:group=65", "two_level_fg:timeout=-1",
                                      "two_level_fg:outer=oldest"};
    for (unsigned i = 0; i < sizeof bad_sched / sizeof bad_sched[0]; i++) {
        const struct sched_ops *s = NULL;
        struct param_set ps;
        struct err e;
        err_clear(&e);
        assert_int_equal(registry_sched(bad_sched[i], &s, &ps, &e), WS_OK);
        void *priv = calloc(1, s->priv_size);
        struct sched_init in = {.nslots = 48, .n_units = 1};
        assert_int_equal(s->init(priv, &ps, &in, &e), WS_ERR_INVALID);
        assert_non_null(strstr(e.msg, s->name));
        free(priv);
    }
    static const char *bad_cache[] = {"srrip:bits=0", "brrip:epsilon=2", "drrip:psel_bits=0",
                                      "ship:entries=1000", "ship:counter_bits=9", "ship:init=8"};
    for (unsigned i = 0; i < sizeof bad_cache / sizeof bad_cache[0]; i++) {
        const struct cache_policy_ops *c = NULL;
        struct param_set ps;
        struct err e;
        err_clear(&e);
        assert_int_equal(registry_cache(bad_cache[i], &c, &ps, &e), WS_OK);
        void *priv = calloc(1, c->priv_size(4, 4));
        struct cache_policy_init in = {.sets = 4, .ways = 4};
        assert_int_equal(c->init(priv, &ps, &in, &e), WS_ERR_INVALID);
        assert_non_null(strstr(e.msg, c->name));
        free(priv);
    }
    const struct dram_sched_ops *d = NULL;
    struct param_set ps;
    struct err e;
    err_clear(&e);
    assert_int_equal(registry_dram("fcfs:blocking=2", &d, &ps, &e), WS_OK);
    void *priv = calloc(1, d->priv_size);
    assert_int_equal(d->init(priv, &ps, 8, &e), WS_ERR_INVALID);
    free(priv);
}

/* A string parameter holds a long file path; a longer one is an error that
 * names the policy, the parameter and the limit. */
static void test_long_string_parameter(void **state)
{
    (void)state;
    static char spec[3000];
    const struct sched_ops *ops = NULL;
    struct param_set ps;
    struct err e;
    int n = snprintf(spec, sizeof spec, "daws_profiled:profile=/");
    memset(spec + n, 'p', 1000);
    spec[n + 1000] = 0;
    err_clear(&e);
    assert_int_equal(registry_sched(spec, &ops, &ps, &e), WS_OK);
    assert_int_equal(strlen(param_str(&ps, "profile")), 1001);
    memset(spec + n, 'p', 2000);
    spec[n + 2000] = 0;
    assert_int_not_equal(registry_sched(spec, &ops, &ps, &e), WS_OK);
    assert_non_null(strstr(e.msg, "daws_profiled"));
    assert_non_null(strstr(e.msg, "'profile'"));
    assert_non_null(strstr(e.msg, "at most 1023 characters"));
}

/* Every registered policy documents itself and its parameters. */
static void test_every_policy_documented(void **state)
{
    (void)state;
    for (unsigned i = 0; i < sched_policy_count; i++) {
        assert_true(strlen(sched_policies[i]->desc) > 10);
        for (const struct param_desc *p = sched_policies[i]->params; p && p->name; p++)
            assert_true(p->def && p->doc && strlen(p->doc) > 5);
    }
    for (unsigned i = 0; i < cache_policy_count; i++) {
        assert_true(strlen(cache_policies[i]->desc) > 10);
        for (const struct param_desc *p = cache_policies[i]->params; p && p->name; p++)
            assert_true(p->def && p->doc && strlen(p->doc) > 5);
    }
    for (unsigned i = 0; i < dram_policy_count; i++) {
        assert_true(strlen(dram_policies[i]->desc) > 10);
        for (const struct param_desc *p = dram_policies[i]->params; p && p->name; p++)
            assert_true(p->def && p->doc && strlen(p->doc) > 5);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup_and_defaults),
        cmocka_unit_test(test_unknown_names_list_known),
        cmocka_unit_test(test_parameter_errors),
        cmocka_unit_test(test_init_validates),
        cmocka_unit_test(test_long_string_parameter),
        cmocka_unit_test(test_every_policy_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
