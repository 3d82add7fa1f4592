// expect: error C032 6:17 struct s has no member named 'nope'
struct s { int a; };
struct s g[2];
int f(void)
{
    return g[0].nope;
}
