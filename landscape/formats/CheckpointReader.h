#pragma once
// The reader of the project's line-oriented checkpoint files (gmin's checkpoint, sop.checkpoint):
// every line is a key followed by values; reals are C99 hexadecimal floats (%a, written by
// hexReal) or decimal. Every failure throws std::runtime_error "path:line: what was expected".
//
// Each file's last line is its seal, "checksum crc32 HEX": the CRC-32 of every byte before it
// (landscape/core/Checksum.h). A digit changed after the file was written (a flipped bit, a hand
// edit) is then refused instead of resumed; files of the previous version carry no seal.
#include <sstream>
#include <string>
#include <vector>

namespace landscape {

/// x as a C99 hexadecimal float (%a): every bit survives the round trip through strtod.
std::string hexReal(double x);

/// `text` with its seal appended.
std::string withChecksumLine(std::string text);
/// If `text` ends with a seal, checks it and removes it; returns whether there was one. Throws
/// std::runtime_error "path:line: checksum mismatch ..." when the bytes do not give the seal.
bool removeCheckedChecksumLine(const std::string& path, std::string& text);
/// The version rule of the sealed formats: `version` must be `current` with a seal, or
/// current - 1 (written before seals) without one. Throws "path: ..." otherwise, naming `what`.
void checkSealedVersion(const std::string& path, long version, int current, bool sealed,
                        const std::string& what);

class CheckpointReader {
 public:
  CheckpointReader(const std::string& path, const std::string& text);

  /// The next line, which must start with `key`; its values are read next.
  CheckpointReader& line(const std::string& key);
  /// Whether the next line starts with `key`, without reading it (optional lines).
  bool nextLineIs(const std::string& key);
  /// The next whole line, for lines whose first word is data (fingerprint entries).
  std::string raw(const std::string& what);
  /// The rest of the current line, without the blank after the key.
  std::string rest();
  /// The next value of the line: a word, an integer, an integer in [lo, hi], a real (NaN refused;
  /// infinities only where allowInfinity).
  std::string word();
  long integer();
  long integer(long lo, long hi);
  double real(bool allowInfinity = false);
  /// A length, then that many finite reals. The length is not trusted for sizing: the values must
  /// be there.
  std::vector<double> vector();
  /// Fails when the current line has more values.
  void endLine();
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string m_path;
  std::istringstream m_in;
  std::istringstream m_values;
  std::string m_key;
  int m_line = 0;
};

}  // namespace landscape
