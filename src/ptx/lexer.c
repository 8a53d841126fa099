/* lexer.c: single-pass PTX tokenizer (comments skipped, numbers decoded). */
#include "ptx/lexer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

struct lexer {
    const char *text;
    size_t len;
    size_t pos;
    uint32_t line;
    size_t line_start;
    const char *name;
    struct err *e;
};

static int lex_is_follow(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

static uint32_t lex_col(const struct lexer *lx, size_t pos)
{
    return (uint32_t)(pos - lx->line_start + 1);
}

static int lex_peek(const struct lexer *lx, size_t off)
{
    return lx->pos + off < lx->len ? (unsigned char)lx->text[lx->pos + off] : -1;
}

/* Skip whitespace and comments; fails only on an unterminated block comment. */
static int lex_skip_space(struct lexer *lx)
{
    while (lx->pos < lx->len) {
        int c = (unsigned char)lx->text[lx->pos];
        if (c == '\n') {
            lx->pos++;
            lx->line++;
            lx->line_start = lx->pos;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '/' && lex_peek(lx, 1) == '/') {
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
                lx->pos++;
        } else if (c == '/' && lex_peek(lx, 1) == '*') {
            uint32_t line = lx->line, col = lex_col(lx, lx->pos);
            lx->pos += 2;
            for (;;) {
                if (lx->pos + 1 >= lx->len) {
                    return err_set(lx->e, WS_ERR_PARSE, "%s:%u:%u: unterminated comment '/*'",
                                   lx->name, line, col);
                }
                if (lx->text[lx->pos] == '*' && lx->text[lx->pos + 1] == '/') {
                    lx->pos += 2;
                    break;
                }
                if (lx->text[lx->pos] == '\n') {
                    lx->line++;
                    lx->line_start = lx->pos + 1;
                }
                lx->pos++;
            }
        } else {
            break;
        }
    }
    return WS_OK;
}

static int lex_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Accumulate digits of base `base` into *v; sets *ovf on 64-bit overflow. */
static void lex_digits(struct lexer *lx, unsigned base, uint64_t *v, uint8_t *ovf, int *ndig)
{
    for (;;) {
        int c = lex_peek(lx, 0);
        int d = c < 0 ? -1 : lex_hexval(c);
        if (d < 0 || (unsigned)d >= base)
            break;
        if (*v > (UINT64_MAX - (uint64_t)d) / base)
            *ovf = 1;
        *v = *v * base + (uint64_t)d;
        lx->pos++;
        (*ndig)++;
    }
}

static int lex_bad(struct lexer *lx, struct ptx_tok *t, const char *what)
{
    int tl = (int)(lx->pos - (size_t)(t->s - lx->text));
    if (tl > 64)
        tl = 64;
    if (tl < 1)
        tl = 1;
    return err_set(lx->e, WS_ERR_PARSE, "%s:%u:%u: %s '%.*s'", lx->name, t->line, t->col, what,
                   tl, t->s);
}

static int lex_number(struct lexer *lx, struct ptx_tok *t)
{
    int c1 = lex_peek(lx, 1);
    int nd = 0;
    if (lex_peek(lx, 0) == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        unsigned want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
        lx->pos += 2;
        lex_digits(lx, 16, &t->ival, &t->overflow, &nd);
        if ((unsigned)nd != want || lex_is_follow(lex_peek(lx, 0)))
            return lex_bad(lx, t, "malformed floating-point literal");
        t->kind = want == 8 ? PTX_TOK_F32 : PTX_TOK_F64;
        return WS_OK;
    }
    if (lex_peek(lx, 0) == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
        lx->pos += 2;
        lex_digits(lx, (c1 == 'x' || c1 == 'X') ? 16 : 2, &t->ival, &t->overflow, &nd);
        if (nd == 0)
            return lex_bad(lx, t, "malformed integer literal");
    } else {
        /* decimal, octal or a decimal float */
        size_t start = lx->pos;
        while (lex_peek(lx, 0) >= '0' && lex_peek(lx, 0) <= '9')
            lx->pos++;
        int c = lex_peek(lx, 0);
        if (c == '.' || c == 'e' || c == 'E') {
            if (c == '.') {
                lx->pos++;
                while (lex_peek(lx, 0) >= '0' && lex_peek(lx, 0) <= '9')
                    lx->pos++;
            }
            c = lex_peek(lx, 0);
            if (c == 'e' || c == 'E') {
                lx->pos++;
                if (lex_peek(lx, 0) == '+' || lex_peek(lx, 0) == '-')
                    lx->pos++;
                int nexp = 0;
                while (lex_peek(lx, 0) >= '0' && lex_peek(lx, 0) <= '9') {
                    lx->pos++;
                    nexp++;
                }
                if (nexp == 0)
                    return lex_bad(lx, t, "malformed floating-point literal");
            }
            if (lex_is_follow(lex_peek(lx, 0)))
                return lex_bad(lx, t, "malformed floating-point literal");
            char *tmp = xstrndup(lx->text + start, lx->pos - start);
            t->fval = strtod(tmp, NULL);
            free(tmp);
            t->kind = PTX_TOK_FLOAT;
            return WS_OK;
        }
        lx->pos = start;
        if (lex_peek(lx, 0) == '0') {
            lex_digits(lx, 8, &t->ival, &t->overflow, &nd);
        } else {
            lex_digits(lx, 10, &t->ival, &t->overflow, &nd);
        }
    }
    if (lex_peek(lx, 0) == 'U' || lex_peek(lx, 0) == 'u')
        lx->pos++;
    if (lex_is_follow(lex_peek(lx, 0)))
        return lex_bad(lx, t, "malformed integer literal");
    t->kind = PTX_TOK_INT;
    return WS_OK;
}

int ptx_lex(const char *text, size_t len, const char *name, struct ptx_tok **out, size_t *n,
            struct err *e)
{
    struct lexer lx = {.text = text, .len = len, .line = 1, .name = name, .e = e};
    struct ptx_tok *toks = NULL;
    size_t ntoks = 0, cap = 0;
    int rc = WS_OK;

    for (;;) {
        rc = lex_skip_space(&lx);
        if (rc != WS_OK)
            break;
        struct ptx_tok *t = ARRAY_PUSH(toks, ntoks, cap);
        memset(t, 0, sizeof *t);
        t->s = text + lx.pos;
        t->line = lx.line;
        t->col = lex_col(&lx, lx.pos);
        if (lx.pos >= len) {
            t->kind = PTX_TOK_EOF;
            break;
        }
        int c = (unsigned char)text[lx.pos];
        if (isalpha(c) || c == '_' || c == '$' || c == '%') {
            lx.pos++;
            while (lex_is_follow(lex_peek(&lx, 0)))
                lx.pos++;
            t->kind = PTX_TOK_IDENT;
        } else if (c == '.' && lex_is_follow(lex_peek(&lx, 1))) {
            lx.pos++;
            for (;;) {
                while (lex_is_follow(lex_peek(&lx, 0)))
                    lx.pos++;
                if (lex_peek(&lx, 0) == ':' && lex_peek(&lx, 1) == ':' &&
                    lex_is_follow(lex_peek(&lx, 2)))
                    lx.pos += 2;
                else
                    break;
            }
            t->kind = PTX_TOK_DIR;
        } else if (c >= '0' && c <= '9') {
            rc = lex_number(&lx, t);
            if (rc != WS_OK)
                break;
        } else if (c == '"') {
            lx.pos++;
            while (lx.pos < len && text[lx.pos] != '"' && text[lx.pos] != '\n') {
                if (text[lx.pos] == '\\' && lx.pos + 1 < len && text[lx.pos + 1] != '\n')
                    lx.pos++;
                lx.pos++;
            }
            if (lx.pos >= len || text[lx.pos] != '"') {
                rc = lex_bad(&lx, t, "unterminated string");
                break;
            }
            lx.pos++;
            t->kind = PTX_TOK_STRING;
        } else if (strchr(",;:[]{}()+-!@|<>=", c) && c != 0) {
            lx.pos++;
            t->kind = PTX_TOK_PUNCT;
            t->ch = (char)c;
        } else {
            if (isprint(c))
                rc = err_set(e, WS_ERR_PARSE, "%s:%u:%u: unexpected character '%c'", name,
                             t->line, t->col, c);
            else
                rc = err_set(e, WS_ERR_PARSE, "%s:%u:%u: unexpected character '\\x%02x'",
                             name, t->line, t->col, (unsigned)c);
            break;
        }
        if (lx.pos - (size_t)(t->s - text) > UINT32_MAX) {
            rc = lex_bad(&lx, t, "token too long");
            break;
        }
        t->len = (uint32_t)(lx.pos - (size_t)(t->s - text));
    }
    if (rc != WS_OK) {
        free(toks);
        return rc;
    }
    *out = toks;
    *n = ntoks;
    return WS_OK;
}
