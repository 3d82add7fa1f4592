// expect: error C038 4:28 overflow in enumeration values: 'B' would be 2147483648, which int cannot hold
// gcc: reject overflow in enumeration values
// mistake: the implicit value after INT_MAX does not fit int, the type of the one before it.
enum big { A = 0x7fffffff, B };
