/*
** nested.h — assembling nested Parquet fields into JSON text.
**
** Groups become objects, LIST (also the legacy two-level forms and bare
** repeated fields) arrays, MAP objects with text keys — README.golden.md's
** rules. The assembly reads the definition and repetition levels of every
** leaf under the field (Dremel record assembly) and renders as it goes.
*/
#ifndef COLUMNAR_PARQUET_NESTED_H
#define COLUMNAR_PARQUET_NESTED_H

#include "convert.h"

/* chunks[i] is the decoded chunk of leaf (field's leaf_first + i). On success
** out->v is a flat TEXT vector of `rows` JSON values (NULL where the field
** itself is null). Levels that disagree between leaves are an error. */
int pq_assemble_json(const pq_schema *s, int field, pq_chunk *chunks,
                     int64_t rows, pq_colvec *out, col_error *err);

#endif
