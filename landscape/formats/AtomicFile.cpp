#include "landscape/formats/AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace landscape {

namespace {

// An open file descriptor, closed when it goes, whichever way.
class OpenFile {
 public:
  explicit OpenFile(int descriptor) : m_descriptor(descriptor) {}
  ~OpenFile() {
    if (m_descriptor >= 0) ::close(m_descriptor);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  int get() const { return m_descriptor; }

 private:
  int m_descriptor;
};

// fsync of an open file; file systems that cannot sync are accepted as they are.
void flushToDisk(const OpenFile& file, const std::string& prefix, const std::string& name) {
  const int status = ::fsync(file.get());
  const int error = errno;
  if (status != 0 && error != EINVAL && error != EROFS && error != ENOTSUP)
    throw std::runtime_error(prefix + "cannot flush '" + name +
                             "' to disk: " + std::strerror(error));
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& bytes,
                         const std::string& what) {
  const std::string temporary = path + ".tmp";
  const std::string prefix = what + " '" + path + "': ";
  try {
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) {
        throw std::runtime_error(prefix + "cannot create the temporary file '" + temporary +
                                 "': " + std::strerror(errno));
      }
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      out.close();
      if (!out) throw std::runtime_error(prefix + "cannot write '" + temporary + "'");
    }
    {
      const OpenFile file(::open(temporary.c_str(), O_RDONLY | O_CLOEXEC));
      if (file.get() < 0) {
        throw std::runtime_error(prefix + "cannot reopen '" + temporary +
                                 "' to flush it: " + std::strerror(errno));
      }
      flushToDisk(file, prefix, temporary);
    }
    std::error_code renameError;
    std::filesystem::rename(temporary, path, renameError);
    if (renameError) {
      throw std::runtime_error(prefix + "cannot rename '" + temporary +
                               "' to it: " + renameError.message());
    }
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
}

void appendToFileDurably(const std::string& path, const std::string& bytes,
                         const std::string& what) {
  const std::string prefix = what + " '" + path + "': ";
  const OpenFile file(::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
  if (file.get() < 0) throw std::runtime_error(prefix + "cannot open it: " + std::strerror(errno));
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(file.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;  // before the message's allocations
      throw std::runtime_error(prefix + "cannot append to it: " + std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  flushToDisk(file, prefix, path);
}

std::string readWholeFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(what + " '" + path + "': cannot open it");
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) throw std::runtime_error(what + " '" + path + "': read error");
  return contents.str();
}

}  // namespace landscape
