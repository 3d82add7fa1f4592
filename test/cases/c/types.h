/* Fixed-width types for the semantics fixture (LP64), as the kernel defines them. */
#ifndef FIXTURE_TYPES_H
#define FIXTURE_TYPES_H
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef unsigned long size_t;
typedef unsigned long uintptr_t;
typedef _Bool bool;
#define true 1
#define false 0
#endif
