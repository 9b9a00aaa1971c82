#pragma once
// Internal to the readers: each is a deep walk over its input, and an error anywhere ends it. The
// walk throws ReadError inside its own file; read() turns that into the Diagnostic the public
// interface returns as a value.
#include <nlohmann/json.hpp>

#include <string>

#include "model/program.h"
#include "model/result.h"

namespace syncbisim::formats::detail {

struct ReadError {
  model::Diagnostic diagnostic;
};

// The program `walk()` reads, normalized (model::normalize), or the error that ended the walk.
// nlohmann's exceptions can only be the reader's own mistake (the raw text was checked before
// any DOM was built), and the library's text ("[json.exception...]") is no message for a user:
// `place` and `what` ("this JSON") name what could not be read instead.
template <class Walk>
model::Result<model::Program> read(Walk walk, const std::string& place, const std::string& what) {
  try {
    model::Program p = walk();
    model::normalize(p);
    return p;
  } catch (const ReadError& e) {
    return e.diagnostic;
  } catch (const nlohmann::json::exception& e) {
    return model::make_error(place, "bad-json",
                             "cannot read " + what + " (library error " + std::to_string(e.id) + ")");
  }
}

}  // namespace syncbisim::formats::detail
