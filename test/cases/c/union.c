// expect: error C037 2:1 a union is not supported
union u { int a; long b; };
