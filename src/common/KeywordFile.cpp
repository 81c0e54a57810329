#include "src/common/KeywordFile.h"

#include <cctype>
#include <istream>
#include <sstream>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string expectedCount(const KeywordInfo& k) {
  if (k.maxFields == 0) return "no fields";
  const std::string count = k.minFields == k.maxFields ? plural(k.minFields, "field")
                                                       : std::to_string(k.minFields) + " to " +
                                                             plural(k.maxFields, "field");
  return "'" + k.fields + "' (" + count + ")";
}

}  // namespace

std::string keywordStatusName(KeywordStatus status) {
  switch (status) {
    case KeywordStatus::Implemented:
      return "implemented";
    case KeywordStatus::Ignored:
      return "ignored (warning)";
    case KeywordStatus::NotImplemented:
      return "error: not implemented";
    case KeywordStatus::Syntax:
      return "file syntax";
  }
  return "?";
}

std::pair<int, int> fieldCounts(const std::string& syntax) {
  int required = 0, all = 0, depth = 0;
  std::istringstream in(syntax);
  for (std::string word; in >> word;) {
    for (char c : word) depth += c == '[';
    ++all;
    if (depth == 0) ++required;
    for (char c : word) depth -= c == ']';
  }
  return {required, all};
}

std::string KeywordLine::where() const { return source + ":" + std::to_string(line); }

void KeywordLine::fail(const std::string& what) const {
  throw std::runtime_error(where() + ": " + what);
}

std::vector<std::string> splitKeywordFields(const std::string& text) {
  std::string line = text.substr(0, text.find_first_of("!#"));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> fields;
  std::string current;
  for (char c : line) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) fields.push_back(current), current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) fields.push_back(current);
  return fields;
}

void readKeywordFile(std::istream& in, const std::string& source, const KeywordFileFormat& format,
                     std::vector<std::string>& warnings) {
  std::string text;
  std::size_t lineNumber = 0;
  while (std::getline(in, text)) {
    ++lineNumber;
    KeywordLine line{source, lineNumber, "", splitKeywordFields(text)};
    if (line.fields.empty()) continue;
    for (const std::string& field : line.fields)  // messages quote fields as they are
      requirePrintableField(line.where(), field);
    line.keyword = upper(line.fields.front());
    line.fields.erase(line.fields.begin());
    const KeywordInfo* k = format.find(line.keyword);
    if (!k)
      line.fail("unknown " + format.program + " keyword '" + line.keyword + "' (" + format.docs +
                " lists the known ones)");
    if (k->status == KeywordStatus::Ignored) {
      warnings.push_back(line.where() + ": " + format.program + " keyword " + line.keyword +
                         " ignored (" + k->description + ")");
      continue;
    }
    if (k->status == KeywordStatus::NotImplemented)
      line.fail(format.program + " keyword " + line.keyword + " is not implemented (" +
                k->description + ")");
    if (k->status == KeywordStatus::Syntax && line.keyword == "STOP") break;
    if (k->status == KeywordStatus::Syntax && (line.keyword == "NOTE" || line.keyword == "COMMENT"))
      continue;
    const int count = static_cast<int>(line.fields.size());
    if (k->status == KeywordStatus::Implemented && (count < k->minFields || count > k->maxFields))
      line.fail(line.keyword + " expects " + expectedCount(*k) + ", found " +
                plural(count, "field"));
    if (!format.apply(line, in, lineNumber)) break;
  }
  if (in.bad()) throw std::runtime_error(source + ": read error");
}

std::string markdownCell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out.push_back(c);
  }
  return out;
}

std::string keywordTableMarkdown(const std::vector<KeywordInfo>& keywords) {
  std::ostringstream md;
  md << "| Keyword | Fields | Status | Meaning (-> landscape field) |\n"
        "|---|---|---|---|\n";
  for (const auto& k : keywords) {
    md << "| `" << k.keyword << "` | "
       << (k.fields.empty() ? "" : "`" + markdownCell(k.fields) + "`") << " | "
       << keywordStatusName(k.status) << " | " << markdownCell(k.description) << " |\n";
  }
  return md.str();
}

}  // namespace landscape
