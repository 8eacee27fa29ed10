// libFuzzer's entry points the guided fuzzer calls (they are defined by libFuzzer itself,
// linked in by `-sanitize=fuzzer`; see compiler-rt's FuzzerInterface.h).
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own byte-level mutation of `data` in place; returns the new size.
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);


/// Runs libFuzzer with the command line `argc`, `argv` and the test callback (SwiftPM gives
/// an executable its own `main`, so libFuzzer's is not the one that runs).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
