/*
** zone.h — blocks carved one after another out of big chunks, all freed
** together.
**
** A radix fold gives each of its 256 partitions a handful of arrays of a
** few KiB to a MiB (buckets, key columns, states, first rows). malloc'd,
** each was faulted in 4 KiB at a time, and grew by copying into fresh
** pages again; on a VM whose fresh 4 KiB pages fault in at 0.37 GB/s that
** was a third of GROUP BY UserID's CPU at threads=2. Carved from a zone,
** they share its chunks' huge pages; and when the zone draws its chunks
** from the connection's slab pool (agg/slab_pool.h), the next query's
** zone takes them back: memory already mapped, cleared by memset, not
** faulted in and zeroed by the kernel again.
**
** A carved block is a block like any other to agg_mem_realloc, _size and
** _free (agg/bigmem.h): freeing it does nothing (its bytes stay until the
** zone goes), and growing it past its size copies it out. So a zone must
** outlive every block carved from it, wherever the block has been handed.
** Carving takes the zone's lock: threads may share one.
*/
#ifndef COLUMNAR_AGG_ZONE_H
#define COLUMNAR_AGG_ZONE_H

#include <stddef.h>

struct agg_slab_pool;
typedef struct agg_zone agg_zone;

/* Blocks up to this size are carved; larger ones have mappings of their
** own (huge pages as well). It bounds what a block doubling its way up
** leaves behind in the zone: twice this, at most. */
#define AGG_ZONE_CARVE_MAX ((size_t)2 << 20)

/* A new zone with nothing mapped yet, its chunks taken from pool (and
** given back to it) when pool is not NULL; NULL when out of memory. */
agg_zone *agg_zone_new(struct agg_slab_pool *pool);
/* Free every chunk of z, and of the zones it absorbed. z may be NULL. */
void agg_zone_free(agg_zone *z);
/* z frees src along with itself (src's blocks live on); either may be NULL:
** the one that is not is returned. */
agg_zone *agg_zone_absorb(agg_zone *z, agg_zone *src);

/* n zero bytes carved from z, faulted in as agg_mem_zalloc's mapped
** blocks are (they are read before written: hash buckets); agg_mem_zalloc's
** where z is NULL or n is past AGG_ZONE_CARVE_MAX. NULL when out of memory. */
void *agg_zone_zalloc(agg_zone *z, size_t n);
/* agg_mem_realloc and agg_mem_grow_zeroed, but a block that must move (or
** is new) is carved from z, when z is not NULL and n is at most
** AGG_ZONE_CARVE_MAX. Carved bytes are zero until written. */
void *agg_zone_realloc(agg_zone *z, void *p, size_t n);
void *agg_zone_grow_zeroed(agg_zone *z, void *p, size_t old, size_t n);

#endif
