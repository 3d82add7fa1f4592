// expect: error C021 5:5 a while loop is not supported (the subset has if, for with a constant trip count, return, break and continue)
int f(int n)
{
    int s = 0;
    while (n > 0)
        s++;
    return s;
}
