/*
** schema_tree.c — rebuild the schema tree and decide each leaf's mapping.
**
** The mapping is DESIGN.md's table: LogicalType first, the legacy
** ConvertedType when there is none, the physical type last.
*/
#include "schema_tree.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

char *pq_node_name(const pq_node *n){
  char *s = malloc(n->el->name.n + 1);
  if( s ){
    if( n->el->name.n ) memcpy(s, n->el->name.p, n->el->name.n);
    s[n->el->name.n] = 0;
  }
  return s;
}

/* Decide how a leaf converts. Returns COL_OK; unknown combinations fall back
** to the physical type (an unknown logical type on a BYTE_ARRAY is a BLOB, as
** the golden rules say). */
static void leaf_conv(const pq_schema_element *e, const pq_options *opt,
                      pq_conv *c){
  const pq_logical_type *lt = &e->logical;
  int ct = e->converted_type;
  memset(c, 0, sizeof(*c));
  c->phys = e->type;
  c->type_length = e->type_length;
  c->decimal_text = opt && opt->decimal_text;
  switch( e->type ){
    case PQ_BOOLEAN: c->kind = PQC_BOOL; break;
    case PQ_INT32:   c->kind = PQC_INT32; break;
    case PQ_INT64:   c->kind = PQC_INT64; break;
    case PQ_INT96:   c->kind = PQC_INT96; break;
    case PQ_FLOAT:   c->kind = PQC_FLOAT; break;
    case PQ_DOUBLE:  c->kind = PQC_DOUBLE; break;
    default:
      c->kind = (opt && opt->binary_as_string && e->type==PQ_BYTE_ARRAY) ? PQC_TEXT : PQC_BLOB;
      break;
  }
  if( lt->kind!=PQ_LT_NONE ){
    switch( lt->kind ){
      case PQ_LT_STRING: case PQ_LT_ENUM: case PQ_LT_JSON:
        if( e->type==PQ_BYTE_ARRAY || e->type==PQ_FIXED_LEN_BYTE_ARRAY ) c->kind = PQC_TEXT;
        break;
      case PQ_LT_DECIMAL:
        if( e->type!=PQ_BOOLEAN && e->type!=PQ_FLOAT && e->type!=PQ_DOUBLE && e->type!=PQ_INT96 ){
          c->kind = PQC_DECIMAL; c->scale = lt->scale;
        }
        break;
      case PQ_LT_DATE: if( e->type==PQ_INT32 ){ c->kind = PQC_DATE; } break;
      case PQ_LT_TIME:
        if( e->type==PQ_INT32 || e->type==PQ_INT64 ){ c->kind = PQC_TIME; c->unit = lt->unit; }
        break;
      case PQ_LT_TIMESTAMP:
        if( e->type==PQ_INT64 ){ c->kind = PQC_TIMESTAMP; c->unit = lt->unit; }
        break;
      case PQ_LT_INTEGER:
        if( e->type==PQ_INT32 ) c->kind = lt->is_signed ? PQC_INT32 : PQC_UINT32;
        else if( e->type==PQ_INT64 ) c->kind = lt->is_signed ? PQC_INT64 : PQC_UINT64;
        break;
      case PQ_LT_UUID:
        if( e->type==PQ_FIXED_LEN_BYTE_ARRAY && e->type_length==16 ) c->kind = PQC_UUID;
        break;
      case PQ_LT_FLOAT16:
        if( e->type==PQ_FIXED_LEN_BYTE_ARRAY && e->type_length==2 ) c->kind = PQC_FLOAT16;
        break;
      default: break; /* BSON, UNKNOWN, GEOMETRY...: physical */
    }
  }else{
    switch( ct ){
      case PQ_CT_UTF8: case PQ_CT_ENUM: case PQ_CT_JSON:
        if( e->type==PQ_BYTE_ARRAY || e->type==PQ_FIXED_LEN_BYTE_ARRAY ) c->kind = PQC_TEXT;
        break;
      case PQ_CT_DECIMAL:
        if( e->type!=PQ_BOOLEAN && e->type!=PQ_FLOAT && e->type!=PQ_DOUBLE && e->type!=PQ_INT96 ){
          c->kind = PQC_DECIMAL; c->scale = e->scale;
        }
        break;
      case PQ_CT_DATE: if( e->type==PQ_INT32 ){ c->kind = PQC_DATE; } break;
      case PQ_CT_TIME_MILLIS:
        if( e->type==PQ_INT32 ){ c->kind = PQC_TIME; c->unit = PQ_UNIT_MILLIS; } break;
      case PQ_CT_TIME_MICROS:
        if( e->type==PQ_INT64 ){ c->kind = PQC_TIME; c->unit = PQ_UNIT_MICROS; } break;
      case PQ_CT_TIMESTAMP_MILLIS:
        if( e->type==PQ_INT64 ){ c->kind = PQC_TIMESTAMP; c->unit = PQ_UNIT_MILLIS; } break;
      case PQ_CT_TIMESTAMP_MICROS:
        if( e->type==PQ_INT64 ){ c->kind = PQC_TIMESTAMP; c->unit = PQ_UNIT_MICROS; } break;
      case PQ_CT_UINT_8: case PQ_CT_UINT_16: case PQ_CT_UINT_32:
        if( e->type==PQ_INT32 ){ c->kind = PQC_UINT32; } break;
      case PQ_CT_UINT_64:
        if( e->type==PQ_INT64 ){ c->kind = PQC_UINT64; } break;
      case PQ_CT_INTERVAL:
        if( e->type==PQ_FIXED_LEN_BYTE_ARRAY && e->type_length==12 ) c->kind = PQC_INTERVAL;
        break;
      default: break;
    }
  }
  switch( c->kind ){
    case PQC_BOOL: case PQC_INT32: case PQC_UINT32: case PQC_INT64:
      c->out = CV_INT; c->decl = "INTEGER"; break;
    case PQC_UINT64:
      c->out = CV_INT; c->decl = "INTEGER"; break;
    case PQC_FLOAT: case PQC_DOUBLE: case PQC_FLOAT16:
      c->out = CV_REAL; c->decl = "REAL"; break;
    case PQC_DECIMAL:
      if( c->decimal_text ){ c->out = CV_TEXT; c->decl = "TEXT"; }
      else if( c->scale==0 ){ c->out = CV_INT; c->decl = "INTEGER"; }
      else { c->out = CV_REAL; c->decl = "REAL"; }
      break;
    case PQC_BLOB:
      c->out = CV_BLOB; c->decl = "BLOB"; break;
    default:
      c->out = CV_TEXT; c->decl = "TEXT"; break;
  }
}

