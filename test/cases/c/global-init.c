// expect: error C036 2:15 global 'counter' has an initializer; globals start from an arbitrary state, so initializers are not allowed
int counter = 3;
