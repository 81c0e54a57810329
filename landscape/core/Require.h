#pragma once
// Parameter checks: an XxxParams::check() throws a sentence naming the bad field
// (docs/architecture.md, house rules).
#include <stdexcept>
#include <string>
#include <type_traits>

namespace landscape {

inline void require(bool ok, const std::string& sentence) {
  if (!ok) throw std::invalid_argument(sentence);
}

/// The same with the sentence made only when the check fails (`sentence()`): for checks made
/// once per structure or pair, where building every message would cost more than the check.
template <class Sentence, class = std::enable_if_t<std::is_invocable_r_v<std::string, Sentence&>>>
void require(bool ok, Sentence&& sentence) {
  if (!ok) throw std::invalid_argument(sentence());
}

}  // namespace landscape
