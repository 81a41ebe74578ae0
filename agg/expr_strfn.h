/*
** expr_strfn.h — one value of length(), substr(), instr() and strftime()
** for group_by expressions, as SQLite computes them, with shortcuts for
** the values ClickBench feeds them: ASCII text (characters are bytes) and
** timestamps rendered as 'YYYY-MM-DD HH:MM:SS' (strftime fields are slices
** of the text). Every shortcut gives the bytes the general path gives.
*/
#ifndef COLUMNAR_AGG_EXPR_STRFN_H
#define COLUMNAR_AGG_EXPR_STRFN_H

#include <stdint.h>

/* Code point c (below 0x110000) written at o as UTF-8 the way SQLite's
** char() and JSON unescaping write it (a surrogate like any other code
** point); the bytes written, 1 to 4. */
static inline uint32_t agg_utf8_put(char *o, uint32_t c){
  if( c<0x80 ){ o[0] = (char)c; return 1; }
  if( c<0x800 ){ o[0] = (char)(0xC0 | (c>>6)); o[1] = (char)(0x80 | (c&0x3F)); return 2; }
  if( c<0x10000 ){
    o[0] = (char)(0xE0 | (c>>12)); o[1] = (char)(0x80 | ((c>>6)&0x3F)); o[2] = (char)(0x80 | (c&0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (c>>18)); o[1] = (char)(0x80 | ((c>>12)&0x3F));
  o[2] = (char)(0x80 | ((c>>6)&0x3F)); o[3] = (char)(0x80 | (c&0x3F));
  return 4;
}

/* Length of the longest prefix of z[0..n) whose bytes are 1..127: within it
** characters are bytes and no NUL ends the C text. */
uint32_t agg_ascii_run(const char *z, uint32_t n);

/* length() of TEXT z[0..n): characters before the first NUL; lead_any:
** as SQLite 3.54 splits malformed UTF-8 (col_dialect.utf8_lead_any). */
int64_t agg_str_length(const char *z, uint32_t n, int lead_any);

/* substrFunc's arithmetic: of a value len characters (or bytes) long,
** substr(x, p1[, p2]) skips *start and takes at most *count (p1, p2 already
** cast to int; len matters only for p1<0). */
void agg_substr_span(int64_t p1, int has_p2, int64_t p2, int64_t len,
                     int64_t *start, int64_t *count);

/* substr(z, p1[, p2]) of TEXT z[0..n) (p1, p2 already cast to int as
** substrFunc does): the result is z[*off .. *off + *len). lead_any: the
** characters it skips and takes split malformed UTF-8 as 3.54 does (a
** negative p1 still counts them the old way there, as 3.54 does). */
void agg_str_substr(const char *z, uint32_t n, int64_t p1, int has_p2, int64_t p2,
                    int lead_any, uint32_t *off, uint32_t *len);

/* instr(h, nd) over h[0..nh) and nd[0..nn); is_text unless both are BLOBs. */
int64_t agg_str_instr(const char *h, uint32_t nh, const char *nd, uint32_t nn, int is_text);

/* A strftime() format compiled against canonical timestamp text: each
** output byte is a byte of the input or a literal. */
typedef struct agg_tpl {
  int16_t *code;          /* >=0: input byte; <0: literal byte -code-1 */
  uint32_t n;             /* output bytes */
  int32_t run;            /* >=0: the output is input[run .. run+n) */
} agg_tpl;

/* Compile fmt[0..nfmt): 0 done, 1 the format uses a field a template
** cannot copy (%j %w %W %s %J %f, unknown ones), -1 out of memory. */
int agg_tpl_compile(const char *fmt, uint32_t nfmt, agg_tpl *t);
void agg_tpl_free(agg_tpl *t);

/* Is z[0..n) 'YYYY-MM-DD HH:MM:SS' with every field in the range where
** SQLite prints it back as given (and the Julian day is valid)? normalize:
** as SQLite that normalizes a day past the month's end (col_dialect). */
int agg_ts_canonical(const char *z, uint32_t n, int normalize);

/* The template's output for canonical z into out (t->n bytes). */
void agg_tpl_apply(const agg_tpl *t, const char *z, char *out);

#endif
