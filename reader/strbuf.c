/*
** strbuf.c — JSON string escaping for strbuf (the rest is inline).
*/
#include "strbuf.h"

void strbuf_json_string(strbuf *b, const char *s, size_t n){
  static const char hex[] = "0123456789abcdef";
  if( !strbuf_grow(b, n + 2) ) return;
  strbuf_putc(b, '"');
  size_t start = 0;
  for(size_t i=0; i<n; i++){
    unsigned char c = (unsigned char)s[i];
    if( c>=0x20 && c!='"' && c!='\\' ) continue;
    strbuf_append(b, s+start, i-start);
    start = i+1;
    char esc[7] = {'\\', 0};
    switch( c ){
      case '"': esc[1] = '"'; strbuf_append(b, esc, 2); break;
      case '\\': esc[1] = '\\'; strbuf_append(b, esc, 2); break;
      case '\b': esc[1] = 'b'; strbuf_append(b, esc, 2); break;
      case '\t': esc[1] = 't'; strbuf_append(b, esc, 2); break;
      case '\n': esc[1] = 'n'; strbuf_append(b, esc, 2); break;
      case '\f': esc[1] = 'f'; strbuf_append(b, esc, 2); break;
      case '\r': esc[1] = 'r'; strbuf_append(b, esc, 2); break;
      default:
        esc[1] = 'u'; esc[2] = '0'; esc[3] = '0';
        esc[4] = hex[c>>4]; esc[5] = hex[c&15];
        strbuf_append(b, esc, 6);
        break;
    }
  }
  strbuf_append(b, s+start, n-start);
  strbuf_putc(b, '"');
}
