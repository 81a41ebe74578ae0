/*
** simd.h — whether this build can carry AVX-512 loops beside scalar ones.
**
** Hot loops (dictionary codes unpacked and filtered, key hashing, the ASCII
** scan of length()) keep their portable scalar form and add an AVX-512 one
** compiled for that target alone (__attribute__((target(...)))), chosen per
** call by __builtin_cpu_supports: the library is built for any x86-64 and
** runs the wide loop only on a CPU that has it. COL_SIMD_AVX512 says the
** compiler can build such loops (GCC or clang on x86-64); elsewhere only
** the scalar loops exist.
*/
#ifndef COLUMNAR_SIMD_H
#define COLUMNAR_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__)
# include <immintrin.h>
# define COL_SIMD_AVX512 1
#endif

#endif
