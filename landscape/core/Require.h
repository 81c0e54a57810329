#pragma once
// Parameter checks (DESIGN.md: check() throws a sentence naming the bad field).
#include <stdexcept>
#include <string>

namespace landscape {

inline void require(bool ok, const std::string& sentence) {
  if (!ok) throw std::invalid_argument(sentence);
}

}  // namespace landscape
