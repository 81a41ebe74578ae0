/*
** strbuf.h — a growable byte buffer for building text (JSON, messages).
** Errors are sticky: after a failed allocation every append is a no-op and
** `oom` stays set, so callers check once at the end.
*/
#ifndef COLUMNAR_STRBUF_H
#define COLUMNAR_STRBUF_H

#include <stddef.h>
#include <string.h>
#include <stdlib.h>

typedef struct strbuf {
  char *p;                /* bytes (not NUL-terminated) */
  size_t n;               /* used */
  size_t cap;             /* allocated */
  int oom;                /* an allocation failed */
} strbuf;

static inline int strbuf_grow(strbuf *b, size_t more){
  if( b->oom ) return 0;
  if( b->n + more <= b->cap ) return 1;
  size_t nc = b->cap ? b->cap*2 : 256;
  while( nc < b->n + more ) nc *= 2;
  char *np = realloc(b->p, nc);
  if( np==0 ){ b->oom = 1; return 0; }
  b->p = np; b->cap = nc;
  return 1;
}
static inline void strbuf_append(strbuf *b, const void *s, size_t n){
  if( n && strbuf_grow(b, n) ){ memcpy(b->p + b->n, s, n); b->n += n; }
}
static inline void strbuf_putc(strbuf *b, char c){
  if( strbuf_grow(b, 1) ) b->p[b->n++] = c;
}
static inline void strbuf_puts(strbuf *b, const char *s){
  strbuf_append(b, s, strlen(s));
}
static inline void strbuf_free(strbuf *b){ free(b->p); memset(b, 0, sizeof(*b)); }

/* Append s as a JSON string literal, escaped as SQLite's json_quote(). */
void strbuf_json_string(strbuf *b, const char *s, size_t n);

#endif
