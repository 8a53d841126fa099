/* demangle.h: C++ names (nvcc's kernel names are Itanium-mangled) shown as
 * the user wrote them. */
#ifndef WS_BASE_DEMANGLE_H
#define WS_BASE_DEMANGLE_H

#include <stddef.h>

/* `name` demangled into buf ("_Z3addPfi" -> "add(float*, int)"), truncated to
 * len; `name` itself when it is not a mangled C++ name or no demangler is
 * available.  The demangler is libstdc++'s __cxa_demangle, found at run time
 * (already loaded in every nvcc-built program, else libstdc++.so.6 is opened),
 * so that warpsim needs no C++ library to build or run. */
const char *demangle(const char *name, char *buf, size_t len);

#endif
