/*
** table.h — the hash table a group by probes, keys held column at a time.
**
** Seed 003's table in C. Buckets are 64-bit words: a group's slot + 1 (0 is
** empty) beside the high 32 bits of its hash, probed linearly from the
** home bucket the top bits of the hash name, and kept at most half full.
** The bucket's copy of the hash lets a probe reject most strangers without
** touching the group, and lets doubling re-place every group without
** touching a key; no per-group hash is kept (merging two tables hashes
** the stored keys again). Keys are stored a column at a time (a value word
** per group, tags and lengths only when needed; TEXT/BLOB bytes in a
** per-column heap the table owns), except that a table of several key
** columns keeps each group's value words side by side (recs), the one
** place seed 003's layout gave way: a probe compares every column, and at
** millions of groups each column's word was a cache miss of its own. A
** group's slot is the number of groups before it, so groups come out in
** the order they were first seen. Memory is charged by capacity, strings
** included.
**
** Equality is SQLite's GROUP BY equality: NULL with NULL, INTEGER and REAL
** numerically (1 and 1.0, -0.0 and 0.0 are one group; the first seen value
** is kept as the key), TEXT under BINARY, BLOB by bytes.
*/
#ifndef COLUMNAR_AGG_TABLE_H
#define COLUMNAR_AGG_TABLE_H

#include <stdint.h>
#include <string.h>
#include "../reader/vector.h"
#include "../reader/scan.h"
#include "../reader/error.h"

#define AGG_EMPTY UINT32_MAX          /* a bucket holding no group */
#define AGG_MAX_GROUPS (1u<<30)      /* most groups one table holds: at
                                      ** most half of 2^31 buckets */

/* One key column of every group, in slot order. Tags and lengths exist
** only once needed: a column whose groups all have one storage class keeps
** that class in utag, and one without TEXT or BLOB has no lengths. At ten
** million integer groups the two arrays were 130 MB of pages faulted in
** for nothing. */
#define AGG_UTAG_NONE (-1)            /* utag before the first group */
typedef struct agg_keycol {
  uint8_t *tags;          /* storage class per group, or NULL while every
                          ** group's is utag */
  uint64_t *vals;         /* INTEGER, REAL bits; TEXT/BLOB: up to
                          ** AGG_INLINE_BYTES bytes themselves
                          ** (agg_inline_word), else their offset in heap;
                          ** slot's word is vals[slot*stride] (AGG_KEY_WORD) */
  uint32_t stride;        /* 1, or in a table of several key columns their
                          ** count: the table owns one block of every
                          ** group's words side by side (agg_table.recs) */
  uint32_t *lens;         /* TEXT/BLOB length in bytes (0 for other
                          ** classes), or NULL while no group is TEXT/BLOB */
  char **segs;            /* the heap: TEXT/BLOB bytes of all groups, in
                          ** segments (AGG_HEAP_SEG_BITS) */
  uint32_t nseg;          /* segments in segs (0: no heap yet) */
  uint32_t segroom;       /* entries segs has room for */
  uint32_t cur;           /* the segment appends go to */
  uint32_t cur_len;       /* bytes used in it */
  uint32_t cur_cap;       /* bytes it holds */
  struct agg_zone *zone;  /* where its arrays are carved (its table's
                          ** agg_table.zone), or NULL */
  struct agg_slab_pool *pool; /* where heap slabs come from, or NULL */
  uint64_t heap_cap;      /* bytes allocated for the heap, all segments */
  uint32_t cap;           /* groups vals (and tags, lens) have room for */
  int utag;               /* while tags is NULL: the storage class every
                          ** group has, AGG_UTAG_NONE before the first */
} agg_keycol;

/* TEXT/BLOB this short live in the value word: the bytes, then their
** length in the top byte with its top bit set, which no heap offset has
** (the host is little-endian: reader/parquet/delta.c). No heap bytes, and
** a comparison is one word, not a length, then a memcmp through a cache
** miss into the heap (a minute '00'..'59', an empty SearchPhrase, most
** phone models). */
#define AGG_INLINE_BYTES 7
#define AGG_INLINE_FLAG (1ull<<63)

