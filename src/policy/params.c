/* params.c: parse a policy's "k=v,k=v" parameter text against its
 * descriptors (params.h) and look the values up by name. */
#include "policy/params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

/* "a, b, c" or "none" into buf. */
static void param_list_keys(const struct param_desc *descs, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    if (!descs || !descs[0].name) {
        snprintf(buf, cap, "none");
        return;
    }
    for (const struct param_desc *d = descs; d->name; d++) {
        int w = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", d->name);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
    }
}

static const char *param_type_name(enum param_type t)
{
    switch (t) {
    case PARAM_INT: return "an integer";
    case PARAM_DOUBLE: return "a number";
    case PARAM_STR: return "a string";
    }
    return "?";
}

/* Convert text into slot k of out; 0 on success, -1 on a malformed value. */
static int param_store(struct param_set *out, uint32_t k, const char *text, size_t len)
{
    char buf[PARAM_STR_MAX];
    if (len >= sizeof buf || len == 0)
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    switch (out->desc[k]->type) {
    case PARAM_INT: {
        long long v = strtoll(buf, &end, 0);
        if (errno || *end != '\0')
            return -1;
        out->i[k] = v;
        out->d[k] = (double)v;
        break;
    }
    case PARAM_DOUBLE: {
        double v = strtod(buf, &end);
        if (errno || *end != '\0')
            return -1;
        out->d[k] = v;
        out->i[k] = (int64_t)v;
        break;
    }
    case PARAM_STR:
        break;
    }
    memcpy(out->s[k], buf, len + 1);
    return 0;
}

int param_parse(struct param_set *out, const struct param_desc *descs, const char *policy,
                const char *text, struct err *e)
{
    memset(out, 0, sizeof *out);
    if (descs) {
        for (const struct param_desc *d = descs; d->name; d++) {
            if (out->n >= PARAM_MAX)
                panic("policy '%s' declares more than %d parameters", policy, PARAM_MAX);
            out->desc[out->n] = d;
            if (param_store(out, out->n, d->def, d->def ? strlen(d->def) : 0) != 0)
                panic("policy '%s': bad default '%s' for '%s'", policy, d->def ? d->def : "",
                      d->name);
            out->n++;
        }
    }
    if (!text || !*text)
        return WS_OK;

    uint64_t given = 0;
    const char *p = text;
    for (;;) {
        const char *item_end = strchr(p, ',');
        size_t item_len = item_end ? (size_t)(item_end - p) : strlen(p);
        const char *eq = memchr(p, '=', item_len);
        char keys[256];
        if (!eq || eq == p) {
            param_list_keys(descs, keys, sizeof keys);
            return err_set(e, WS_ERR_INVALID,
                           "policy '%s': expected key=value, got '%.*s' (allowed keys: %s)",
                           policy, (int)item_len, p, keys);
        }
        size_t key_len = (size_t)(eq - p);
        uint32_t k = 0;
        while (k < out->n &&
               !(strlen(out->desc[k]->name) == key_len && !memcmp(out->desc[k]->name, p, key_len)))
            k++;
        if (k == out->n) {
            param_list_keys(descs, keys, sizeof keys);
            return err_set(e, WS_ERR_INVALID,
                           "policy '%s': unknown parameter '%.*s' (allowed keys: %s)", policy,
                           (int)key_len, p, keys);
        }
        if (given & (1ull << k))
            return err_set(e, WS_ERR_INVALID, "policy '%s': parameter '%s' given twice", policy,
                           out->desc[k]->name);
        given |= 1ull << k;
        const char *val = eq + 1;
        size_t val_len = item_len - key_len - 1;
        if (param_store(out, k, val, val_len) != 0)
            return err_set(e, WS_ERR_INVALID,
                           "policy '%s': parameter '%s' must be %s (at most %d characters), "
                           "got '%.*s'",
                           policy, out->desc[k]->name, param_type_name(out->desc[k]->type),
                           PARAM_STR_MAX - 1, (int)val_len, val);
        if (!item_end)
            break;
        p = item_end + 1;
    }
    return WS_OK;
}

static uint32_t param_find(const struct param_set *p, const char *name, enum param_type t)
{
    for (uint32_t k = 0; k < p->n; k++) {
        if (!strcmp(p->desc[k]->name, name)) {
            if (p->desc[k]->type != t)
                panic("parameter '%s' read with the wrong type", name);
            return k;
        }
    }
    panic("parameter '%s' is not declared by the policy", name);
}

int64_t param_int(const struct param_set *p, const char *name)
{
    return p->i[param_find(p, name, PARAM_INT)];
}

double param_double(const struct param_set *p, const char *name)
{
    return p->d[param_find(p, name, PARAM_DOUBLE)];
}

const char *param_str(const struct param_set *p, const char *name)
{
    return p->s[param_find(p, name, PARAM_STR)];
}
