/*
** expr_node.h — the expression tree group_by's parser (expr_parse.c) builds
** and its evaluator (expr_eval.c) walks; private to those two files. The
** public interface is expr.h.
*/
#ifndef COLUMNAR_AGG_EXPR_NODE_H
#define COLUMNAR_AGG_EXPR_NODE_H
#include "expr.h"
#include "datetime.h"
#include "ts_memo.h"
#include "json_extract.h"
#include "../reader/arena.h"

enum { EX_COL, EX_LIT, EX_BIN, EX_FUNC, EX_CMP, EX_LOGIC, EX_LIKE, EX_CASE, EX_IN };
enum { FN_LENGTH, FN_SUBSTR, FN_LOWER, FN_UPPER, FN_STRFTIME, FN_DATE,
       FN_TIME, FN_DATETIME, FN_INSTR, FN_IIF, FN_ABS, FN_COALESCE, FN_NULLIF,
       FN_TYPEOF, FN_TRIM, FN_LTRIM, FN_RTRIM, FN_REPLACE, FN_ROUND, FN_MIN, FN_MAX,
       FN_JULIANDAY, FN_UNIXEPOCH,
       FN_CAST /* CAST(x AS type): aff holds the AGG_CAST_* */,
       /* a column SQLite's constant propagation fixed (agg_where_split):
       ** its constant args[0] under the column's affinity */
       FN_FIXED,
       /* no SQL names: json_group_array(x) and json_group_object(k, v)
       ** aggregate these fragments of their arguments (agg/json.h) */
       FN_JSON_VALUE, FN_JSON_MEMBER,
       /* json_extract(x, path), x -> path, x ->> path (agg/json_extract.h) */
       FN_JSON_EXTRACT, FN_JSON_ARROW, FN_JSON_ARROW2,
       /* sign(), and the math functions (SQLITE_ENABLE_MATH_FUNCTIONS) */
       FN_SIGN, FN_FLOOR, FN_CEIL, FN_TRUNC, FN_MOD, FN_POW, FN_SQRT, FN_EXP, FN_LN,
       FN_LOG, FN_LOG10, FN_LOG2,
       /* likely/unlikely/likelihood, hex, unicode, char; concat, concat_ws
       ** and octet_length (3.43, 3.44: where this SQLite has them) */
       FN_LIKELY, FN_HEX, FN_UNICODE, FN_CHAR, FN_CONCAT, FN_CONCAT_WS, FN_OCTET_LENGTH };
/* EX_CMP subs */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_IS, CMP_ISNOT };
/* EX_LOGIC subs */
enum { LG_AND, LG_OR, LG_NOT, LG_ISNULL, LG_NOTNULL };
/* affinities (sqlite3AffinityType, reduced to what comparisons need) */
enum { AFF_NONE = 0, AFF_BLOB = 'B', AFF_TEXT = 'T', AFF_NUM = 'N' };
/* agg_expr.known */
#define EX_KNOWN_TRUE  1
#define EX_KNOWN_FALSE 2

#define EX_MAXARG 33

/* What a row's evaluation returns beside 0 and -1 (out of memory): the
** errors SQLite raises in abs() and replace() */
#define EX_OVERFLOW (-2)
#define EX_TOOBIG (-3)
#define EX_JSON_MALFORMED (-4)
#define EX_JSON_REFUSED (-5)
/* What ex_eval returns beside COL_* codes: a row raised one of those
** errors (message in err), which agg_expr_eval checks row by row */
#define EX_RC_ROW_ERROR 64
/* A dictionary of more entries than this, computed whole for one batch, is
** kept for the next batches of the same dictionary (ex_eval_dict) */
#define EX_DICT_KEEP_MIN 64

