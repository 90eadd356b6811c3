// SwiftPM needs a source file in a C target; the module is the declaration in CLibFuzzer.h.
#include "CLibFuzzer.h"
