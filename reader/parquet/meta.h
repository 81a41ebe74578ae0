/*
** meta.h — Parquet's thrift structures, as plain C structs.
**
** Field names follow parquet.thrift (apache/parquet-format) so that a reader
** of the spec finds each one. Optional fields carry a has_ flag only where
** their absence means something different from a zero value. Strings and
** binaries point into the buffer they were decoded from (the footer buffer,
** kept alive by pq_file) and are not NUL-terminated; arrays are allocated
** from the pq_meta arena-like owner and freed together with it.
**
** Decoding: footer.c (FileMetaData, ColumnIndex, OffsetIndex, BloomFilter
** header) and page header decoding, on top of thrift.c.
*/
#ifndef COLUMNAR_PARQUET_META_H
#define COLUMNAR_PARQUET_META_H

#include <stddef.h>
#include <stdint.h>
#include "../error.h"

/* enum Type */
enum { PQ_BOOLEAN=0, PQ_INT32=1, PQ_INT64=2, PQ_INT96=3, PQ_FLOAT=4,
       PQ_DOUBLE=5, PQ_BYTE_ARRAY=6, PQ_FIXED_LEN_BYTE_ARRAY=7 };

/* enum ConvertedType */
enum { PQ_CT_NONE=-1, PQ_CT_UTF8=0, PQ_CT_MAP=1, PQ_CT_MAP_KEY_VALUE=2,
       PQ_CT_LIST=3, PQ_CT_ENUM=4, PQ_CT_DECIMAL=5, PQ_CT_DATE=6,
       PQ_CT_TIME_MILLIS=7, PQ_CT_TIME_MICROS=8, PQ_CT_TIMESTAMP_MILLIS=9,
       PQ_CT_TIMESTAMP_MICROS=10, PQ_CT_UINT_8=11, PQ_CT_UINT_16=12,
       PQ_CT_UINT_32=13, PQ_CT_UINT_64=14, PQ_CT_INT_8=15, PQ_CT_INT_16=16,
       PQ_CT_INT_32=17, PQ_CT_INT_64=18, PQ_CT_JSON=19, PQ_CT_BSON=20,
       PQ_CT_INTERVAL=21 };

/* enum FieldRepetitionType */
enum { PQ_REQUIRED=0, PQ_OPTIONAL=1, PQ_REPEATED=2 };

/* enum Encoding */
enum { PQ_ENC_PLAIN=0, PQ_ENC_PLAIN_DICTIONARY=2, PQ_ENC_RLE=3,
       PQ_ENC_BIT_PACKED=4, PQ_ENC_DELTA_BINARY_PACKED=5,
       PQ_ENC_DELTA_LENGTH_BYTE_ARRAY=6, PQ_ENC_DELTA_BYTE_ARRAY=7,
       PQ_ENC_RLE_DICTIONARY=8, PQ_ENC_BYTE_STREAM_SPLIT=9 };

/* enum CompressionCodec */
enum { PQ_CODEC_UNCOMPRESSED=0, PQ_CODEC_SNAPPY=1, PQ_CODEC_GZIP=2,
       PQ_CODEC_LZO=3, PQ_CODEC_BROTLI=4, PQ_CODEC_LZ4=5, PQ_CODEC_ZSTD=6,
       PQ_CODEC_LZ4_RAW=7 };

/* enum PageType */
enum { PQ_PAGE_DATA=0, PQ_PAGE_INDEX=1, PQ_PAGE_DICTIONARY=2,
       PQ_PAGE_DATA_V2=3 };

/* enum BoundaryOrder */
enum { PQ_UNORDERED=0, PQ_ASCENDING=1, PQ_DESCENDING=2 };

/* LogicalType union member (0 = absent). */
enum { PQ_LT_NONE=0, PQ_LT_STRING=1, PQ_LT_MAP=2, PQ_LT_LIST=3, PQ_LT_ENUM=4,
       PQ_LT_DECIMAL=5, PQ_LT_DATE=6, PQ_LT_TIME=7, PQ_LT_TIMESTAMP=8,
       PQ_LT_INTEGER=10, PQ_LT_UNKNOWN=11, PQ_LT_JSON=12, PQ_LT_BSON=13,
       PQ_LT_UUID=14, PQ_LT_FLOAT16=15, PQ_LT_VARIANT=16,
       PQ_LT_GEOMETRY=17, PQ_LT_GEOGRAPHY=18 };

