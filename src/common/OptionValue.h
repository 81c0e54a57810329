#pragma once
// The value of one option: what it may hold (a ValueRule: kind and bounds) and the one place where
// text becomes a checked value. The command line, --config files and GMIN/OPTIM keyword files all
// parse through here, so a value is validated once, by its rule, wherever it is written. A bad
// value throws ValueError; the caller says where (the option, or the file, line and keyword).
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace landscape {

enum class ValueKind {
  Switch,   ///< no value on the command line (--quiet); yes/no in files
  YesNo,    ///< yes|no; also true/false, on/off, 1/0 and Fortran's T/F, .TRUE./.FALSE.
  Integer,  ///< a Fortran integer
  Real,     ///< a finite Fortran real (5.0D-3 or 5.0e-3)
  Text,     ///< any text; not empty when the rule names what it is ("a directory name")
  File,     ///< the name of an existing regular file
  Choice,   ///< one of a list of names
};

/// Kind and bounds of a value. Numbers: a lower and an upper bound, each open or closed, or a list
/// of allowed integers. Choices: names with the integer (an enum's value) that each stands for.
struct ValueRule {
  ValueKind kind = ValueKind::Text;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool minOpen = false, maxOpen = false;
  std::vector<long long> allowed;                          ///< integers: only these (igb 1|2|5)
  std::vector<std::pair<std::string, long long>> choices;  ///< Choice: name -> value
  std::string textName;  ///< Text: "a directory name" (then it may not be empty)
  bool list = false;     ///< comma-separated values of the kind (--sizes 1000,10000)

  /// What a value must be: "a number > 0", "an integer in [2, 100]", "yes or no", "cpu or cuda".
  std::string expected() const;
  /// The bounds alone, for tables: "> 0", "in (0, 1)", "1, 2 or 5"; empty when unbounded.
  std::string bounds() const;
  /// The word for the value in usage lines where the option gives none: "cpu|cuda", "yes|no".
  std::string valueName() const;
  /// The name of a choice value, or the number as text when no choice has it.
  std::string choiceName(long long value) const;
};

/// A value that does not satisfy its rule. Carries the pieces, not the place: optionMessage() and
/// keywordMessage() put them into the words of a command line or of a keyword file.
class ValueError : public std::invalid_argument {
 public:
  /// `condition`: the bound the value broke ("> 0"); empty when the text did not even parse.
  ValueError(const ValueRule& rule, std::string found, std::string condition = "");
  /// A sentence of its own ("no such file 'x'"), used as it is in both kinds of message.
  explicit ValueError(std::string sentence);

  /// "expected a number > 0, found '-1'" (after "command line: --temperature: ").
  std::string optionMessage() const;
  /// "TEMPERATURE expects kT > 0, found -1" or "SAVE expects an integer for the number of
  /// minima, found '2.5'".
  std::string keywordMessage(const std::string& keyword, const std::string& what) const;

 private:
  std::string m_expected, m_kind, m_keywordKind, m_condition, m_found, m_sentence;
};

bool parseYesNo(const std::string& text);
/// Within the rule and within [typeMin, typeMax] (the range of the field it lands in).
long long parseInteger(const std::string& text, const ValueRule& rule,
                       long long typeMin = std::numeric_limits<long long>::min(),
                       long long typeMax = std::numeric_limits<long long>::max());
double parseReal(const std::string& text, const ValueRule& rule);
std::string parseText(const std::string& text, const ValueRule& rule);  ///< Text, File, Choice
long long parseChoice(const std::string& text, const ValueRule& rule);
/// Throws ValueError unless `text` satisfies `rule` (any kind).
void checkValue(const std::string& text, const ValueRule& rule);

/// Rules of keyword fields that no option has: integers >= min, reals >= min (> min if open).
ValueRule integerRule(double min = -std::numeric_limits<double>::infinity());
ValueRule realRule(double min = -std::numeric_limits<double>::infinity(), bool open = false);

/// Splits "a,b,c" at the commas.
std::vector<std::string> splitList(const std::string& text);
/// A real as people read it (0.005, 1e-06): the default shown in --help.
std::string shortText(double value);
/// A real with every bit (%.17g): equal text means equal values (checkpoint fingerprints).
std::string exactText(double value);
std::string quote(const std::string& text);

}  // namespace landscape