struct agg_expr {
  int op;                 /* EX_COL, EX_LIT, EX_BIN, EX_FUNC */
  const col_dialect *dialect; /* the SQLite whose answers to give (text of
                          ** a REAL, LIKE on a BLOB, ...), or NULL: 3.40's */
  int sub;                /* EX_BIN: '+','-','*','/','%','|' (concatenation),
                          ** '&', 'B' (bitwise or), 'S' (<<), 'R' (>>), '~'
                          ** (of args[1]; args[0] a 0); EX_FUNC: FN_* */
  int src;                /* EX_COL: source column index */
  int bcol;               /* EX_COL: index in the batch (agg_expr_bind) */
  int nargs;              /* EX_BIN: 2; EX_FUNC: argument count */
  int aff;                /* EX_COL: the declared type's affinity (AFF_*);
                          ** AFF_NONE after a unary + */
  int neg;                /* EX_LIKE: NOT LIKE / NOT GLOB; EX_BIN '-': a
                          ** unary minus (0 - x) */
  int known;              /* SQLite knows the truth without a row
                          ** (EP_IsTrue/EP_IsFalse): EX_KNOWN_TRUE or
                          ** _FALSE, else 0 (ex_and_or_simplified) */
  uint32_t esc;           /* EX_LIKE: the ESCAPE character, or 0 */
  int like_known;         /* EX_LIKE with a TEXT literal pattern: like_shape
                          ** found (once; its bytes stay put in lit_mem) */
  int like_shape;         /* the pattern's pred_like_shape, and its lit */
  const char *like_lit;
  uint32_t like_m;
  int konst;              /* reads no column (and is not a literal): its
                          ** value is computed once per evaluation, kept in
                          ** lit and returned as a CONST vector (ex_eval),
                          ** so a node shared by parents over different
                          ** dictionaries has no size to disagree on */
  int fix_class;          /* FN_FIXED: the column's AGG_CAST_* class, what
                          ** OP_Affinity applies (AGG_CAST_BLOB: nothing) */
  uint8_t between;        /* EX_CMP or LG_AND made of a BETWEEN */
  uint8_t iif_new;        /* EX_CASE from iif() of other than three
                          ** arguments or from if(): SQLite 3.48's */
  uint8_t ecoll;          /* `COLLATE name` written after this node: its
                          ** COLL_* + 1, 0 none (a TK_COLLATE of SQLite's
                          ** folded into the node it names) */
  uint8_t coll;           /* the COLL_* text compares under: EX_CMP, EX_IN,
                          ** EX_CASE with a base, nullif() and min()/max() of
                          ** several arguments (ex_cmp_coll, ex_coll) */
  struct agg_expr *unfolded; /* EX_LIT: the AND sqlite3ExprAnd made this 0
                          ** of (a side a literal false), where a side
                          ** calls a function: 3.50 keeps that AND
                          ** (col_dialect.and_false_func_kept), and
                          ** agg_expr_set_dialect puts it back */
  size_t t0, t1;          /* where the parser read it: an EX_COL's token,
                          ** an AND-term's or a comparison operand's text */
  int has_base;           /* EX_CASE: CASE base WHEN ...: args[0] is base */
  int has_else;           /* EX_CASE: the last arg is the ELSE value */
  agg_expr *args[EX_MAXARG]; /* children */
  pred_value lit;         /* EX_LIT: the value (p points into lit_mem);
                          ** konst: the value last computed */
  char *lit_mem;          /* EX_LIT: TEXT/BLOB bytes, or a REAL's text (malloc'd) */
  uint8_t lit_tag;        /* EX_LIT, konst: the one tag of the CONST vector */
  cv_str lit_str;         /* EX_LIT, konst: the one string of the CONST vector */
  col_vector out;         /* the vector eval returns for EX_LIT/BIN/FUNC */
  uint8_t *tags;          /* out's per-row tags (malloc'd) */
  int64_t *i64;           /* out's INTEGER values (malloc'd) */
  double *f64;            /* out's REAL values (malloc'd) */
  cv_str *str;            /* out's TEXT/BLOB values (malloc'd) */
  uint32_t cap;           /* rows the four arrays hold */
  int out_tag;            /* the class (not NULL) every live row of tags
                          ** has when the loop that filled them knows it
                          ** (ex_flat_out need not look), else 0 */
  int refs;               /* owners beyond the first: identical subtrees of
                          ** one root are merged into one node (ex_share) */
  uint64_t evals;         /* a root: how many times it was evaluated */
  uint64_t seen;          /* the root evaluation `out` was computed for */
  agg_tpl tpl;            /* strftime/date/time/datetime with a literal
                          ** format: the format as a template (code==NULL
                          ** when it has none) */
  const col_vector *last; /* what the evaluation `seen` returned */
  /* A template date function over a column the reader may give as raw
  ** timestamps (agg_expr_set_ts): its values through a memo (ts_memo.h) */
  uint8_t ts_unit;        /* the column's col_def.ts_unit, 0 none */
  agg_ts_memo *ts;        /* made at the first batch of integers */
  uint32_t *tcodes;       /* per row: its entry of the memo's dictionary */
  uint32_t tcap;          /* rows tcodes holds */
  col_vector tout;        /* the DICT vector returned over the memo */
  /* Over a dictionary (ex_eval_dict): the subtree's one column, or -1 */
  int dcol;
  int dstrict;            /* f(NULL) is NULL for that column */
  col_vector dout;        /* the DICT vector returned */
  col_vector *dcols;      /* the batch's columns, the dictionary in dcol */
  int dcols_cap;
  uint8_t *dtags;         /* dout's per-row tags when the column has NULLs */
  uint32_t dtags_cap;
  agg_json_path *jpath;   /* FN_JSON_*: the compiled literal path (malloc'd) */
  agg_date_mod *mods;     /* a date function's modifiers (malloc'd), parsed */
  int nmods;
  int ts_daily;           /* a date function whose modifiers (after the
                          ** ts_nshift first) and format see the day alone:
                          ** a memo per day serves it over raw timestamps
                          ** (agg_ts_memo_new_daily) */
  int ts_nshift;          /* raw timestamps: the first modifiers, which only
                          ** add a fixed time (agg_date_mod_shift), applied
                          ** to the integers before the memo ('+3 hours') */
  int64_t ts_shift_ms;    /* what they add, in milliseconds */
  agg_tpl stpl;           /* with shifts alone and not ts_daily: the format's
                          ** template, for the memo over shifted integers
                          ** (tpl stays empty: the text path applies every
                          ** modifier) */
  int64_t *tshift;        /* per row: the shifted integer */
  uint8_t *tshift_tags;   /* and its class */
  uint32_t tshift_cap;
  uint64_t dsrc_id;       /* the named dictionary dout was last made over */
  uint32_t dserial;       /* bumped when that changes: dout's name (ex_dict_name) */
  /* A named dictionary larger than the batch (a row group's URLs): the
  ** entries its rows used so far, computed once each (ex_eval_dict_cached) */
  uint64_t ec_id;         /* the dictionary they are of, 0 none */
  col_vector ec;          /* FLAT, ec_cap slots; valid where ec_done */
  uint8_t *ec_done, *ec_tags;
  int64_t *ec_i64; double *ec_f64; cv_str *ec_str;
  uint32_t ec_cap;
  uint32_t ec_ndone;      /* entries of the dictionary done: when all are,
                          ** a batch's rows need no look for new ones */
  uint32_t *ec_need;      /* codes to compute this batch, ascending */
  uint64_t *ec_bits;      /* ex_sort_codes' bitmap, a bit per entry */
  col_arena ec_bytes;     /* the entries' TEXT and BLOB bytes */
  int ec_class;           /* the storage class of every entry computed so
                          ** far: -2 none yet, -1 several. One class lets
                          ** ec go untagged, which consumers' fast paths
                          ** want (sum(abs(RegionID - 200)) over a
                          ** dictionary of numbers) */
};

/* length() and substr() split malformed UTF-8 as SQLite 3.54 does */
#define EX_LEAD_ANY(e) ((e)->dialect && (e)->dialect->utf8_lead_any)
/* date() and strftime() normalize a day past the month's end */
#define EX_DATE_NORMALIZE(e) ((e)->dialect && (e)->dialect->date_normalize)

/* Shared by the two halves (expr_eval.c defines ex_aff and ex_constant,
** expr_parse.c ex_cmp_affinity) */
int ex_aff(const agg_expr *e);
int ex_constant(const agg_expr *e);
int ex_cmp_affinity(int cast_aff);

#endif
