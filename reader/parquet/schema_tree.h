/*
** schema_tree.h — the Parquet schema as a tree, and what each column becomes.
**
** FileMetaData stores the schema depth-first as a flat list with child
** counts. We rebuild the tree once per file and compute, for every node, the
** maximum definition and repetition levels (Dremel), and for every leaf how
** its physical values become SQLite values (pq_conv). Top-level fields are
** what SQL sees as columns: a primitive non-repeated field is read straight
** into a vector; anything else (groups, lists, maps, repeated fields) is
** assembled into JSON text by nested.c.
*/
#ifndef COLUMNAR_PARQUET_SCHEMA_TREE_H
#define COLUMNAR_PARQUET_SCHEMA_TREE_H

#include "meta.h"
#include "parquet.h"

/* How a leaf's physical values map to SQLite values. */
typedef enum pq_conv_kind {
  PQC_BOOL, PQC_INT32, PQC_UINT32, PQC_INT64, PQC_UINT64,
  PQC_FLOAT, PQC_DOUBLE, PQC_FLOAT16,
  PQC_DATE, PQC_TIME, PQC_TIMESTAMP, PQC_INT96,
  PQC_DECIMAL,               /* INT32/INT64/BYTE_ARRAY/FLBA unscaled */
  PQC_TEXT, PQC_BLOB, PQC_UUID,
  PQC_INTERVAL               /* FLBA(12): months, days, millis */
} pq_conv_kind;

typedef struct pq_conv {
  pq_conv_kind kind;
  int phys;                  /* PQ_INT32.. physical type */
  int type_length;           /* FLBA width */
  int unit;                  /* TIME/TIMESTAMP: PQ_UNIT_* */
  int scale;                 /* DECIMAL */
  int decimal_text;          /* DECIMAL as exact TEXT */
  uint8_t out;               /* CV_INT/CV_REAL/CV_TEXT/CV_BLOB: usual class */
  const char *decl;          /* declared SQL type */
} pq_conv;

typedef struct pq_node {
  const pq_schema_element *el;
  int parent;                /* index of parent node, -1 for the root */
  int nchild;                /* children */
  int *child;                /* indexes of children (into the node array) */
  int max_def;               /* definition level when this node is present */
  int max_rep;               /* repetition level of this node */
  int leaf;                  /* leaf index, or -1 for groups */
  int leaf_first, leaf_count;/* leaves under this node (contiguous) */
  int repetition;            /* PQ_REQUIRED/OPTIONAL/REPEATED (root: REQUIRED) */
} pq_node;

typedef struct pq_leaf_desc {
  int node;                  /* its node */
  int max_def, max_rep;
  pq_conv conv;
  int field;                 /* top-level field it belongs to */
} pq_leaf_desc;

typedef struct pq_field {
  int node;                  /* the top-level node */
  int nested;                /* 1: assembled into JSON */
  uint8_t type;              /* CV_* usual storage class */
  const char *decl;          /* declared type */
} pq_field;

typedef struct pq_schema {
  int nnode;
  pq_node *nodes;
  int *child_pool;           /* storage for every node's child list */
  int nleaf;
  pq_leaf_desc *leaves;
  int nfield;
  pq_field *fields;
} pq_schema;

/* The conversion of field fi's first leaf: a flat field's own. */
static inline const pq_conv *pq_field_conv(const pq_schema *s, int fi){
  return &s->leaves[s->nodes[s->fields[fi].node].leaf_first].conv;
}

/* Build the tree of m's schema. Errors (child counts that do not add up,
** a leaf without type, depth beyond 255) name the element. */
int pq_schema_build(const pq_file_meta *m, const pq_options *opt,
                    pq_schema *out, col_error *err);
void pq_schema_free(pq_schema *s);

/* Field name as a NUL-terminated malloc'd string. */
char *pq_node_name(const pq_node *n);

/* Do two files' schemas give the same columns (names and conversions)?
** On a difference, a message naming the first column that differs. */
int pq_schema_same(const pq_schema *a, const pq_schema *b, char *why,
                   size_t nwhy);

#endif