/* A TEXT/BLOB longer than that lives in the heap; its word holds its
** offset in the low 40 bits and its length in the 23 above (AGG_HEAP_LEN
** when it is that long or longer: then lens has it), so a probe compares
** a stored string's length without reading lens, one cache miss fewer. */
#define AGG_HEAP_OFF_BITS 40
#define AGG_HEAP_OFF_MASK ((1ull<<AGG_HEAP_OFF_BITS) - 1)
#define AGG_HEAP_LEN 0x7fffffu

/* The heap is segments, not one block: an offset is a segment's index
** above AGG_HEAP_SEG_BITS bits of position in it. The first segment grows
** by doubling up to a slab's size; the others are slabs of the
** connection's pool (agg/slab_pool.h), taken as needed and given back
** with the table, or blocks of their own for a string longer than a slab.
** One block doubling to hundreds of MB was fresh pages every query, the
** kernel zeroing each (GROUP BY URL: 6% of its CPU in clear_page under
** the heap's writes); a slab given back by the query before is not. And
** no byte is ever copied to grow the heap. */
#define AGG_HEAP_SEG_BITS 22
#define AGG_HEAP_POS_MASK ((1ull<<AGG_HEAP_SEG_BITS) - 1)
#define AGG_HEAP_MAX_SEGS (1u<<(AGG_HEAP_OFF_BITS - AGG_HEAP_SEG_BITS))

static inline const char *agg_heap_at(const agg_keycol *k, uint64_t off){
  return k->segs[off >> AGG_HEAP_SEG_BITS] + (off & AGG_HEAP_POS_MASK);
}

/* Key column k's value word for the group in slot. */
#define AGG_KEY_WORD(k, slot) ((k)->vals[(size_t)(slot) * (k)->stride])

/* The word of a TEXT/BLOB key of n <= AGG_INLINE_BYTES bytes: the bytes
** as they lie in memory, their length in the top byte. Put together in
** registers from loads that overlap where n is not 4 or 1: memcpy of a
** variable n became a store per byte, and the word read back after them
** waited for all of them (a failed store forward, where perf put 82% of
** storing the keys of GROUP BY UserID, minute, SearchPhrase; the query
** took 3-5% less without it). */
static inline uint64_t agg_inline_word(const char *p, uint32_t n){
  uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__==__ORDER_LITTLE_ENDIAN__
  const unsigned char *u = (const unsigned char*)p;
  if( n>=4 ){
    uint32_t a, b;
    memcpy(&a, u, 4);
    memcpy(&b, u + n - 4, 4);
    w = (uint64_t)a | (uint64_t)b << (8*(n - 4));
  }else if( n ){
    w = (uint64_t)u[0] | (uint64_t)u[n>>1] << (8*(n>>1)) | (uint64_t)u[n-1] << (8*(n-1));
  }
#else
  if( n ) memcpy(&w, p, n);
#endif
  return w | ((uint64_t)(0x80u | n) << 56);
}

/* Storage class and TEXT/BLOB length of the group in slot. */
static inline int agg_keycol_tag(const agg_keycol *k, uint32_t slot){
  return k->tags ? k->tags[slot] : k->utag;
}
static inline uint32_t agg_keycol_len(const agg_keycol *k, uint32_t slot){
  return k->lens ? k->lens[slot] : 0;
}
/* The bytes of the TEXT/BLOB group in slot (len agg_keycol_len). */
static inline const char *agg_keycol_bytes(const agg_keycol *k, uint32_t slot){
  const uint64_t *w = &AGG_KEY_WORD(k, slot);
  if( *w & AGG_INLINE_FLAG ) return (const char*)w;
  return agg_heap_at(k, *w & AGG_HEAP_OFF_MASK);
}

