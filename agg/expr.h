/*
** expr.h — the expressions group_by accepts for keys and aggregate arguments.
**
**   keys       = 'RegionID, substr(URL, 1, 10) AS prefix, strftime(''%Y'', d)'
**   aggregates = 'count(*), count(DISTINCT UserID) AS users, sum(a*b),
**                 group_concat(name, ''; '')'
**
** Grammar (SQLite's precedence): literals (integers, reals, 'strings', NULL,
** X'hex'), column names (bare or "quoted", [bracketed], `backticked`;
** matched case-insensitively as SQLite does), unary - and +, || (binds
** tightest), * / %, + -, < <= > >=, = == != <> IS [NOT], ISNULL, NOTNULL,
** [NOT] NULL, [NOT] IN (value, ...), [NOT] LIKE (ESCAPE a literal), [NOT] GLOB, [NOT] BETWEEN (on
** a column or literal), NOT, AND, OR (three-valued), CASE [base] WHEN ...
** THEN ... [ELSE ...] END, parentheses, and the functions length, substr,
** lower, upper, strftime, date, time, datetime, instr, iif. Comparisons
** apply SQLite's comparison affinity (a column's declared type against a
** literal or expression: numeric columns convert TEXT operands to numbers,
** TEXT columns convert numbers to text) and the BINARY collation; LIKE is
** ASCII case-insensitive as SQLite's default. Predicates yield INTEGER 1/0
** or NULL. Values follow SQLite 3.40:
** integer arithmetic until it overflows (then REAL), integer division, NULL
** for division by zero, TEXT operands converted as SQLite converts them.
**
** Evaluation is a batch at a time: agg_expr_eval() returns a vector holding
** the expression's value for the batch's live rows. A column reference
** returns the batch's own vector (dictionary form kept), a literal a CONST
** vector, anything else a FLAT vector owned by the node.
*/
#ifndef COLUMNAR_AGG_EXPR_H
#define COLUMNAR_AGG_EXPR_H

#include <stdint.h>
#include "../reader/scan.h"
#include "../reader/arena.h"
#include "../reader/error.h"
#include "aggregate.h"

typedef struct agg_expr agg_expr;

/* One parsed item of a keys= or aggregates= list. */
typedef struct agg_item {
  char *name;             /* output column name: the alias, else the text */
  agg_expr *expr;         /* keys: the key; aggregates: the argument (NULL
                          ** for count(*)) */
  agg_expr *sep;          /* group_concat's separator, or NULL */
  int kind;               /* aggregates: an agg_kind; keys: -1 */
  int distinct;           /* aggregates: DISTINCT was given */
  int src_col;            /* a plain column reference: its source column
                          ** index, else -1 */
  int nob;                /* aggregates: ORDER BY terms inside the call
                          ** (agg/ordered.h; min/max drop theirs, as SQLite) */
  agg_expr **ob;          /* their expressions (malloc'd array of nob) */
  uint8_t *ob_desc;       /* per term: DESC */
  uint8_t *ob_nulls_first; /* per term: NULLs first (ASC's default) */
  int ob_distinct;        /* with DISTINCT: AGG_ORD_FIRST, or AGG_ORD_LAST
                          ** when the one term is the argument itself */
} agg_item;

typedef struct agg_item_list {
  int n;                  /* items */
  agg_item *items;        /* malloc'd array of n */
} agg_item_list;

/* Parse a comma-separated list of key expressions (aggs==0) or aggregate
** calls (aggs==1) over the columns of schema. An empty or blank text is an
** empty list. On error returns COL_ERROR with a message naming the problem. */
int agg_parse_list(const char *text, int aggs, const col_schema *schema,
                   agg_item_list *out, col_error *err);
void agg_item_list_free(agg_item_list *l);

/* Parse one expression over schema. term==0: text must be exactly one
** expression. term==1: parse one AND-term of a WHERE clause (an expression
** of NOT's precedence: it stops before a top-level AND or OR) and set *used
** to the bytes consumed (up to the next token). term==2: as 0, reading
** agg_where_split's $(column, constant) as well. */
int agg_expr_parse(const char *text, const col_schema *schema, int term,
                   agg_expr **out, size_t *used, col_error *err);
void agg_expr_free(agg_expr *e);

/* A WHERE clause as SQLite's planner sees it (agg/filter.c builds the
** scan's predicates and the rest from it). Its AND-terms, split as
** whereSplit splits them (parentheses or not; a BETWEEN is one term), left
** to right; and the column references SQLite's constant propagation
** (select.c propagateConstants, 3.40) replaces: under a WHERE whose top is
** an AND, the last `column = constant` term of a column (the constant of
** no affinity: a literal, arithmetic, not a CAST) fixes that column, and
** its other references become the constant under the column's affinity
** (only as operands of = < <= > >= IS where the column has BLOB
** affinity). A term reading no column but fixed ones is then computed
** once before the first row, as SQLite computes it (agg_expr_where_never),
** which can raise an error no row reaches, or read no row at all.
** agg_expr_parse(term=2) reads the form `$(column index, constant)` that
** replaces such a reference. */
typedef struct agg_where_term {
  size_t t0, t1;          /* the term's text */
  int nsite;              /* references rewritten in it */
} agg_where_term;
typedef struct agg_where_site {
  size_t t0, t1;          /* the column reference's token */
  size_t v0, v1;          /* the constant's text */
  int src;                /* the column */
  int term;               /* the term it is in */
} agg_where_site;
typedef struct agg_where_split {
  int nterm;
  agg_where_term *term;   /* malloc'd array of nterm */
  int nsite;
  agg_where_site *site;   /* malloc'd, in the order of their text */
} agg_where_terms;
int agg_where_split(const char *text, const col_schema *schema, agg_where_terms *out,
                    col_error *err);
