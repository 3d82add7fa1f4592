// expect: exec-error f C052 5:17 the loop condition is not constant: a for loop needs a trip count that is constant after constant folding
int f(int n)
{
    int i, s = 0;
    for (i = 0; i < n; i++)
        s += i;
    return s;
}
