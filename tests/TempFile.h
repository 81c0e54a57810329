#pragma once
// A uniquely named temporary file with given contents, removed when the object goes out of scope.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace landscape {

class TempFile {
 public:
  explicit TempFile(const std::string& contents, const std::string& suffix = ".txt") {
    static std::atomic<unsigned> counter{0};
    std::random_device device;
    m_path = (std::filesystem::temp_directory_path() /
              ("landscape-test-" + std::to_string(device()) + "-" + std::to_string(counter++) +
               suffix))
                 .string();
    std::ofstream(m_path, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(m_path, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

}  // namespace landscape
