/* demangle.c: see demangle.h. */
#include "base/demangle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s C-linkage demangler (<cxxabi.h>: abi::__cxa_demangle) */
typedef char *(*cxa_demangle_fn)(const char *mangled, char *out, size_t *len, int *status);

static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void find_demangler(void)
{
    void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!sym) {
        /* kept open for the life of the process */
        void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (h)
            sym = dlsym(h, "__cxa_demangle");
    }
    if (sym)
        memcpy(&cxa_demangle, &sym, sizeof cxa_demangle);
}

const char *demangle(const char *name, char *buf, size_t len)
{
    if (!name || strncmp(name, "_Z", 2) != 0 || len == 0)
        return name;
    pthread_once(&cxa_once, find_demangler);
    if (!cxa_demangle)
        return name;
    int status = -1;
    char *d = cxa_demangle(name, NULL, NULL, &status);
    if (!d || status != 0) {
        free(d);
        return name;
    }
    snprintf(buf, len, "%s", d);
    free(d);
    return buf;
}
