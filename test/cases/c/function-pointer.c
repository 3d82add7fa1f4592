// expect: error C037 2:6 a function pointer is not supported
void (*handler)(int);
