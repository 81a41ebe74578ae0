/*
** split.h — a dataset's jobs shared out among the lanes of one parallel
** scan while they run.
**
** The lanes of a group by (agg/groupby_run.c) each scan a contiguous run of
** the jobs (Parquet row groups), and fold their tables in file order. Runs
** fixed up front by rows left one lane idle while the other still worked:
** row groups of the same rows cost different amounts (a chunk of PLAIN URLs
** against one of dictionary codes), 20-45% apart between the two halves of
** the bench's file. Here a lane takes its next job when it starts it; a lane
** that runs out takes the upper part of what the lane with most left has
** not started, as a new lane whose run sits right after that lane's. So
** every lane is still one contiguous run, and ordering lanes by their first
** job orders their rows as the file does.
**
**   col_split *s = col_split_new(2, 8);     // two lanes now, eight at most
**   // each lane's scan: col_split_jobs(s, njob, rows) once it knows its
**   // jobs, then col_split_claim(s, lane) per job until it returns -1
**   int l = col_split_steal(s);            // a lane out of jobs: a new one
**   int order[8]; col_split_order(s, order);
**
** Thread-safe: every call but _free takes the split's mutex (a call per
** job, some hundreds a scan).
*/
#ifndef COLUMNAR_SPLIT_H
#define COLUMNAR_SPLIT_H

#include <stdint.h>

typedef struct col_split col_split;

/* A split for nlane lanes to start with and at most maxlane ever (>=
** nlane); NULL when out of memory. */
col_split *col_split_new(int nlane, int maxlane);
void col_split_free(col_split *s);

/* Contiguous runs of jobs 0..njob (rows[j] rows in job j) holding about
** equal numbers of rows, for nrun lanes or shards: run r is jobs
** start[r]..start[r+1]-1 (start has nrun+1 entries; a run may be empty).
** A job goes to the run its middle row falls in. */
void col_split_divide(const int64_t *rows, int njob, int nrun, int *start);

/* The jobs every lane's scan will claim from: njob of them, rows[j] rows
** in job j. The first call divides them into the starting lanes' runs of
** about equal rows (a job goes to the run its middle row falls in); later
** calls must name as many jobs (col_split_divide). Returns 0, or -1 when
** njob differs from the first call's. */
int col_split_jobs(col_split *s, int njob, const int64_t *rows);

/* The next job of lane `lane` (an index into the jobs of col_split_jobs),
** or -1 when its run has none left. */
int col_split_claim(col_split *s, int lane);

/* A new lane taking the upper half of the jobs not yet started in the
** lane that has most of them (at least min_left), or -1 when no lane has
** that many or maxlane lanes exist. */
int col_split_steal(col_split *s, int min_left);

/* Lanes made so far (starting ones included). */
int col_split_lanes(col_split *s);

/* order[0..col_split_lanes()) = the lanes by their first job, which is
** file order (lanes made before any scan knew its jobs keep theirs). */
void col_split_order(col_split *s, int *order);

#endif
