#ifndef HERMES_CLIBFUZZER_H
#define HERMES_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, LLVM 12 and later), linked in by `-sanitize=fuzzer`: the
/// function behind libFuzzer's own `main`. It reads libFuzzer's command line from `argc` and
/// `argv` and runs `callback` on every input; it returns only for a bad command line, and
/// exits the process itself otherwise.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
