/* fuzz_config.c: libFuzzer target for configuration text: the first byte
 * picks the reader, the rest is its input.  Even: a GPGPU-Sim
 * gpgpusim.config for the importer; odd: "key=value" lines applied with
 * config_set as --set options are (keys, numeric ranges, sizes, policy specs
 * with parameters).  Then the cross-key checks run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    struct gpu_config c;
    struct err e = {0};
    config_defaults(&c);
    if (data[0] % 2 == 0) {
        char *ignored = NULL;
        config_import_gpgpusim(&c, text, "fuzz.config", &ignored, &e);
        free(ignored);
    } else {
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char *eq = strchr(line, '=');
            if (!eq)
                continue;
            *eq = '\0';
            config_set(&c, line, eq + 1, &e);
        }
    }
    config_validate(&c, &e);
    free(text);
    return 0;
}
