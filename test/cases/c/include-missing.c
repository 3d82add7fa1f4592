// expect: error C001 2:10 cannot find included file "missing.h"
#include "missing.h"
