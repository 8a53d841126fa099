/* fuzz_ptx.c: libFuzzer target for the PTX front end and static analysis:
 * the input is a PTX module; loading parses, lays out and analyses it.  Any
 * outcome but a crash, a sanitizer report or a leak is fine: bad PTX must
 * come back as an error status. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_mutator.h"
#include "warpsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    ws_gpu *gpu;
    if (ws_gpu_new(&gpu) == WS_OK) {
        ws_module *mod;
        ws_module_load_string(gpu, text, "fuzz.ptx", &mod);
        ws_gpu_free(gpu);
    }
    free(text);
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return ptx_mutate(data, size, max_size, seed);
}
