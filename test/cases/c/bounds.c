// expect: safety f bounds 5:12 index i out of bounds of table[8]
long table[8];
long f(int i)
{
    return table[i] + table[(i + 1) & 7];
}