/* TimeUnit */
enum { PQ_UNIT_MILLIS=1, PQ_UNIT_MICROS=2, PQ_UNIT_NANOS=3 };

typedef struct pq_bytes {   /* thrift string/binary: points into the input */
  const uint8_t *p;
  uint32_t n;
} pq_bytes;

typedef struct pq_logical_type {
  int kind;                 /* PQ_LT_*; PQ_LT_NONE when absent */
  int32_t scale, precision; /* DECIMAL */
  int is_adjusted_to_utc;   /* TIME, TIMESTAMP */
  int unit;                 /* TIME, TIMESTAMP: PQ_UNIT_* */
  int bit_width;            /* INTEGER: 8, 16, 32, 64 */
  int is_signed;            /* INTEGER */
} pq_logical_type;

typedef struct pq_schema_element {
  int has_type;             /* leaves have a type, groups do not */
  int32_t type;             /* PQ_BOOLEAN.. */
  int32_t type_length;      /* FIXED_LEN_BYTE_ARRAY width */
  int has_repetition;       /* the root usually has none */
  int32_t repetition_type;  /* PQ_REQUIRED.. */
  pq_bytes name;
  int32_t num_children;     /* 0 for leaves */
  int32_t converted_type;   /* PQ_CT_*, PQ_CT_NONE when absent */
  int32_t scale, precision; /* legacy DECIMAL */
  int has_field_id;
  int32_t field_id;
  pq_logical_type logical;  /* kind PQ_LT_NONE when absent */
} pq_schema_element;

typedef struct pq_statistics {
  int has_max, has_min;             /* legacy fields 1, 2 */
  pq_bytes max, min;
  int has_null_count;
  int64_t null_count;
  int has_distinct_count;
  int64_t distinct_count;
  int has_max_value, has_min_value; /* fields 5, 6 (correct sort order) */
  pq_bytes max_value, min_value;
  int has_is_max_value_exact, is_max_value_exact;
  int has_is_min_value_exact, is_min_value_exact;
} pq_statistics;

typedef struct pq_page_encoding_stats {
  int32_t page_type;
  int32_t encoding;
  int32_t count;
} pq_page_encoding_stats;

typedef struct pq_column_meta {
  int32_t type;
  int32_t n_encodings;
  int32_t *encodings;
  int32_t n_path;
  pq_bytes *path_in_schema;
  int32_t codec;
  int64_t num_values;
  int64_t total_uncompressed_size;
  int64_t total_compressed_size;
  int64_t data_page_offset;
  int has_index_page_offset;
  int64_t index_page_offset;
  int has_dictionary_page_offset;
  int64_t dictionary_page_offset;
  int has_statistics;
  pq_statistics statistics;
  int32_t n_encoding_stats;
  pq_page_encoding_stats *encoding_stats;
  int has_bloom_filter;
  int64_t bloom_filter_offset;
  int has_bloom_filter_length;
  int32_t bloom_filter_length;
} pq_column_meta;

typedef struct pq_column_chunk {
  pq_bytes file_path;       /* n==0 when absent (data in this file) */
  int64_t file_offset;
  int has_meta_data;        /* absent for encrypted columns */
  pq_column_meta meta_data;
  int has_offset_index;
  int64_t offset_index_offset;
  int32_t offset_index_length;
  int has_column_index;
  int64_t column_index_offset;
  int32_t column_index_length;
  int has_crypto_metadata;  /* column encryption: we refuse */
  uint32_t faulted;         /* not from the footer: pq_file_view's record of
                            ** the chunk's bytes in the file's mapping */
} pq_column_chunk;

typedef struct pq_sorting_column {
  int32_t column_idx;
  int descending;
  int nulls_first;
} pq_sorting_column;

typedef struct pq_row_group {
  int32_t n_columns;
  pq_column_chunk *columns;
  int64_t total_byte_size;
  int64_t num_rows;
  int32_t n_sorting_columns;
  pq_sorting_column *sorting_columns;
  int has_file_offset;
  int64_t file_offset;
  int has_total_compressed_size;
  int64_t total_compressed_size;
  int has_ordinal;
  int32_t ordinal;
} pq_row_group;

typedef struct pq_key_value {
  pq_bytes key;
  int has_value;
  pq_bytes value;
} pq_key_value;

