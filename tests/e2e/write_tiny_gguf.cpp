// Writes a tiny valid GGUF file (tests/common/tiny_gguf.h) for the fake-
// engine run of the end-to-end test on machines without the real models.
//   write_tiny_gguf PATH
#include "tiny_gguf.h"

int main(int argc, char* argv[])
{
    return argc == 2 && testsupport::writeTinyGguf(argv[1]) ? 0 : 1;
}
