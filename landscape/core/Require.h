#pragma once
// Parameter checks: an XxxParams::check() throws a sentence naming the bad field
// (docs/architecture.md, house rules).
#include <stdexcept>
#include <string>

namespace landscape {

inline void require(bool ok, const std::string& sentence) {
  if (!ok) throw std::invalid_argument(sentence);
}

}  // namespace landscape