typedef struct agg_table {
  uint64_t *buckets;      /* nbucket buckets: slot (low word, AGG_EMPTY where
                          ** none) and the high word of the group's hash */
  uint32_t nbucket;       /* a power of two */
  uint32_t shift;         /* 32 - log2(nbucket): a hash's home bucket is
                          ** the high word of the hash shifted right by it */
  uint32_t ngroup;        /* groups held */
  uint32_t cap;           /* groups the key columns have room for */
  int nkey;               /* key columns */
  agg_keycol *cols;       /* nkey columns (malloc'd) */
  uint64_t *recs;         /* nkey>1: every group's key words side by side,
                          ** cap*nkey of them, the columns' vals pointing
                          ** in. A probe that compares several keys then
                          ** reads one cache line of the group's, not one
                          ** per column: at millions of groups each was a
                          ** cache miss. */
  int wide;               /* buckets are agg_wbuckets (table.c), 16 bytes:
                          ** agg_table_hashes_exact */
  int cold;               /* prefetch buckets however small the table: one
                          ** of many partitions that a batch's rows visit
                          ** in turn, whose tables together outgrow the
                          ** caches (radix lanes, agg/groupby.c) */
  uint32_t max_groups;    /* 0, or the most groups agg_table_lookup makes:
                          ** once that many exist, a row with a new key
                          ** gets AGG_EMPTY and no group (the first
                          ** max_groups keys of a LIMIT without ORDER BY) */
  struct agg_zone *zone;  /* NULL, or the zone the key columns' arrays and
                          ** buckets are carved from (agg/zone.h): a radix fold's
                          ** partitions; it outlives the table
                          ** (agg_table_set_zone) */
} agg_table;

/* An empty table over nkey key columns (nkey may be 0). 0, or -1 on OOM. */
int agg_table_init(agg_table *t, int nkey);
/* Carve t's arrays, and its key columns', from zone z from now on. */
void agg_table_set_zone(agg_table *t, struct agg_zone *z);
/* Take t's key heaps' slabs from pool p (which outlives t), give them back
** to it when t goes. */
void agg_table_set_pool(agg_table *t, struct agg_slab_pool *p);
void agg_table_free(agg_table *t);

/* The caller's promise that every hash it passes for a row is
** agg_hash_keys() over the table's own key vectors (agg/hash.h), nothing
** mixed in. A one-key table then keeps each group's whole hash, and an
** INTEGER or NULL row finds its group without comparing the stored key
** (table.c, wide buckets). Call it on an empty table; a no-op for other
** key counts. -1 on OOM (the table is then unchanged). */
int agg_table_hashes_exact(agg_table *t);

/* Look for the key keys[*] holds at row. Returns its slot, or AGG_EMPTY with
** *bucket set to where it would go. */
uint32_t agg_table_probe(const agg_table *t, uint64_t hash,
                         const col_vector *const *keys, uint32_t row,
                         uint32_t *bucket);

/* Add the key at row in the bucket a probe of the same row left vacant.
** Returns COL_OK with *slot set, or an error (out of memory, group limit). */
int agg_table_insert(agg_table *t, uint32_t bucket, uint64_t hash,
                     const col_vector *const *keys, uint32_t row,
                     uint32_t *slot, col_error *err);

/* Probe-or-insert every row sel[0..nsel) (rows 0..nsel-1 when sel is NULL),
** writing each row's group slot into gid[k] (k the position in sel), or
** AGG_EMPTY for a new key past t->max_groups. *nnew gets how many groups
** were created. */
int agg_table_lookup(agg_table *t, const col_vector *const *keys,
                     const uint32_t *sel, uint32_t nsel,
                     const uint64_t *hashes, uint32_t *gid, uint32_t *nnew,
                     col_error *err);

/* Room for n groups without growing (buckets and key columns); -1 when
** out of memory. For a table about to take a known number of groups. */
int agg_table_reserve(agg_table *t, uint32_t n);

/* agg_table_reserve, the buckets taken from *spare (a block
** agg_table_release_buckets gave up) when it is large enough: *spare is
** then NULL, and the table owns it. The key columns take n groups, not a
** power of two past them: n is a count foreseen (agg_state_reserve_exact
** says why). */
int agg_table_reserve_spare(agg_table *t, uint32_t n, void **spare);

