/*
** datetime.h — SQLite 3.40's strftime(), date(), time(), datetime(),
** julianday() and unixepoch() for group_by keys, with the modifiers every
** version since 3.38 reads alike (agg_date_mod).
**
**   keys = 'strftime(''%Y-%m'', EventTime) AS month, date(EventTime)'
**
** Accepted values are those SQLite's date.c accepts without 'now':
** 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM[:SS[.fff]]' (space or T), 'HH:MM[:SS]',
** an optional time zone suffix ('Z', '+HH:MM', '-HH:MM'), and a number
** (INTEGER, REAL or numeric TEXT) taken as a Julian day number. Like SQLite
** 3.40, the parsed year/month/day are printed as given (date('2024-02-30')
** is '2024-02-30'; later versions make it '2024-03-01': col_dialect) while
** %j and %w go through the Julian day. Anything else gives NULL. Formats:
** %d %f %H %j %J %m %M %s %S %w %W %Y %%, and where the dialect says so
** %e %F %I %k %l %p %P %R %T %u %G %g %U %V; any other % sequence makes the
** result NULL, as in SQLite.
*/
#ifndef COLUMNAR_AGG_DATETIME_H
#define COLUMNAR_AGG_DATETIME_H

#include <stdint.h>
#include "../reader/scan.h"

/* A date modifier, parsed once from its literal text. The ones SQLite 3.38
** and every later version read alike: 'start of day|month|year',
** 'weekday N', '+N unit' (unit second, minute, hour, day, month, year,
** with or without the s; N may have a fraction), '+HH:MM[:SS[.FFF]]',
** 'unixepoch', 'julianday' and 'auto'; 'localtime' and 'utc', which 3.42
** changed (AGG_LOCAL_*); and the ones later versions added, which make
** the result NULL before: '(+|-)YYYY-MM-DD[ HH:MM[:SS[.FFF]]]' (3.43,
** col_dialect.date_ymd_mod) and 'floor' and 'ceiling' (3.46,
** col_dialect.date_floor). */
enum { AGG_DM_NULL = 0,       /* the result is NULL (an amount past its limit) */
       AGG_DM_START_DAY, AGG_DM_START_MONTH, AGG_DM_START_YEAR,
       AGG_DM_WEEKDAY, AGG_DM_ADD, AGG_DM_ADD_MS,
       /* how a number before them is read (3.38): as seconds since 1970,
       ** as a Julian day, or by its size; first modifier only, else the
       ** result is NULL */
       AGG_DM_UNIXEPOCH, AGG_DM_JULIANDAY, AGG_DM_AUTO,
       /* the machine's time zone through localtime_r(), as the SQLite at
       ** hand computes it (col_dialect.date_local; without it, refused) */
       AGG_DM_LOCALTIME, AGG_DM_UTC,
       /* 'subsec' or 'subsecond': milliseconds shown (col_dialect.date_subsec;
       ** without it the result is NULL, as in 3.40) */
       AGG_DM_SUBSEC,
       /* (+|-)YYYY-MM-DD[ HH:MM[:SS[.FFF]]]: years and months on the
       ** calendar, then days, then the time (date_ymd_mod) */
       AGG_DM_ADD_YMD,
       /* a day past its month's end that '+N months|years' or ADD_YMD made:
       ** back to the month's last day, or on into the next month (the
       ** default; date_floor) */
       AGG_DM_FLOOR, AGG_DM_CEILING };
typedef struct agg_tz_cache agg_tz_cache;
typedef struct agg_date_mod {
  int kind;               /* AGG_DM_* */
  int n;                  /* WEEKDAY: the day (0 Sunday); ADD: the unit 0..5;
                          ** ADD_YMD: -1 subtract, 1 add */
  double r;               /* ADD: the amount */
  int64_t ms;             /* ADD_MS, ADD_YMD: milliseconds to add (signed) */
  int y, mo, d;           /* ADD_YMD: years, months (0..11), days (0..30) */
  int has_time;           /* ADD_YMD: a time followed the date */
  agg_tz_cache *tz;       /* LOCALTIME, UTC: the zone's offsets by hour, or
                          ** NULL (agg_tz_cache_new; one user at a time) */
} agg_date_mod;

