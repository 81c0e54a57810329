#include "src/common/OutputLock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "landscape/core/InputChecks.h"

namespace landscape {

OutputLock::OutputLock(const std::string& dir, const std::string& program) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw std::runtime_error("cannot create the output folder " + dir + ": " + error.message());
  const std::string path = dir + "/.lock";
  m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (m_fd < 0)
    throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
  if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    std::string holder;
    try {
      holder = readWholeFile(path, "lock file");
    } catch (const std::runtime_error&) {
    }
    while (!holder.empty() && holder.back() == '\n') holder.pop_back();
    ::close(m_fd);
    m_fd = -1;
    if (why != EWOULDBLOCK)
      throw std::runtime_error("cannot lock " + path + ": " + std::strerror(why));
    throw std::runtime_error(dir + " is in use by " +
                             (holder.empty() ? "another run" : printableInput(holder)) +
                             ": one run per output folder (wait for it, stop it, or choose "
                             "another --output)");
  }
  const std::string me = program + " (process " + std::to_string(::getpid()) + ")\n";
  if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, me.data(), me.size(), 0) < 0)
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

OutputLock::~OutputLock() {
  if (m_fd >= 0) ::close(m_fd);  // closing releases the lock; the file stays for the next run
}

void requireWritable(const std::string& path, const std::string& what) {
  const std::string probe = path + ".tmp";
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  const bool created = fd >= 0;
  // A temporary left by a killed run: writable is all that matters (the writers replace it).
  if (!created && errno == EEXIST) fd = ::open(probe.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot write " + what + " " + path + ": " + std::strerror(errno));
  ::close(fd);
  if (created) ::unlink(probe.c_str());
}

}  // namespace landscape