typedef struct pq_file_meta {
  int32_t version;
  int32_t n_schema;
  pq_schema_element *schema;      /* depth-first, root first */
  int64_t num_rows;
  int32_t n_row_groups;
  pq_row_group *row_groups;
  int32_t n_key_value;
  pq_key_value *key_value;
  pq_bytes created_by;            /* n==0 when absent */
  int32_t n_column_orders;        /* 0: absent (legacy sort orders apply) */
  int32_t *column_orders;         /* 1 = TYPE_ORDER, 0 = unknown member */
  int has_encryption_algorithm;   /* plaintext-footer encrypted files */
  void *owner;                    /* private: allocations to free */
} pq_file_meta;

typedef struct pq_data_page_header {
  int32_t num_values;
  int32_t encoding;
  int32_t definition_level_encoding;
  int32_t repetition_level_encoding;
  int has_statistics;
  pq_statistics statistics;
} pq_data_page_header;

typedef struct pq_dictionary_page_header {
  int32_t num_values;
  int32_t encoding;
  int is_sorted;
} pq_dictionary_page_header;

typedef struct pq_data_page_header_v2 {
  int32_t num_values;
  int32_t num_nulls;
  int32_t num_rows;
  int32_t encoding;
  int32_t definition_levels_byte_length;
  int32_t repetition_levels_byte_length;
  int is_compressed;              /* default 1 when absent */
  int has_statistics;
  pq_statistics statistics;
} pq_data_page_header_v2;

typedef struct pq_page_header {
  int32_t type;                   /* PQ_PAGE_* */
  int32_t uncompressed_page_size;
  int32_t compressed_page_size;
  int has_crc;
  int32_t crc;
  int has_data_page_header;
  pq_data_page_header data_page_header;
  int has_dictionary_page_header;
  pq_dictionary_page_header dictionary_page_header;
  int has_data_page_header_v2;
  pq_data_page_header_v2 data_page_header_v2;
} pq_page_header;

typedef struct pq_page_location {
  int64_t offset;
  int32_t compressed_page_size;
  int64_t first_row_index;
} pq_page_location;

typedef struct pq_offset_index {
  int32_t n_page_locations;
  pq_page_location *page_locations;
  void *owner;
} pq_offset_index;

typedef struct pq_column_index {
  int32_t n_pages;
  uint8_t *null_pages;            /* n_pages booleans */
  pq_bytes *min_values;           /* n_pages */
  pq_bytes *max_values;           /* n_pages */
  int32_t boundary_order;
  int has_null_counts;
  int64_t *null_counts;           /* n_pages when has_null_counts */
  void *owner;
} pq_column_index;

typedef struct pq_bloom_filter_header {
  int32_t num_bytes;
  int algorithm_block;            /* 1 when algorithm is BLOCK */
  int hash_xxhash;                /* 1 when hash is XXHASH */
  int compression_uncompressed;   /* 1 when UNCOMPRESSED */
} pq_bloom_filter_header;

/* Decode FileMetaData from buf[0..len) (the footer, without the length and
** magic). Strings in *out point into buf, which must outlive *out.
** Returns COL_OK or an error with a message saying what was malformed and at
** which byte offset. Every list length is checked against the bytes left, so
** a lying length cannot cause a large allocation. */
int pq_file_meta_decode(const uint8_t *buf, size_t len, pq_file_meta *out,
                        col_error *err);
void pq_file_meta_free(pq_file_meta *m);

/* Decode a PageHeader at buf[0..len). *header_len is set to the number of
** bytes the header occupied. Returns COL_OK, or COL_ERROR if malformed or
** truncated (the caller may retry with more bytes if len was short: a
** truncated header gives COL_ERROR with *header_len = 0). */
int pq_page_header_decode(const uint8_t *buf, size_t len, pq_page_header *out,
                          size_t *header_len, col_error *err);

int pq_offset_index_decode(const uint8_t *buf, size_t len,
                           pq_offset_index *out, col_error *err);
void pq_offset_index_free(pq_offset_index *o);
int pq_column_index_decode(const uint8_t *buf, size_t len,
                           pq_column_index *out, col_error *err);
void pq_column_index_free(pq_column_index *c);
int pq_bloom_filter_header_decode(const uint8_t *buf, size_t len,
                                  pq_bloom_filter_header *out,
                                  size_t *header_len, col_error *err);

#endif
