// expect: error C041 6:5 a value of type struct s cannot be used here; access its scalar fields instead
struct s { int a; int b; };
struct s g[2];
void f(void)
{
    g[0] = g[1];
}
