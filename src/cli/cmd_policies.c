/* cmd_policies.c: `warpsim policies`: every policy of every kind in the
 * registry (src/policy/registry.h) with its description and its parameters
 * (name, type, default, description). */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "policy/registry.h"

static void policies_usage(FILE *out)
{
    fprintf(out, "usage: warpsim policies [KIND]\n\n"
                 "Lists every policy compiled into warpsim, kind by kind, with its description\n"
                 "and its parameters (name, type, default, description).  KIND limits the\n"
                 "list to one kind:");
    for (unsigned k = 0; k < registry_kind_count; k++)
        fprintf(out, "%s %s", k ? "," : "", registry_kinds[k].kind);
    fprintf(out, ".\nA policy is selected with its parameters as NAME:key=value,key=value.\n");
}

static const char *param_type_name(enum param_type t)
{
    switch (t) {
    case PARAM_INT:
        return "int";
    case PARAM_DOUBLE:
        return "double";
    case PARAM_STR:
        return "string";
    }
    return "?";
}

static void policies_print_params(const struct param_desc *params)
{
    if (!params || !params[0].name) {
        printf("      (no parameters)\n");
        return;
    }
    int wn = 0, wd = 0;
    for (const struct param_desc *p = params; p->name; p++) {
        int n = (int)strlen(p->name), d = (int)strlen(p->def);
        wn = n > wn ? n : wn;
        wd = d > wd ? d : wd;
    }
    for (const struct param_desc *p = params; p->name; p++)
        printf("      %-*s  %-6s  default %-*s  %s\n", wn, p->name, param_type_name(p->type), wd,
               p->def, p->doc);
}

static void policies_print_kind(const struct registry_kind *k)
{
    printf("%s (%u)", k->title, *k->count);
    if (*k->selected_by)
        printf(", selected by %s", k->selected_by);
    printf(":\n");
    for (unsigned i = 0; i < *k->count; i++) {
        struct registry_policy p;
        k->get(i, &p);
        printf("  %s\n      %s\n", p.name, p.desc ? p.desc : "");
        policies_print_params(p.params);
    }
}

int cmd_policies(int argc, char **argv)
{
    const struct registry_kind *only = NULL;
    if (argc > 0 && cli_is_help(argv[0])) {
        policies_usage(stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "warpsim policies: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    if (argc == 1) {
        for (unsigned k = 0; k < registry_kind_count && !only; k++)
            if (strcmp(argv[0], registry_kinds[k].kind) == 0)
                only = &registry_kinds[k];
        if (!only) {
            fprintf(stderr, "warpsim policies: unknown kind '%s'\n", argv[0]);
            policies_usage(stderr);
            return 2;
        }
    }
    unsigned total = 0, shown = 0;
    for (unsigned k = 0; k < registry_kind_count; k++) {
        const struct registry_kind *kind = &registry_kinds[k];
        if (only && kind != only)
            continue;
        if (shown++)
            printf("\n");
        policies_print_kind(kind);
        total += *kind->count;
    }
    printf("\n%u %s\n", total, total == 1 ? "policy" : "policies");
    return 0;
}
