/*
** input.c — CSV byte streams: raw files, gzip, zstd, inline data.
**
** A raw file is read() straight into the caller's buffer. A compressed file
** is read in 1 MiB blocks into our own buffer and decompressed into the
** caller's. gzip may hold several concatenated members (as `cat a.gz b.gz`
** makes); a stream that ends before its compressed data does is an error
** ("truncated"), never silently short.
*/
#include "input.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define INPUT_BLOCK (1u<<20)

struct csv_input {
  const char *name;       /* for messages (points at caller's path) */
  int fd;                 /* file, or -1 for inline data */
  int codec;              /* CSV_RAW / CSV_GZIP / CSV_ZSTD */
  int64_t size;           /* file or data size */
  int64_t nread;          /* bytes consumed from file/data */
  const char *data;       /* inline data, or NULL */
  unsigned char *zbuf;    /* compressed block (codecs only) */
  size_t zlen;            /* valid bytes in zbuf */
  size_t zpos;            /* next unconsumed byte of zbuf */
  int src_eof;            /* no more compressed bytes */
  int stream_done;        /* decompressor reported the end of a frame/member */
  z_stream gz;            /* gzip state (codec GZIP) */
  int gz_live;            /* gz initialized */
  ZSTD_DCtx *zs;          /* zstd state (codec ZSTD) */
};

int csv_input_codec(const csv_input *in){ return in->codec; }
int64_t csv_input_size(const csv_input *in){ return in->size; }
int64_t csv_input_bytes_read(const csv_input *in){ return in->nread; }
int csv_input_fd(const csv_input *in){ return in->codec==CSV_RAW ? in->fd : -1; }

/* Raw bytes from the source into buf. */
static long input_raw(csv_input *in, char *buf, size_t cap, col_error *err){
  if( in->fd<0 ){
    size_t left = (size_t)(in->size - in->nread);
    size_t n = left < cap ? left : cap;
    memcpy(buf, in->data + in->nread, n);
    in->nread += (int64_t)n;
    return (long)n;
  }
  for(;;){
    ssize_t n = read(in->fd, buf, cap);
    if( n>=0 ){ in->nread += n; return (long)n; }
    if( errno==EINTR ) continue;
    col_error_set(err, COL_EIO, "%s: read failed: %s", in->name, strerror(errno));
    return -1;
  }
}