void pq_schema_free(pq_schema *s){
  if( s==0 ) return;
  free(s->nodes);
  free(s->child_pool);
  free(s->leaves);
  free(s->fields);
  memset(s, 0, sizeof(*s));
}

int pq_schema_build(const pq_file_meta *m, const pq_options *opt,
                    pq_schema *s, col_error *err){
  int n = m->n_schema;
  memset(s, 0, sizeof(*s));
  if( n<1 ) return col_error_set(err, COL_ERROR, "schema is empty");
  s->nnode = n;
  s->nodes = calloc((size_t)n, sizeof(pq_node));
  s->child_pool = calloc((size_t)n, sizeof(int));
  s->leaves = calloc((size_t)n, sizeof(pq_leaf_desc));
  s->fields = calloc((size_t)n, sizeof(pq_field));
  if( !s->nodes || !s->child_pool || !s->leaves || !s->fields ){
    col_error_set(err, COL_ENOMEM, "out of memory");
    goto build_error;
  }
  /* Walk the depth-first list with an explicit stack of open groups. */
  int stack[256], remaining[256], depth = 0, pool = 0;
  for(int i=0; i<n; i++){
    const pq_schema_element *e = &m->schema[i];
    pq_node *nd = &s->nodes[i];
    nd->el = e;
    nd->leaf = -1;
    nd->repetition = (i==0 || !e->has_repetition) ? PQ_REQUIRED : e->repetition_type;
    if( i==0 ){
      nd->parent = -1;
    }else{
      if( depth==0 ){
        col_error_set(err, COL_ERROR, "schema element %d lies outside the root's %d children",
                      i, m->schema[0].num_children);
        goto build_error;
      }
      int p = stack[depth-1];
      nd->parent = p;
      s->nodes[p].child[s->nodes[p].nchild++] = i;
      nd->max_def = s->nodes[p].max_def + (nd->repetition!=PQ_REQUIRED);
      nd->max_rep = s->nodes[p].max_rep + (nd->repetition==PQ_REPEATED);
      if( --remaining[depth-1]==0 ) depth--;
      while( depth>0 && remaining[depth-1]==0 ) depth--;
    }
    if( e->num_children>0 ){
      if( e->num_children > n - i - 1 || pool + e->num_children > n ){
        col_error_set(err, COL_ERROR, "schema element %d claims %d children: "
                      "the child counts exceed the %d schema elements", i, e->num_children, n);
        goto build_error;
      }
      if( depth>=255 ){
        col_error_set(err, COL_ERROR, "schema nesting deeper than 255 levels");
        goto build_error;
      }
      nd->child = &s->child_pool[pool];
      pool += e->num_children;
      stack[depth] = i; remaining[depth] = e->num_children; depth++;
    }else if( i>0 ){
      if( !e->has_type ){
        col_error_set(err, COL_ERROR, "schema element %d (%.*s) is a leaf without a type",
                      i, (int)e->name.n, (const char*)e->name.p);
        goto build_error;
      }
      if( e->type==PQ_FIXED_LEN_BYTE_ARRAY && (e->type_length<0 || e->type_length>(1<<24)) ){
        col_error_set(err, COL_ERROR, "schema element %d (%.*s): bad FIXED_LEN_BYTE_ARRAY length %d",
                      i, (int)e->name.n, (const char*)e->name.p, e->type_length);
        goto build_error;
      }
      pq_leaf_desc *L = &s->leaves[s->nleaf];
      nd->leaf = s->nleaf++;
      L->node = i;
      L->max_def = nd->max_def;
      L->max_rep = nd->max_rep;
      leaf_conv(e, opt, &L->conv);
    }
  }
  if( depth!=0 ){
    col_error_set(err, COL_ERROR, "schema ends inside a group (child counts do not add up)");
    goto build_error;
  }
  /* Leaf ranges, bottom-up: nodes come parent-before-child. */
  for(int i=n-1; i>=0; i--){
    pq_node *nd = &s->nodes[i];
    if( nd->leaf>=0 ){ nd->leaf_first = nd->leaf; nd->leaf_count = 1; continue; }
    nd->leaf_first = -1; nd->leaf_count = 0;
    for(int c=0; c<nd->nchild; c++){
      pq_node *ch = &s->nodes[nd->child[c]];
      if( ch->leaf_count==0 ) continue;
      if( nd->leaf_first<0 ) nd->leaf_first = ch->leaf_first;
      nd->leaf_count += ch->leaf_count;
    }
  }
  /* Top-level fields. */
  for(int c=0; c<s->nodes[0].nchild; c++){
    int ni = s->nodes[0].child[c];
    pq_node *nd = &s->nodes[ni];
    pq_field *f = &s->fields[s->nfield++];
    f->node = ni;
    f->nested = !(nd->leaf>=0 && nd->repetition!=PQ_REPEATED);
    if( f->nested ){
      f->type = CV_TEXT; f->decl = "TEXT";
    }else{
      f->type = s->leaves[nd->leaf].conv.out;
      f->decl = s->leaves[nd->leaf].conv.decl;
    }
    for(int l=0; l<nd->leaf_count; l++) s->leaves[nd->leaf_first+l].field = s->nfield-1;
  }
  return COL_OK;
build_error:
  pq_schema_free(s);
  return err->code;
}

