/* fuzz_fatbin.c: libFuzzer target for the fatbinary container parser: the
 * input is a fatbin; every entry is extracted (LZ4 and zstd payloads
 * decompressed) and the best PTX picked. */
#include <stdint.h>
#include <stdlib.h>

#include "base/err.h"
#include "runtime/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fatbin fb;
    struct err e = {0};
    if (fatbin_parse(data, size, &fb, &e) != 0)
        return 0;
    for (size_t i = 0; i < fb.nentries; i++) {
        char *out;
        size_t len;
        if (fatbin_entry_data(&fb.entries[i], &out, &len, &e) == 0)
            free(out);
    }
    char *ptx;
    size_t len;
    unsigned arch;
    if (fatbin_best_ptx(&fb, &ptx, &len, &arch, &e) == 0)
        free(ptx);
    fatbin_free(&fb);
    return 0;
}
