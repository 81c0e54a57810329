#pragma once
// Plain values and vectors as bytes, for the messages between the processes of one run (the
// ranks of src/common/Communicator.h, the walker processes of landscape/search/WalkerPeers.h):
// every process runs the same build, so a value travels as its own bytes and arrives bit for bit.
// ByteReader checks every read against the message's end and names the message when it is short.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace landscape {

class ByteWriter {
 public:
  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "only plain values travel as bytes");
    const char* bytes = reinterpret_cast<const char*>(&value);
    m_bytes.insert(m_bytes.end(), bytes, bytes + sizeof value);
  }
  /// The element count, then the elements.
  template <typename T>
  void putVector(const std::vector<T>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    putArray(values.data(), values.size());
  }
  template <typename T>
  void putArray(const T* values, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>, "only plain values travel as bytes");
    const char* bytes = reinterpret_cast<const char*>(values);
    m_bytes.insert(m_bytes.end(), bytes, bytes + count * sizeof(T));
  }
  const std::vector<char>& bytes() const { return m_bytes; }

 private:
  std::vector<char> m_bytes;
};

class ByteReader {
 public:
  /// `what` names the message in errors ("rank 2's connect results").
  ByteReader(const std::vector<char>& bytes, std::string what)
      : m_bytes(bytes), m_what(std::move(what)) {}

  template <typename T>
  T get() {
    T value;
    getArray(&value, 1);
    return value;
  }
  template <typename T>
  std::vector<T> getVector() {
    const auto count = get<std::uint64_t>();
    if (count > (m_bytes.size() - m_at) / sizeof(T)) short_();
    std::vector<T> values(static_cast<std::size_t>(count));
    getArray(values.data(), values.size());
    return values;
  }
  template <typename T>
  void getArray(T* values, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>, "only plain values travel as bytes");
    if (count > (m_bytes.size() - m_at) / sizeof(T)) short_();
    if (count == 0) return;  // an empty vector's data() may be null: memcpy must not see it
    std::memcpy(values, m_bytes.data() + m_at, count * sizeof(T));
    m_at += count * sizeof(T);
  }
  /// A count of records that take at least `bytesEach` bytes each (checked against the rest of
  /// the message, so that a bad count cannot size a huge allocation).
  std::size_t getCount(std::size_t bytesEach) {
    const auto count = get<std::uint64_t>();
    if (bytesEach > 0 && count > (m_bytes.size() - m_at) / bytesEach) short_();
    return static_cast<std::size_t>(count);
  }
  bool done() const { return m_at == m_bytes.size(); }

 private:
  [[noreturn]] void short_() const {
    throw std::runtime_error(m_what + ": message ends early (" + std::to_string(m_bytes.size()) +
                             " bytes)");
  }
  const std::vector<char>& m_bytes;
  std::string m_what;
  std::size_t m_at = 0;
};

}  // namespace landscape
