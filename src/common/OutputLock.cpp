#include "src/common/OutputLock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

std::string hostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

// Takes an exclusive flock on `lockPath` for `program` and writes the holder into it; returns the
// descriptor. When another process holds it, throws `subject` + " is in use by HOLDER: " + advice.
int lockExclusively(const std::string& lockPath, const std::string& program,
                    const std::string& subject, const std::string& advice) {
  const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + lockPath + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    std::string holder;
    try {
      holder = readWholeFile(lockPath, "lock file");
    } catch (const std::runtime_error&) {
    }
    while (!holder.empty() && holder.back() == '\n') holder.pop_back();
    ::close(fd);
    if (why != EWOULDBLOCK)
      throw std::runtime_error("cannot lock " + lockPath + ": " + std::strerror(why));
    throw std::runtime_error(subject + " is in use by " +
                             (holder.empty() ? "another run" : printableInput(holder)) + ": " +
                             advice);
  }
  const std::string me = program + " (process " + std::to_string(::getpid()) + " on host " +
                         hostName() + ")\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) < 0) {
    const int why = errno;
    ::close(fd);
    throw std::runtime_error("cannot write " + lockPath + ": " + std::strerror(why));
  }
  return fd;
}

}  // namespace

OutputLock::OutputLock(const std::string& dir, const std::string& program) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw std::runtime_error("cannot create the output folder " + dir + ": " + error.message());
  m_fd = lockExclusively(dir + "/.lock", program, dir,
                         "one run per output folder (wait for it, stop it, or choose another "
                         "--output)");
}

OutputLock::~OutputLock() {
  if (m_fd >= 0) ::close(m_fd);  // closing releases the lock; the file stays for the next run
}

std::string DatabaseLock::lockFileOf(const std::string& databasePath) {
  // Beside the file itself, however it is named (a symbolic link, another relative path).
  std::error_code error;
  std::filesystem::path path = std::filesystem::weakly_canonical(databasePath, error);
  if (error) path = databasePath;
  return (path.parent_path() / ("." + path.filename().string() + ".lock")).string();
}

DatabaseLock::DatabaseLock(const std::string& databasePath, const std::string& program) {
  m_fd = lockExclusively(lockFileOf(databasePath), program, "database " + databasePath,
                         "one writer per database (wait for it, stop it, or write another file)");
}

DatabaseLock::~DatabaseLock() {
  if (m_fd >= 0) ::close(m_fd);
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
