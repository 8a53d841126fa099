/* ptx_mutator.h: a PTX-aware libFuzzer mutator shared by the PTX targets.
 * Byte mutation of PTX yields a parseable module for about one input in ten,
 * so the executor and the timing model are rarely reached.  This mutator
 * mostly edits whole lines and whole tokens of a module taken from the
 * corpus: it deletes, duplicates, moves or swaps a line, replaces a register
 * name with another one of the same module, replaces a number with an
 * interesting value, or swaps a type suffix; one mutation in eight is
 * libFuzzer's own byte mutation, which keeps the parser's error paths in
 * play. */
#ifndef WS_FUZZ_PTX_MUTATOR_H
#define WS_FUZZ_PTX_MUTATOR_H

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

struct span {
    size_t b, e; /* [b, e) */
};

/* xorshift: libFuzzer passes a seed per call; the mutation is a pure
 * function of (input, seed), so crashes reproduce. */
static uint32_t mut_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Line spans of data (at most cap). */
static size_t mut_lines(const uint8_t *d, size_t n, struct span *out, size_t cap)
{
    size_t k = 0, b = 0;
    for (size_t i = 0; i <= n && k < cap; i++)
        if (i == n || d[i] == '\n') {
            if (i > b || i < n)
                out[k++] = (struct span){b, i < n ? i + 1 : i};
            b = i + 1;
        }
    return k;
}

/* Token spans: registers (%name), numbers (digits, 0x...), type suffixes (.u32 etc.). */
enum { TOK_REG, TOK_NUM, TOK_TYPE };
static size_t mut_tokens(const uint8_t *d, size_t n, int kind, struct span *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < cap;) {
        size_t j = i;
        if (kind == TOK_REG && d[i] == '%') {
            for (j = i + 1; j < n && (isalnum(d[j]) || d[j] == '_' || d[j] == '.'); j++)
                ;
        } else if (kind == TOK_NUM && isdigit(d[i]) && (i == 0 || !isalnum(d[i - 1]))) {
            for (j = i + 1; j < n && (isxdigit(d[j]) || d[j] == 'x' || d[j] == 'X'); j++)
                ;
        } else if (kind == TOK_TYPE && d[i] == '.' && i + 1 < n && strchr("usbf", d[i + 1])) {
            for (j = i + 2; j < n && isdigit(d[j]); j++)
                ;
            if (j == i + 2)
                j = i;
        }
        if (j > i + 1 || (kind == TOK_NUM && j > i)) {
            out[k++] = (struct span){i, j};
            i = j;
        } else {
            i++;
        }
    }
    return k;
}

/* Replace [b, e) of data (size n) with rep; returns the new size or 0 if it
 * would not fit. */
static size_t mut_splice(uint8_t *d, size_t n, size_t max, size_t b, size_t e, const uint8_t *rep,
                         size_t rn)
{
    if (n - (e - b) + rn > max)
        return 0;
    uint8_t *tmp = malloc(rn ? rn : 1);
    if (!tmp)
        return 0;
    memcpy(tmp, rep, rn); /* rep may point into d */
    memmove(d + b + rn, d + e, n - e);
    memcpy(d + b, tmp, rn);
    free(tmp);
    return n - (e - b) + rn;
}

/* The input as a NUL-terminated string (PTX text), or NULL; free it. */
static char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

static size_t ptx_mutate(uint8_t *d, size_t n, size_t max, unsigned int seed)
{
    uint32_t s = seed | 1;
    enum { CAP = 4096 };
    static struct span sp[CAP], sq[CAP];
    unsigned op = mut_next(&s) % 8;
    if (op == 0 || n == 0)
        return LLVMFuzzerMutate(d, n, max);
    if (op <= 4) { /* line edits */
        size_t k = mut_lines(d, n, sp, CAP);
        if (k < 2)
            return LLVMFuzzerMutate(d, n, max);
        struct span a = sp[mut_next(&s) % k], b = sp[mut_next(&s) % k];
        size_t r = 0;
        if (op == 1) { /* delete a line */
            r = mut_splice(d, n, max, a.b, a.e, d, 0);
        } else if (op == 2) { /* duplicate a line after another */
            uint8_t line[512];
            size_t ln = a.e - a.b < sizeof line ? a.e - a.b : sizeof line;
            memcpy(line, d + a.b, ln);
            r = mut_splice(d, n, max, b.e, b.e, line, ln);
        } else if (op == 3 && a.b != b.b) { /* move a line */
            uint8_t line[512];
            size_t ln = a.e - a.b;
            if (ln > sizeof line)
                return LLVMFuzzerMutate(d, n, max);
            memcpy(line, d + a.b, ln);
            size_t m = mut_splice(d, n, max, a.b, a.e, d, 0);
            size_t at = b.b > a.b ? b.b - ln : b.b;
            r = m ? mut_splice(d, m, max, at, at, line, ln) : 0;
        } else { /* copy a line over another */
            uint8_t line[512];
            size_t ln = a.e - a.b < sizeof line ? a.e - a.b : sizeof line;
            memcpy(line, d + a.b, ln);
            r = mut_splice(d, n, max, b.b, b.e, line, ln);
        }
        return r ? r : LLVMFuzzerMutate(d, n, max);
    }
    if (op == 5) { /* a register for another register of the module */
        size_t k = mut_tokens(d, n, TOK_REG, sp, CAP);
        if (k < 2)
            return LLVMFuzzerMutate(d, n, max);
        struct span a = sp[mut_next(&s) % k], b = sp[mut_next(&s) % k];
        uint8_t tok[64];
        size_t tn = b.e - b.b < sizeof tok ? b.e - b.b : sizeof tok;
        memcpy(tok, d + b.b, tn);
        size_t r = mut_splice(d, n, max, a.b, a.e, tok, tn);
        return r ? r : LLVMFuzzerMutate(d, n, max);
    }
    if (op == 6) { /* a number for an interesting value */
        static const char *const vals[] = {"0", "1", "2", "3", "7", "8", "31", "32", "33", "63",
                                           "64", "127", "128", "255", "256", "1023", "1024",
                                           "4096", "65535", "65536", "2147483647", "2147483648",
                                           "4294967295", "4294967296", "0xffffffff",
                                           "0x7fffffffffffffff", "18446744073709551615"};
        size_t k = mut_tokens(d, n, TOK_NUM, sp, CAP);
        if (k == 0)
            return LLVMFuzzerMutate(d, n, max);
        struct span a = sp[mut_next(&s) % k];
        const char *v = vals[mut_next(&s) % (sizeof vals / sizeof vals[0])];
        size_t r = mut_splice(d, n, max, a.b, a.e, (const uint8_t *)v, strlen(v));
        return r ? r : LLVMFuzzerMutate(d, n, max);
    }
    /* a type suffix for another one of the module */
    size_t k = mut_tokens(d, n, TOK_TYPE, sq, CAP);
    if (k < 2)
        return LLVMFuzzerMutate(d, n, max);
    struct span a = sq[mut_next(&s) % k], b = sq[mut_next(&s) % k];
    uint8_t tok[16];
    size_t tn = b.e - b.b < sizeof tok ? b.e - b.b : sizeof tok;
    memcpy(tok, d + b.b, tn);
    size_t r = mut_splice(d, n, max, a.b, a.e, tok, tn);
    return r ? r : LLVMFuzzerMutate(d, n, max);
}

#endif
