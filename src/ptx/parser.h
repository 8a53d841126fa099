/* parser.h: PTX text -> struct ptx_module (ir.h).
 *
 * The parser checks syntax and names (undeclared registers, labels, variables
 * and functions are errors), resolves labels to global PCs and computes the
 * layout of parameter, local and shared variables (see ptx_var.offset).
 * Errors are reported as "<name>:<line>:<col>: <what> '<token>'" with
 * WS_ERR_PARSE, or WS_ERR_UNSUPPORTED naming an instruction or directive that
 * is valid PTX but not implemented. */
#ifndef WS_PTX_PARSER_H
#define WS_PTX_PARSER_H

#include <stddef.h>

#include "base/err.h"
#include "ptx/ir.h"

/* `name` is used in messages (a file name, or e.g. "<string>").  On success
 * *out owns a new module (free with ptx_module_free). */
int ptx_parse(const char *text, size_t len, const char *name, struct ptx_module **out,
              struct err *e);

#endif
