// expect: error C044 3:1 static assertion failed: struct s has 3 bytes
struct s { char a; int b; };
_Static_assert(sizeof(struct s) == 3, "struct s has 3 bytes");