int csv_input_open(const char *path, const char *data, size_t n,
                   csv_input **out, col_error *err){
  csv_input *in = calloc(1, sizeof(*in));
  *out = 0;
  if( in==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  in->fd = -1;
  unsigned char magic[4] = {0};
  size_t nmagic = 0;
  if( path ){
    in->name = path;
    in->fd = open(path, O_RDONLY | O_CLOEXEC);
    if( in->fd<0 ){
      col_error_set(err, COL_EIO, "%s: cannot open: %s", path, strerror(errno));
      goto open_error;
    }
    struct stat st;
    if( fstat(in->fd, &st)!=0 || !S_ISREG(st.st_mode) ){
      col_error_set(err, COL_EIO, "%s: not a regular file", path);
      goto open_error;
    }
    in->size = st.st_size;
    ssize_t k = pread(in->fd, magic, 4, 0);
    nmagic = k>0 ? (size_t)k : 0;
  }else{
    in->name = "data";
    in->data = data;
    in->size = (int64_t)n;
    nmagic = n<4 ? n : 4;
    memcpy(magic, data, nmagic);
  }
  if( nmagic>=2 && magic[0]==0x1f && magic[1]==0x8b ) in->codec = CSV_GZIP;
  else if( nmagic>=4 && magic[0]==0x28 && magic[1]==0xb5 && magic[2]==0x2f && magic[3]==0xfd ){
    in->codec = CSV_ZSTD;
  }
  if( in->codec!=CSV_RAW ){
    in->zbuf = malloc(INPUT_BLOCK);
    if( in->zbuf==0 ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto open_error; }
  }
  if( in->codec==CSV_GZIP ){
    /* 15+32: any window size, gzip or zlib header detected. */
    if( inflateInit2(&in->gz, 15+32)!=Z_OK ){
      col_error_set(err, COL_ENOMEM, "%s: cannot start gzip", in->name);
      goto open_error;
    }
    in->gz_live = 1;
  }else if( in->codec==CSV_ZSTD ){
    in->zs = ZSTD_createDCtx();
    if( in->zs==0 ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto open_error; }
    /* Refuse frames asking for absurd windows (bounded memory). */
    ZSTD_DCtx_setParameter(in->zs, ZSTD_d_windowLogMax, 27);
  }
  *out = in;
  return COL_OK;
open_error:
  csv_input_close(in);
  return err->code;
}

/* Refill zbuf when it is used up; returns -1 on error. */
static int input_fill(csv_input *in, col_error *err){
  if( in->zpos<in->zlen || in->src_eof ) return 0;
  long n = input_raw(in, (char*)in->zbuf, INPUT_BLOCK, err);
  if( n<0 ) return -1;
  in->zlen = (size_t)n;
  in->zpos = 0;
  if( n==0 ) in->src_eof = 1;
  return 0;
}

static long input_gzip(csv_input *in, char *buf, size_t cap, col_error *err){
  size_t got = 0;
  while( got<cap ){
    if( input_fill(in, err) ) return -1;
    if( in->zpos==in->zlen ){
      if( !in->stream_done ){
        col_error_set(err, COL_ERROR, "%s: truncated gzip stream", in->name);
        return -1;
      }
      break;
    }
    if( in->stream_done ){
      /* Another member follows (concatenated gzip). */
      inflateReset(&in->gz);
      in->stream_done = 0;
    }
    in->gz.next_in = in->zbuf + in->zpos;
    in->gz.avail_in = (uInt)(in->zlen - in->zpos);
    in->gz.next_out = (Bytef*)buf + got;
    in->gz.avail_out = (uInt)(cap - got);
    int rc = inflate(&in->gz, Z_NO_FLUSH);
    in->zpos = in->zlen - in->gz.avail_in;
    got = cap - in->gz.avail_out;
    if( rc==Z_STREAM_END ){
      in->stream_done = 1;
    }else if( rc!=Z_OK && !(rc==Z_BUF_ERROR && got==cap) ){
      col_error_set(err, COL_ERROR, "%s: corrupt gzip data (%s)", in->name,
                    in->gz.msg ? in->gz.msg : "inflate failed");
      return -1;
    }
    if( got>0 && in->zpos<in->zlen ) break;
  }
  return (long)got;
}

static long input_zstd(csv_input *in, char *buf, size_t cap, col_error *err){
  ZSTD_outBuffer ob = { buf, cap, 0 };
  while( ob.pos<ob.size ){
    if( input_fill(in, err) ) return -1;
    if( in->zpos==in->zlen ){
      if( !in->stream_done ){
        col_error_set(err, COL_ERROR, "%s: truncated zstd stream", in->name);
        return -1;
      }
      break;
    }
    ZSTD_inBuffer ib = { in->zbuf, in->zlen, in->zpos };
    size_t rc = ZSTD_decompressStream(in->zs, &ob, &ib);
    in->zpos = ib.pos;
    if( ZSTD_isError(rc) ){
      col_error_set(err, COL_ERROR, "%s: corrupt zstd data (%s)", in->name,
                    ZSTD_getErrorName(rc));
      return -1;
    }
    /* rc==0: a frame ended exactly here; more frames may follow. */
    in->stream_done = rc==0;
    if( ob.pos>0 && in->zpos<in->zlen ) break;
  }
  return (long)ob.pos;
}

long csv_input_read(csv_input *in, char *buf, size_t cap, col_error *err){
  if( cap==0 ) return 0;
  switch( in->codec ){
    case CSV_GZIP: return input_gzip(in, buf, cap, err);
    case CSV_ZSTD: return input_zstd(in, buf, cap, err);
    default: return input_raw(in, buf, cap, err);
  }
}

void csv_input_close(csv_input *in){
  if( in==0 ) return;
  if( in->fd>=0 ) close(in->fd);
  if( in->gz_live ) inflateEnd(&in->gz);
  if( in->zs ) ZSTD_freeDCtx(in->zs);
  free(in->zbuf);
  free(in);
}
