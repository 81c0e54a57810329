#pragma once
// What every input reader shares (prmtop, inpcrd, PDB, coordinates, keyword and config files,
// checkpoints, databases): the number syntax, quoting input text in error messages, and the check
// that a count read from a file does not ask for more memory than the machine has.
//
// Readers reject non-finite and overflowing numbers, never quote raw bytes in a message (quoteInput
// escapes control and non-ASCII bytes and cuts long text), and call requireMemory before they
// allocate anything whose size comes from the input. docs/reliability.md describes the rules and
// the fuzz targets that check them (fuzz/).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace landscape {

/// A Fortran real: [sign] digits [. digits] [E|D [sign] digits] (at least one digit in the
/// mantissa; the exponent letter in either case). Returns nullopt for anything else, including
/// "nan", "inf" and hexadecimal floats; also nullopt when the value overflows to infinity.
std::optional<double> parseFortranReal(std::string_view token);

/// A Fortran integer: [sign] digits, within the range of long long. nullopt otherwise.
std::optional<long long> parseFortranInteger(std::string_view token);

/// The largest coordinate magnitude that a reader of a structure given by the user accepts (inpcrd,
/// PDB, xyz and GMIN coords, odata POINTS), in the file's length unit (Angstrom or reduced sigma):
/// far beyond any molecule or cluster, far below where squared distances lose every digit of a
/// bond length or overflow (1e154). A file beyond it is damaged, not a structure. The program's
/// own files read back (lowest, checkpoint, databases, PATHSAMPLE files) need only be finite, so
/// that whatever a run wrote round-trips bit for bit.
inline constexpr double kMaxInputCoordinate = 1e6;

/// Why parseFortranReal refused token, for a message: "'abc', which is not a number",
/// "non-finite number 'nan'" or "non-finite number '1e999' (overflow)" (token quoted by
/// quoteInput).
std::string describeBadReal(std::string_view token);

/// Input text made safe to show in a one-line message: printable ASCII stays, a tab, newline and
/// carriage return become \t \n \r, every other byte (control characters, DEL, bytes >= 0x80)
/// becomes \xNN. Text longer than maxLength bytes is cut there and "... (N bytes)" appended.
std::string printableInput(std::string_view text, std::size_t maxLength = 60);

/// "'" + printableInput(text, maxLength) + "'".
std::string quoteInput(std::string_view text, std::size_t maxLength = 60);

/// Throws std::runtime_error "<where>: expected printable text of at most maxLength characters,
/// found '<field, escaped>'" unless every byte of field is printable ASCII (0x20-0x7e) and there
/// are at most maxLength of them. For the fields of keyword files, which are numbers and words, so
/// that later messages may quote them as they are.
void requirePrintableField(const std::string& where, std::string_view field,
                           std::size_t maxLength = 256);

/// The most memory (bytes) that an input may make a program allocate: the machine's physical
/// memory unless setInputMemoryLimit chose another value. Never 0.
std::uint64_t inputMemoryLimit();

/// Sets the limit of requireMemory (bytes); 0 restores the default (physical memory). The fuzz
/// targets set a small limit, so that an absurd count is refused before the allocator sees it.
void setInputMemoryLimit(std::uint64_t bytes);

/// Throws std::runtime_error "<what> would need N GB (count x bytesEach bytes), more than the
/// memory limit of M GB" when count x bytesEach exceeds inputMemoryLimit(). The product is formed
/// in floating point, so an absurd count cannot overflow it.
void requireMemory(const std::string& what, double count, double bytesEach);

}  // namespace landscape
