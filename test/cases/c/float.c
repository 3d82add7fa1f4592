// expect: error C037 2:1 floating point is not supported
double ratio;
