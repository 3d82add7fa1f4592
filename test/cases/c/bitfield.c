// expect: error C039 2:29 bit-field of width 3: only ': 64' on a 64-bit type is supported
struct flags { unsigned a : 3; };
