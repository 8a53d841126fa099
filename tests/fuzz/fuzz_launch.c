/* fuzz_launch.c: libFuzzer target for load-then-launch: the input is a PTX
 * module; every kernel it defines is launched on a small grid, its pointer
 * parameters aimed at one 64 KB device buffer and its other parameters small
 * values, in functional mode and then in timing mode on a small machine, both
 * under a small instruction budget so a runaway kernel ends as an error.
 * Faults, deadlocks and budget exhaustion are statuses, not crashes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/gpu.h"
#include "ptx/ir.h"
#include "ptx_mutator.h"
#include "warpsim.h"

static void launch_all(ws_module *mod, ws_devptr buf)
{
    const struct ptx_module *m = mod->ptx;
    for (uint32_t f = 0; f < m->nfuncs && f < 4; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        if (!fn->is_entry || fn->nparams > 32)
            continue;
        uint64_t vals[32];
        void *args[32];
        for (uint32_t p = 0; p < fn->nparams; p++) {
            const struct ptx_var *v = &m->vars[fn->params[p]];
            vals[p] = v->size == 8 ? buf : 64; /* pointers at the buffer, sizes 64 */
            if (v->size > sizeof vals[p])
                return; /* a by-value struct: skip this kernel's module */
            args[p] = &vals[p];
        }
        ws_launch(mod, fn->name, ws_dim(2, 1, 1), ws_dim(64, 1, 1), 0, args);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    static const char *const modes[] = {"functional", "timing"};
    for (int k = 0; k < 2; k++) {
        ws_gpu *gpu;
        if (ws_gpu_new(&gpu) != WS_OK)
            break;
        ws_gpu_set(gpu, "mode", modes[k]);
        ws_gpu_set(gpu, "max_warp_insn", "20000");
        ws_gpu_set(gpu, "deadlock_cycles", "2000");
        ws_gpu_set(gpu, "sm.count", "2");
        ws_gpu_set(gpu, "mem.channels", "1");
        ws_gpu_set(gpu, "device_memory", "16M");
        ws_gpu_set(gpu, "local_memory_per_thread", "4K");
        ws_module *mod;
        ws_devptr buf;
        if (ws_module_load_string(gpu, text, "fuzz.ptx", &mod) == WS_OK &&
            ws_malloc(gpu, 64 * 1024, &buf) == WS_OK && ws_memset(gpu, buf, 0, 64 * 1024) == WS_OK)
            launch_all(mod, buf);
        ws_gpu_free(gpu);
    }
    free(text);
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return ptx_mutate(data, size, max_size, seed);
}
