#pragma once
// What every libFuzzer target of fuzz/ shares (docs/reliability.md, "Fuzzing").
//
// A target hands the fuzzer's bytes to one reader, either as a file (InputFile: one temporary file
// per process, rewritten for every input) or as a stream, and catches the exceptions that the
// reader documents. Everything else is a finding, reported by libFuzzer as a crash: a sanitizer
// report, a signal, an exception of another type (std::terminate), a hang (-timeout), an
// allocation beyond -malloc_limit_mb, and an error message that breaks the message rules checked
// here (one line, printable ASCII, short), which aborts.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <string_view>

#include "landscape/core/InputChecks.h"

namespace landscape::fuzz {

/// The longest message a reader may throw. Messages quote at most a few short excerpts of the
/// input (quoteInput cuts at 60 or 120 bytes) besides the file name and a sentence.
inline constexpr std::size_t kMaxMessageLength = 1500;

/// The memory limit the readers run under here (landscape/core/InputChecks.h): far below libFuzzer's
/// -malloc_limit_mb (2 GB by default), so that a count the reader fails to check shows up as an
/// out-of-memory finding, while one it checks is refused with a message.
inline constexpr std::uint64_t kReaderMemoryLimit = 256ull << 20;

/// Sets the reader memory limit once per process.
inline void setUp() {
  static const bool done = [] {
    setInputMemoryLimit(kReaderMemoryLimit);
    return true;
  }();
  (void)done;
}

/// Aborts (a finding) when message is not one line of printable ASCII of at most
/// kMaxMessageLength bytes: readers must never quote raw input bytes or whole lines.
inline void checkMessage(const char* what) {
  const std::string_view message(what);
  bool ok = !message.empty() && message.size() <= kMaxMessageLength;
  for (char c : message)
    ok = ok && static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
  if (!ok) {
    std::fprintf(stderr, "fuzz: bad error message (%zu bytes): %s\n", message.size(),
                 printableInput(message, 4000).c_str());
    std::abort();
  }
}

/// The input as a file: one temporary file per process, rewritten for every input.
class InputFile {
 public:
  explicit InputFile(const char* suffix = ".txt") {
    const char* dir = std::getenv("TMPDIR");
    m_path = std::string(dir && *dir ? dir : "/tmp") + "/landscape-fuzz-" +
             std::to_string(static_cast<long>(getpid())) + suffix;
  }
  ~InputFile() { std::remove(m_path.c_str()); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Writes the bytes and returns the path.
  const std::string& write(const std::uint8_t* data, std::size_t size) const {
    std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    if (!out) {
      std::fprintf(stderr, "fuzz: cannot write %s\n", m_path.c_str());
      std::abort();
    }
    return m_path;
  }
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

/// Runs body, catching the documented exception types Documented... and checking their messages.
template <class... Documented, class Body>
void expectOnly(Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    // Documented types pass through here; the check below rethrows anything else.
    bool documented = false;
    ((documented = documented || dynamic_cast<const Documented*>(&e) != nullptr), ...);
    if (!documented) {
      std::fprintf(stderr, "fuzz: undocumented exception type: %s\n",
                   printableInput(e.what(), 400).c_str());
      std::abort();
    }
    checkMessage(e.what());
    if (std::getenv("LANDSCAPE_FUZZ_VERBOSE")) std::fprintf(stderr, "fuzz: %s\n", e.what());
  }
}

}  // namespace landscape::fuzz
