/* layout.h: assigns ptx_var.offset and the per-function / per-module sizes
 * (see ir.h, "Layout").  Called by ptx_parse() after a successful parse. */
#ifndef WS_PTX_LAYOUT_H
#define WS_PTX_LAYOUT_H

#include "ptx/ir.h"

void ptx_layout(struct ptx_module *m);

#endif
