// expect: error C038 3:9 an array size must be an integer constant expression
int n;
int arr[n];
