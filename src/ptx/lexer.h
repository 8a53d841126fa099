/* lexer.h: splits PTX text into tokens in one pass.
 *
 * Tokens point into the source text (not copied), so the text must outlive
 * the token array.  Directive-like words (".reg", ".f32", ".L2::cache_hint")
 * are one PTX_TOK_DIR token including the leading dot; "%tid.x" is lexed as
 * the identifier "%tid" followed by the directive token ".x". */
#ifndef WS_PTX_LEXER_H
#define WS_PTX_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

enum ptx_tok_kind {
    PTX_TOK_EOF = 0,
    PTX_TOK_IDENT,  /* foo, %r1, $L__BB0_2, _ */
    PTX_TOK_DIR,    /* .reg, .f32, .L1::no_allocate */
    PTX_TOK_INT,    /* decimal, 0x hex, octal, 0b binary, optional U suffix */
    PTX_TOK_FLOAT,  /* decimal floating-point literal: fval */
    PTX_TOK_F32,    /* 0fXXXXXXXX: ival holds the 32 bits */
    PTX_TOK_F64,    /* 0dXXXXXXXXXXXXXXXX: ival holds the 64 bits */
    PTX_TOK_STRING, /* "..." (s/len include the quotes) */
    PTX_TOK_PUNCT,  /* one character: , ; : [ ] { } ( ) + - ! @ | < > = */
};

struct ptx_tok {
    uint8_t kind;      /* enum ptx_tok_kind */
    uint8_t overflow;  /* PTX_TOK_INT: the value does not fit in 64 bits */
    char ch;           /* PTX_TOK_PUNCT: the character */
    const char *s;     /* start in the source text */
    uint32_t len;      /* length in bytes */
    uint32_t line, col;/* 1-based position */
    uint64_t ival;
    double fval;
};

/* Tokenize text[0..len).  On success *out (free with free()) holds *n tokens,
 * the last one PTX_TOK_EOF. */
int ptx_lex(const char *text, size_t len, const char *name, struct ptx_tok **out,
            size_t *n, struct err *e);

#endif