void agg_where_split_free(agg_where_terms *w);

/* Give e and every node under it the answers of the SQLite d describes
** (reader/dialect.h; NULL: 3.40's); d must outlive e. in_where: e is
** (part of) the WHERE clause, not a key, an aggregate's argument, FILTER
** or ORDER BY. */
void agg_expr_set_dialect(agg_expr *e, const col_dialect *d, int in_where);

/* Does e use anywhere one of what: AGG_USES_LIKE (LIKE, not GLOB),
** AGG_USES_CASE (lower() or upper()), AGG_USES_GLOB, AGG_USES_STRFN,
** AGG_USES_DATE, AGG_USES_SCALAR? */
#define AGG_USES_LIKE 1
#define AGG_USES_CASE 2
#define AGG_USES_GLOB 4
#define AGG_USES_STRFN 8      /* length(), substr(), instr() */
#define AGG_USES_DATE 16      /* strftime(), date(), time(), datetime() */
#define AGG_USES_SCALAR 32    /* abs(), coalesce(), ifnull(), nullif(), typeof(),
                              ** trim(), ltrim(), rtrim(), replace(), round(), min(), max() */
#define AGG_USES_JSON 64      /* json_group_array(), json_group_object() */
#define AGG_USES_LOCALTIME 128 /* the date modifier 'localtime' or 'utc' */
#define AGG_USES_NOCASE 256   /* COLLATE NOCASE */
#define AGG_USES_RTRIM 512    /* COLLATE RTRIM */
#define AGG_USES_MATH 1024    /* floor(), ceil(), trunc(), mod(), pow(), sqrt(), exp(),
                              ** ln(), log(), log10(), log2() */
#define AGG_USES_NEWFN 2048   /* concat(), concat_ws(), octet_length() (3.43, 3.44) */
#define AGG_USES_IIF_NEW 4096 /* iif() of other than three arguments, if() (3.48) */
int agg_expr_uses(const agg_expr *e, int what);

/* Bytes e's nodes hold for evaluation: output arrays and date memos
** (a subtree shared by two owners counts twice). */
uint64_t agg_expr_memory(const agg_expr *e);


/* Call fn(ctx, source column) for every column reference in e. */
void agg_expr_columns(const agg_expr *e, void (*fn)(void *, int), void *ctx);

/* Does e read source column src only as the time value of strftime(),
** date(), time() or datetime() with a literal format a template serves?
** Then those may take the column as raw timestamps (scan_spec.raw), and
** agg_expr_set_ts(e, src, unit) tells them the column's col_def.ts_unit:
** a batch bringing the column as INTEGER then holds the stored integers. */
int agg_expr_ts_only(const agg_expr *e, int src);
/* The source column e is a plain reference to, or -1. */
int agg_expr_source_column(const agg_expr *e);
void agg_expr_set_ts(agg_expr *e, int src, int unit);

/* Point every column reference at its position in the batch: map[source
** column] = index into col_batch.cols. */
void agg_expr_bind(agg_expr *e, const int *map);

/* Evaluate e over the live rows of b. *out is valid until the next eval of
** e or until strings in arena are reset. Strings built go into arena. */
int agg_expr_eval(agg_expr *e, const col_batch *b, col_arena *arena,
                  const col_vector **out, col_error *err);
/* The same for a WHERE clause: where SQLite would skip the right side of
** an AND or OR for a row, an error only that side raises is not raised. */
int agg_expr_eval_where(agg_expr *e, const col_batch *b, col_arena *arena,
                        const col_vector **out, col_error *err);

/* SQLite evaluates the AND-terms of a WHERE clause that read no column
** once, before the first row, and reads no row when one is not true: then
** no row raises an error the others would. Over WHERE clause e's terms
** (every AND split, parentheses or not), left to right: *never = 1 at
** the first such term that is not true (false or NULL). Returns COL_OK, or
** the error that term's evaluation raised. */
int agg_expr_where_never(agg_expr *e, col_arena *arena, int *never, col_error *err);

/* Is e `column`, `column + k`, `k + column` or `column - k` with k an
** INTEGER literal (|k| <= 2^40)? Then 1, with the column's batch index
** (after agg_expr_bind) and k (0 for a bare column). */
int agg_expr_linear(const agg_expr *e, int *bcol, int64_t *k);

/* The storage class every value of e has, when it is known from the schema
** (a column whose type does not vary, a literal, arithmetic never yields
** TEXT), else CV_NULL. Used to declare output column types. */
int agg_expr_type(const agg_expr *e, const col_schema *schema);

/* Do a and b compute the same thing the same way (sqlite3ExprCompare's
** question: SQLite gives two such aggregate calls one state)? */
int agg_expr_same(const agg_expr *a, const agg_expr *b);

/* Is e a column as SQLite's GROUP BY sees one: a TK_COLUMN (no unary +),
** maybe under likely(), unlikely() or likelihood(), which SQLite skips? */
int agg_expr_bare_column(const agg_expr *e);

/* May e yield a REAL, given the column types of schema? (Conservative:
** yes where unsure.) */
int agg_expr_may_real(const agg_expr *e, const col_schema *schema);

/* Can e never be TEXT or BLOB, whatever its inputs? (Arithmetic other than
** ||, comparisons, logic, LIKE, IN, length, instr, numeric literals.) */
int agg_expr_never_text(const agg_expr *e);

#endif
