#pragma once
// What every reader's fuzz target asserts besides "no crash, no hang, no sanitizer report":
// a rejected input gets one clean message (docs/formats.md "Messages"), and an accepted program
// survives both printers (docs/formats.md: read_json(write_json(p)) == p, likewise for text).
// A broken promise aborts, so libFuzzer keeps the input as a crash.
#include <string_view>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::fuzz_readers {

// The diagnostic has a rule and a place, and to_string() is one line of printable, valid UTF-8
// no longer than a person can read.
void check_message(const model::Diagnostic& d);

// The loaded program validates, and write_json / write_text read back to the same program.
void check_round_trips(const model::Program& p);

// load_program_text on the input, then the checks above.
void check_load(std::string_view input);

// What a reader's target asserts of its reader's answer `r` on `input`: a rejection's message, an
// accepted program's index (its message) or round trips, then the loader's own path (format
// sniffing, BOM, places) on the same bytes.
void check_read(const model::Result<model::Program>& r, std::string_view input);

}  // namespace syncbisim::fuzz_readers
