/*
** warm.h — bring a batch another core built into this core's caches.
**
** A batch a worker thread decoded sits in that core's L2 (the parallel
** readers size their chunks so). SQLite then reads it a row at a time
** through xColumn: a 105-column row touches 105 column arrays, more
** streams than the hardware prefetchers follow, so nearly every value's
** cache line came over from the other core at full latency. Reading the
** arrays first, one sequential sweep per column, costs a few percent of
** the batch's time and turns those misses into hits.
*/
#ifndef COLUMNAR_WARM_H
#define COLUMNAR_WARM_H

#include "scan.h"

/* Touch every cache line of b's column arrays (values, tags, codes and
** the bytes of TEXT/BLOB values) for its n rows. */
void col_batch_warm(const col_batch *b);

#endif
