#pragma once
// The keyword files of GMIN (`data`) and OPTIM (`odata`), as their programs read them: one keyword
// per line followed by free-format fields separated by blanks, tabs or commas; keywords are
// case-insensitive; '!' or '#' starts a comment that runs to the end of the line; NOTE and COMMENT
// lines are comments too; STOP ends the file; reals may use Fortran D exponents (1.0D-4). This is
// the reader both share: tokenizing, the keyword statuses, field counts and "FILE:LINE: " errors.
// What an implemented keyword does is the option table's business (OptionTable.h).
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace landscape {

/// What the reader does with a keyword.
enum class KeywordStatus {
  Implemented,     ///< sets fields of the run's configuration
  Ignored,         ///< accepted with a warning (output and diagnostics only)
  NotImplemented,  ///< a keyword that would change the run; reading it is an error
  Syntax           ///< NOTE, COMMENT, STOP, POINTS: structure of the file itself
};

/// "implemented", "ignored (warning)", "error: not implemented" or "file syntax".
std::string keywordStatusName(KeywordStatus status);

/// One keyword as documented: a row of docs/gmin-keywords.md or docs/optim-keywords.md.
struct KeywordInfo {
  std::string keyword;  ///< upper case, as GMIN or OPTIM spells it
  KeywordStatus status;
  std::string fields;       ///< field syntax, e.g. "n [n2]"; fields in brackets are optional
  std::string description;  ///< one line: the program's meaning and what it sets
  int minFields = 0;        ///< from `fields`; checked for implemented keywords
  int maxFields = 0;
};

/// Field counts of a syntax such as "nevs [nbfgs1 [nbfgs2]]": {1, 3}.
std::pair<int, int> fieldCounts(const std::string& syntax);

/// One keyword line, split into fields.
struct KeywordLine {
  std::string source;  ///< the file, for messages
  std::size_t line = 0;
  std::string keyword;              ///< upper case
  std::vector<std::string> fields;  ///< after the keyword

  std::string where() const;  ///< "source:line"
  /// Throws std::runtime_error "source:line: what".
  [[noreturn]] void fail(const std::string& what) const;
};

/// Fields of a line as GMIN's and OPTIM's INPUT split them: blanks, tabs and commas separate,
/// '!' and '#' start a comment.
std::vector<std::string> splitKeywordFields(const std::string& text);

/// How one program's keyword files are read.
struct KeywordFileFormat {
  std::string program;  ///< "GMIN" or "OPTIM", for messages
  std::string docs;     ///< where the keywords are listed, e.g. "docs/gmin-keywords.md"
  std::function<const KeywordInfo*(const std::string& keyword)> find;
  /// An implemented keyword with an accepted field count, or a Syntax keyword other than NOTE,
  /// COMMENT and STOP (POINTS), which may read on from `in`; returns false to stop reading.
  std::function<bool(const KeywordLine& line, std::istream& in, std::size_t& lineNumber)> apply;
};

/// Reads every line of `in`. Ignored keywords add "source:line: PROGRAM keyword K ignored (...)"
/// to `warnings`; unknown and not-implemented keywords and wrong field counts throw
/// std::runtime_error naming source, line and keyword.
void readKeywordFile(std::istream& in, const std::string& source, const KeywordFileFormat& format,
                     std::vector<std::string>& warnings);

/// The Markdown table of `keywords` (Keyword, Fields, Status, Meaning), in their order.
std::string keywordTableMarkdown(const std::vector<KeywordInfo>& keywords);

/// A Markdown table cell: '|' escaped.
std::string markdownCell(const std::string& text);

}  // namespace landscape
