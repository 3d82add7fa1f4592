// expect: error C034 4:36 redeclaration of enumerator 'PROC_READY' (also at enum-duplicate.c:4:14)
// gcc: reject redeclaration of enumerator
// mistake: one enumerator twice.
enum state { PROC_READY, PROC_RUN, PROC_READY };
