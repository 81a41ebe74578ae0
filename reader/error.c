/*
** error.c — error recording for readers; see error.h.
*/
#include "error.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int col_error_set(col_error *e, int code, const char *fmt, ...){
  if( e->code!=COL_OK ) return e->code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
  va_end(ap);
  e->code = code ? code : COL_ERROR;
  return e->code;
}

int col_error_prefix(col_error *e, const char *fmt, ...){
  char head[256], old[sizeof(e->msg)];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(head, sizeof(head), fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof(old));
  size_t nh = strlen(head), no = strlen(old);
  if( nh > sizeof(e->msg)-1 ) nh = sizeof(e->msg)-1;
  if( no > sizeof(e->msg)-1-nh ) no = sizeof(e->msg)-1-nh;
  memcpy(e->msg, head, nh);
  memcpy(e->msg+nh, old, no);
  e->msg[nh+no] = 0;
  return e->code;
}
