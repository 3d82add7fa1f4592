// expect: error C034 3:6 'x' is declared as long here and as int at conflict.c:2:5
int x;
long x;