/* Give up t's buckets (returned; the caller frees them with agg_mem_free
** or passes them to agg_table_reserve_spare). t keeps its groups, read in
** slot order, but can no longer be probed or grown. Fresh pages are dear
** (each one faulted in and zeroed): a radix fold's partitions, done one
** after another, each took a new block where the one before it had just
** finished with one as large. */
void *agg_table_release_buckets(agg_table *t);

/* Bytes taken from the allocator (buckets, key columns, by capacity). */
uint64_t agg_table_footprint(const agg_table *t);
/* Bytes of TEXT/BLOB the stored keys own (heap capacity). */
uint64_t agg_table_owned(const agg_table *t);

/* Slots [from, from+n) of key column col as a FLAT vector of n rows
** (tagged when the column's groups differ in storage class), pointing into
** the table; strs (n entries) holds its TEXT and BLOB values, words (n
** entries) the values of a column interleaved with others (recs). Valid
** until the table changes. */
void agg_table_key_vector(const agg_table *t, int col, uint32_t from, uint32_t n,
                          col_vector *out, cv_str *strs, uint64_t *words);

/* The three below take a group's hash in src, and in the tables they
** probe, to be agg_hash_keys() of its stored keys, as every table a group
** by builds has (agg/hash.h): they read src's hashes off its buckets where
** the tables are narrow, and hash the stored keys again otherwise.
**
** Add every group of src to dst (same key columns): map[s] gets the slot in
** dst of src's group s. Groups new to dst follow its own, in src's order,
** so folding tables built over consecutive runs of rows, in run order,
** keeps groups in first-seen order. */
int agg_table_merge(agg_table *dst, const agg_table *src, uint32_t *map,
                    col_error *err);

/* Every group of src into dsts[(its hash >> 32) & mask] (mask < 256, same
** key columns): part[s] gets which, map[s] its slot there. Each dst takes
** its groups in src's order, so one in first-seen order stays so. */
int agg_table_split(agg_table *const *dsts, uint32_t mask, const agg_table *src,
                    uint8_t *part, uint32_t *map, col_error *err);

/* For every group of src (same key columns): the first of ts[0..nt) that
** has it (nt <= 256): which[s] gets its index and found[s] its slot
** there, or found[s] = AGG_EMPTY when none has; the tables are only read.
** src's hashes are read or made once for all of them. */
int agg_table_find_first(const agg_table *const *ts, int nt, const agg_table *src,
                         uint32_t *found, uint8_t *which, col_error *err);

/* The value slot of k holds, pointing into k. */
pred_value agg_keycol_value(const agg_keycol *k, uint32_t slot);
/* An empty key column. */
void agg_keycol_init(agg_keycol *k);
/* Room for n groups in k's arrays (carved from k->zone when it has one);
** -1 on OOM. */
int agg_keycol_reserve(agg_keycol *k, uint32_t n);
/* Room for `bytes` bytes of TEXT/BLOB in k's first heap segment, as far
** as a slab's size (past it, slabs are taken as needed); -1 on OOM. */
int agg_keycol_reserve_heap(agg_keycol *k, uint64_t bytes);
/* Store x as slot's value (slot < cap); -1 on OOM. */
int agg_keycol_set(agg_keycol *k, uint32_t slot, const pred_value *x);
/* Free k's arrays (agg/bigmem.h blocks, as every agg_keycol's are). */
void agg_keycol_free(agg_keycol *k);
/* Append n bytes to k's heap; their offset (agg_heap_at) in *off. -1 on
** OOM or past the heap's AGG_HEAP_MAX_SEGS segments. */
int agg_keycol_append(agg_keycol *k, const char *p, uint32_t n, uint64_t *off);

/* Key column col of the group in slot, as a value pointing into the table. */
pred_value agg_table_key(const agg_table *t, int col, uint32_t slot);

#endif