/* localtime_r() takes a process-wide lock and searches the zone's rules
** each call; an hour whose offset is the same at its first and last second
** has that offset throughout, and its local times are UTC plus the offset.
** NULL when out of memory (then every call goes to localtime_r()). */
agg_tz_cache *agg_tz_cache_new(void);
void agg_tz_cache_free(agg_tz_cache *c);
uint64_t agg_tz_cache_bytes(const agg_tz_cache *c);

/* Parse modifier z[0..n) into *m: 0, or 1 when it is not one of those
** above (others, 'subsec' or '+YYYY-MM-DD' say, group_by leaves to
** SQLite). */
int agg_date_mod_parse(const char *z, uint32_t n, agg_date_mod *m);

/* col_dialect.date_local: how 'localtime' and 'utc' are computed, which the
** extension finds by asking SQLite (ext/dialect_probe.h). 'localtime' takes
** localtime_r()'s fields (those of a year with the same leap cycle outside
** 1970-2038); 'utc' searches for the instant whose local time the value
** is. 3.40 does 'localtime' each time it is asked, and 'utc' unless the
** value carried a zone suffix or went through 'utc'; 3.42 keeps track of
** which of the two the time is in and does neither twice; 3.53 as 3.42,
** but a zone suffix of +00:00 (or -00:00) makes the time UTC as Z does.
** 0: none answers as this SQLite does, and group_by refuses them. */
enum { AGG_LOCAL_UNKNOWN = 0, AGG_LOCAL_340 = 1, AGG_LOCAL_342 = 2, AGG_LOCAL_353 = 3 };

/* Do mods only move whole days (start of day, month or year, weekday N,
** +N days, months or years with N whole)? Then, with a format showing only
** fields of the date (agg_fmt_date_only: %d %m %Y %j %w %W %U %u %G %g %V
** %F %e %%), the result is a function of the value's day alone. */
int agg_date_mods_daily(const agg_date_mod *mods, int nmods);

/* Does m only add a fixed time ('+N seconds|minutes|hours|days', N any
** amount, or '+HH:MM[:SS]')? Then 1, with *ms the milliseconds it adds to
** date.c's iJD, whatever the value: a run of them from the first modifier
** moves every value by their sum. */
int agg_date_mod_shift(const agg_date_mod *m, int64_t *ms);
int agg_fmt_date_only(const char *fmt, uint32_t nfmt);

/* Bytes out must have for a format of nfmt bytes. */
#define AGG_STRFTIME_CAP(nfmt) ((size_t)(nfmt)*16 + 64)

/* strftime(fmt, x, mods...) into out (AGG_STRFTIME_CAP bytes), with the
** modifiers mods[0..nmods) applied in order (none: nmods 0), as the SQLite
** d describes computes it (NULL: 3.40; later versions normalize a day past
** the month's end and know more % letters). Returns the length, or -1
** when the result is NULL. */
int agg_strftime(const char *fmt, uint32_t nfmt, const pred_value *x,
                 const agg_date_mod *mods, int nmods, const col_dialect *d, char *out);

/* date(x, mods...) (with_time 0) or datetime(x, mods...) (1): strftime's
** '%Y-%m-%d' and '%Y-%m-%d %H:%M:%S', except that a year before 1 keeps
** four digits after its sign as SQLite's dateFunc prints it ('-0007-10-01',
** where strftime's %Y gives '-007'). Returns the length, or -1 for NULL. */
int agg_date_text(int with_time, const pred_value *x, const agg_date_mod *mods,
                  int nmods, const col_dialect *d, char *out);

/* time(x, mods...): strftime's '%H:%M:%S', with milliseconds after 'subsec'. */
int agg_time_text(const pred_value *x, const agg_date_mod *mods, int nmods,
                  const col_dialect *d, char *out);

/* julianday(x) and unixepoch(x) read x's instant: 1 with *jd set to it in
** milliseconds of the Julian day (date.c's iJD), 2 the same after 'subsec'
** (unixepoch() is then REAL), 0 when the result is NULL. */
int agg_date_jd(const pred_value *x, const agg_date_mod *mods, int nmods,
                const col_dialect *d, int64_t *jd);

#endif
