#pragma once
// Checkpoint texts edited by a test. A sealed checkpoint refuses any edit by its checksum
// (landscape/formats/CheckpointReader.h); `resealed` seals the edited text again so that the
// reader's own checks meet the edit, and `asVersion1` makes the file an earlier build wrote.
#include <string>

#include "landscape/formats/CheckpointReader.h"

namespace landscape {

/// `text` without its last line when that is the checksum line.
inline std::string withoutChecksumLine(std::string text) {
  const std::size_t last = text.rfind("checksum crc32 ");
  if (last != std::string::npos && (last == 0 || text[last - 1] == '\n')) text.resize(last);
  return text;
}

inline std::string resealed(const std::string& text) {
  return withChecksumLine(withoutChecksumLine(text));
}

/// The same checkpoint as version 1 (before checksum lines): `magic` is its first word.
inline std::string asVersion1(const std::string& text, const std::string& magic) {
  std::string old = withoutChecksumLine(text);
  const std::string current = magic + " 2\n";
  if (old.rfind(current, 0) == 0) old.replace(0, current.size(), magic + " 1\n");
  return old;
}

}  // namespace landscape
