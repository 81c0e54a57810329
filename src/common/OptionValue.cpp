#include "src/common/OptionValue.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

std::string number(double v) {
  if (std::abs(v) < 1e15 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
  return shortText(v);
}

bool hasMin(const ValueRule& r) { return std::isfinite(r.min); }
bool hasMax(const ValueRule& r) { return std::isfinite(r.max); }

std::string lowerBound(const ValueRule& r) { return (r.minOpen ? "> " : ">= ") + number(r.min); }
std::string upperBound(const ValueRule& r) { return (r.maxOpen ? "< " : "<= ") + number(r.max); }

std::string interval(const ValueRule& r) {
  return std::string(r.minOpen ? "(" : "[") + number(r.min) + ", " + number(r.max) +
         (r.maxOpen ? ")" : "]");
}

// "a, b or c"
std::string alternatives(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

// The value's kind in a sentence: "a number", "an integer".
std::string kindPhrase(const ValueRule& r) {
  // A set of allowed values names them ("1, 2, 4, 7 or 8"), so that a keyword's message says
  // what it takes rather than "an integer" for an integer outside the set.
  if (!r.allowed.empty()) return r.expected();
  switch (r.kind) {
    case ValueKind::Integer:
      return "an integer";
    case ValueKind::Real:
      return "a number";
    case ValueKind::Switch:
    case ValueKind::YesNo:
      return "yes or no";
    default:
      return r.expected();
  }
}

// The bound `v` breaks, or "" when it keeps them all. A two-sided range adds the whole range.
std::string brokenBound(const ValueRule& r, double v) {
  std::string broken;
  if (hasMin(r) && (r.minOpen ? v <= r.min : v < r.min)) broken = lowerBound(r);
  if (hasMax(r) && (r.maxOpen ? v >= r.max : v > r.max)) broken = upperBound(r);
  if (!broken.empty() && hasMin(r) && hasMax(r)) broken += " (in " + interval(r) + ")";
  return broken;
}

}  // namespace

std::string ValueRule::bounds() const {
  if (!allowed.empty()) {
    std::vector<std::string> items;
    for (long long v : allowed) items.push_back(std::to_string(v));
    return alternatives(items);
  }
  if (hasMin(*this) && hasMax(*this)) return "in " + interval(*this);
  if (hasMin(*this)) return lowerBound(*this);
  if (hasMax(*this)) return upperBound(*this);
  return "";
}

std::string ValueRule::expected() const {
  switch (kind) {
    case ValueKind::Integer:
    case ValueKind::Real: {
      if (!allowed.empty()) return bounds();
      const std::string b = bounds();
      return (kind == ValueKind::Integer ? "an integer" : "a number") + (b.empty() ? "" : " " + b);
    }
    case ValueKind::Switch:
    case ValueKind::YesNo:
      return "yes or no";
    case ValueKind::Choice: {
      std::vector<std::string> names;
      for (const auto& c : choices) names.push_back(c.first);
      return alternatives(names);
    }
    case ValueKind::File:
      return "a file name";
    case ValueKind::Text:
      return textName.empty() ? "a text" : textName;
  }
  return "";
}

std::string ValueRule::valueName() const {
  if (kind == ValueKind::YesNo) return "yes|no";
  std::string out;
  if (kind == ValueKind::Choice)
    for (const auto& c : choices) out += (out.empty() ? "" : "|") + c.first;
  for (long long v : allowed) out += (out.empty() ? "" : "|") + std::to_string(v);
  return out;
}

std::string ValueRule::choiceName(long long value) const {
  for (const auto& c : choices)
    if (c.second == value) return c.first;
  return std::to_string(value);
}

ValueError::ValueError(const ValueRule& rule, std::string found, std::string condition)
    : std::invalid_argument(rule.expected() + ", found " + quote(found)),
      m_expected(rule.expected()),
      m_kind(kindPhrase(rule)),
      m_keywordKind(rule.kind == ValueKind::YesNo || rule.kind == ValueKind::Switch
                        ? "a logical (T or F)"
                        : m_kind),
      m_condition(std::move(condition)),
      m_found(std::move(found)) {}

ValueError::ValueError(std::string sentence)
    : std::invalid_argument(sentence), m_sentence(std::move(sentence)) {}

std::string ValueError::optionMessage() const {
  if (!m_sentence.empty()) return m_sentence;
  const std::string found = m_found.empty() ? "nothing" : quote(m_found);
  if (m_condition.empty()) return "expected " + m_expected + ", found " + found;
  return "expected " + m_kind + " " + m_condition + ", found " + found;
}

std::string ValueError::keywordMessage(const std::string& keyword, const std::string& what) const {
  if (!m_sentence.empty()) return keyword + " " + what + ": " + m_sentence;
  if (m_condition.empty())
    return keyword + " expects " + m_keywordKind + " for " + what + ", found " + quote(m_found);
  return keyword + " expects " + what + " " + m_condition + ", found " + m_found;
}

bool parseYesNo(const std::string& text) {
  std::string s = text;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* yes : {"yes", "true", "on", "1", "t", ".true.", ".t."})
    if (s == yes) return true;
  for (const char* no : {"no", "false", "off", "0", "f", ".false.", ".f."})
    if (s == no) return false;
  ValueRule rule;
  rule.kind = ValueKind::YesNo;
  throw ValueError(rule, text);
}