int pq_schema_same(const pq_schema *a, const pq_schema *b, char *why, size_t nwhy){
  if( a->nfield!=b->nfield ){
    snprintf(why, nwhy, "%d columns vs %d columns", a->nfield, b->nfield);
    return 0;
  }
  if( a->nleaf!=b->nleaf ){
    snprintf(why, nwhy, "%d leaf columns vs %d", a->nleaf, b->nleaf);
    return 0;
  }
  for(int i=0; i<a->nfield; i++){
    const pq_schema_element *x = a->nodes[a->fields[i].node].el;
    const pq_schema_element *y = b->nodes[b->fields[i].node].el;
    if( x->name.n!=y->name.n || memcmp(x->name.p, y->name.p, x->name.n)!=0 ){
      snprintf(why, nwhy, "column %d is named %.*s in one and %.*s in the other",
               i+1, (int)x->name.n, (const char*)x->name.p, (int)y->name.n, (const char*)y->name.p);
      return 0;
    }
  }
  for(int i=0; i<a->nleaf; i++){
    const pq_leaf_desc *x = &a->leaves[i], *y = &b->leaves[i];
    if( x->conv.kind!=y->conv.kind || x->conv.phys!=y->conv.phys
     || x->max_def!=y->max_def || x->max_rep!=y->max_rep
     || x->conv.scale!=y->conv.scale || x->conv.type_length!=y->conv.type_length ){
      const pq_schema_element *e = a->nodes[x->node].el;
      snprintf(why, nwhy, "column %.*s has a different type",
               (int)e->name.n, (const char*)e->name.p);
      return 0;
    }
  }
  return 1;
}
