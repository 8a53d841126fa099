/* config_internal.h: helpers shared by the files of src/config/ only. */
#ifndef WS_CONFIG_CONFIG_INTERNAL_H
#define WS_CONFIG_CONFIG_INTERNAL_H

#include "config/config.h"

/* Reset every key except the simulation group (mode, device_memory, ...) to
 * its default: the base a preset is applied on. */
void config_reset_machine(struct gpu_config *c);

#endif