// An integer, or a real that is one exactly (GMIN's own inputs write STEPS 1.D5: GMIN reads
// such counts as reals and truncates; here only exact integers below 2^53 pass).
namespace {
std::optional<long long> parseIntegerValue(const std::string& text) {
  if (const auto v = parseFortranInteger(text)) return v;
  const auto real = parseFortranReal(text);
  if (!real || std::fabs(*real) > 9007199254740992.0 || *real != std::floor(*real))
    return std::nullopt;
  return static_cast<long long>(*real);
}
}  // namespace

long long parseInteger(const std::string& text, const ValueRule& rule, long long typeMin,
                       long long typeMax) {
  const auto v = parseIntegerValue(text);
  if (!v) throw ValueError(rule, text);
  if (!rule.allowed.empty()) {
    bool allowed = false;
    for (long long a : rule.allowed) allowed = allowed || *v == a;
    if (!allowed) throw ValueError(rule, text);  // "expected 1, 2 or 5, found 3"
  }
  const std::string broken = brokenBound(rule, static_cast<double>(*v));
  if (!broken.empty()) throw ValueError(rule, text, broken);
  if (*v < typeMin || *v > typeMax) throw ValueError(rule, text);
  return *v;
}

double parseReal(const std::string& text, const ValueRule& rule) {
  const auto v = parseFortranReal(text);
  if (!v) throw ValueError(rule, text);
  const std::string broken = brokenBound(rule, *v);
  if (!broken.empty()) throw ValueError(rule, text, broken);
  return *v;
}

std::string parseText(const std::string& text, const ValueRule& rule) {
  if (rule.kind == ValueKind::Choice) parseChoice(text, rule);  // a name held as text
  if (rule.kind == ValueKind::File) {
    std::error_code ec;
    if (text.empty()) throw ValueError("expected a file name, found nothing");
    if (!std::filesystem::exists(text, ec)) throw ValueError("no such file " + quote(text));
    if (!std::filesystem::is_regular_file(text, ec))
      throw ValueError(quote(text) + " is not a regular file");
  }
  if (text.empty() && !rule.textName.empty()) throw ValueError(rule, text);
  return text;
}

long long parseChoice(const std::string& text, const ValueRule& rule) {
  for (const auto& c : rule.choices)
    if (c.first == text) return c.second;
  throw ValueError(rule, text);
}

void checkValue(const std::string& text, const ValueRule& rule) {
  switch (rule.kind) {
    case ValueKind::Switch:
    case ValueKind::YesNo:
      parseYesNo(text);
      break;
    case ValueKind::Integer:
      parseInteger(text, rule);
      break;
    case ValueKind::Real:
      parseReal(text, rule);
      break;
    case ValueKind::Choice:
      parseChoice(text, rule);
      break;
    case ValueKind::Text:
    case ValueKind::File:
      parseText(text, rule);
      break;
  }
}

ValueRule integerRule(double min) {
  ValueRule r;
  r.kind = ValueKind::Integer;
  r.min = min;
  return r;
}

ValueRule realRule(double min, bool open) {
  ValueRule r;
  r.kind = ValueKind::Real;
  r.min = min;
  r.minOpen = open;
  return r;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

std::string shortText(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string exactText(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

// Escapes raw bytes and shortens long input, so that messages never echo binary garbage.
std::string quote(const std::string& text) { return quoteInput(text, 200); }

}  // namespace landscape
