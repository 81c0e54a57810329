#include "src/common/OptionList.h"

#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/core/InputChecks.h"

#ifndef LANDSCAPE_VERSION
#define LANDSCAPE_VERSION "unknown"
#endif

namespace po = boost::program_options;

namespace landscape {

namespace {

constexpr std::size_t kHelpIndent = 32;
constexpr std::size_t kHelpWidth = 100;

// Words on the command line that belong to no option are collected under this name.
constexpr const char* kPositional = "positional-argument";

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

// Boost.Program_options replaces %value% (and its other %name% tokens) in its messages until none
// is left, so an argument holding "%value%" never ends (fuzz_sop_config): such arguments are
// refused before Boost sees them.
void refuseBoostPlaceholders(const std::vector<std::string>& arguments) {
  for (const std::string& text : arguments) {
    for (std::size_t p = text.find('%'); p != std::string::npos; p = text.find('%', p + 1)) {
      std::size_t q = p + 1;
      while (q < text.size() && (std::islower(static_cast<unsigned char>(text[q])) || text[q] == '_'))
        ++q;
      if (q < text.size() && text[q] == '%')
        throw std::runtime_error("command line: '%name%' is not allowed in options or values, found " +
                                 quoteInput(text));
    }
  }
}

// Word-wraps a description into the column right of the option names; `tail` (the default) is
// never split.
std::string wrap(const std::string& text, const std::string& tail) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  if (!tail.empty()) words.push_back(tail);
  std::string out;
  std::size_t column = kHelpIndent;
  for (const auto& word : words) {
    if (column > kHelpIndent && column + 1 + word.size() > kHelpWidth) {
      out += "\n" + std::string(kHelpIndent, ' ');
      column = kHelpIndent;
    } else if (column > kHelpIndent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

// "  --help, -h" or "  --lbfgs-m, --m M"
std::string usageLine(const OptionInfo& o) {
  std::string left = o.positional ? "  " + o.valueName : "  --" + o.name;
  if (o.shortName) left += std::string(", -") + o.shortName;
  for (const auto& alias : o.aliases) left += ", --" + alias;
  return o.positional ? left : left + o.usageValue();
}

}  // namespace

std::string OptionInfo::usageValue() const {
  if (!takesValue()) return "";
  const std::string v = valueName.empty() ? rule.valueName() : valueName;
  return v.empty() ? "" : " " + v;
}

std::string OptionInfo::fullDescription() const {
  std::string text = description;
  // A range bounded on both sides is worth saying; one-sided bounds go without saying.
  if (std::isfinite(rule.min) && std::isfinite(rule.max)) text += ", " + rule.bounds();
  if (!unit.empty()) text += " (" + unit + ")";
  if (!keywords.empty()) {
    text += " [";
    for (std::size_t i = 0; i < keywords.size(); ++i) text += (i ? ", " : "") + keywords[i];
    text += "]";
  }
  return text;
}

const GivenOption* GivenOptions::find(const std::string& name) const {
  for (const auto& o : m_options)
    if (o.name == name) return &o;
  return nullptr;
}

const std::string& GivenOptions::value(const std::string& name) const { return find(name)->value; }

const std::string& GivenOptions::origin(const std::string& name) const {
  return find(name)->origin;
}

void GivenOptions::remove(const std::string& name) {
  for (auto it = m_options.begin(); it != m_options.end(); ++it)
    if (it->name == name) {
      m_options.erase(it);
      return;
    }
}

const OptionInfo* OptionList::find(const std::string& name) const {
  for (const auto& o : m_options) {
    if (o.name == name) return &o;
    for (const auto& alias : o.aliases)
      if (alias == name) return &o;
  }
  return nullptr;
}

const KeywordInfo* OptionList::findKeyword(const std::string& keyword) const {
  for (const auto& k : m_keywords)
    if (k.keyword == keyword) return &k;
  return nullptr;
}

std::vector<std::string> OptionList::names() const {
  std::vector<std::string> out;
  for (const auto& o : m_options)
    if (!o.positional) out.push_back(o.name);
  return out;
}

std::string OptionList::version() const {
  return m_program + " (landscape " LANDSCAPE_VERSION ")\n";
}

GivenOptions OptionList::readCommandLine(const std::vector<std::string>& arguments) const {
  po::options_description desc;
  for (const OptionInfo& o : m_options) {
    if (o.positional) continue;
    std::vector<std::string> spellings = o.aliases;
    spellings.insert(spellings.begin(), o.shortName ? o.name + "," + o.shortName : o.name);
    for (const auto& s : spellings) {
      if (o.takesValue())
        desc.add_options()(s.c_str(), po::value<std::string>(), "");
      else
        desc.add_options()(s.c_str(), po::value<std::string>()->zero_tokens(), "");
    }
  }
  desc.add_options()(kPositional, po::value<std::vector<std::string>>(), "");
  po::positional_options_description positional;
  positional.add(kPositional, -1);

  // Boost reads "-173.9" after "--target" as an option; join such numbers to their option.
  std::vector<std::string> args;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    const OptionInfo* o = a.rfind("--", 0) == 0 ? find(a.substr(2)) : nullptr;
    if (o && o->takesValue() && i + 1 < arguments.size() && arguments[i + 1].rfind('-', 0) == 0 &&
        parseFortranReal(arguments[i + 1])) {
      args.push_back(a + "=" + arguments[++i]);
    } else {
      args.push_back(a);
    }
  }

  refuseBoostPlaceholders(args);
  po::parsed_options parsed(&desc);
  try {
    const auto style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    parsed = po::command_line_parser(args).options(desc).positional(positional).style(style).run();
  } catch (const po::unknown_option& e) {
    throw std::runtime_error("command line: unknown option " + quote(e.get_option_name()) + " (" +
                             m_program + " --help lists the options)");
  } catch (const po::error& e) {
    // Boost quotes the option or value as given, raw bytes included.
    throw std::runtime_error("command line: " + printableInput(e.what(), 300));
  }
  GivenOptions given;
  for (const auto& option : parsed.options) {
    if (option.string_key == kPositional) {
      given.positionals.insert(given.positionals.end(), option.value.begin(), option.value.end());
      continue;
    }
    const OptionInfo* o = find(option.string_key);
    if (given.has(o->name))
      throw std::runtime_error("command line: option '--" + o->name +
                               "' cannot be specified more than once");
    given.add({o->name, option.value.empty() ? "true" : option.value.front(),
               "command line: --" + option.string_key});
  }
  bool takesPositionals = false;
  for (const auto& o : m_options) takesPositionals = takesPositionals || o.positional;
  if (!takesPositionals && !given.positionals.empty())
    throw std::runtime_error("command line: unexpected argument " +
                             quote(given.positionals.front()) + " (options start with --)");
  return given;
}

void OptionList::readConfigFile(const std::string& path, GivenOptions& given) const {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open config file");
  std::map<std::string, std::size_t> seenOnLine;
  std::string text;
  std::size_t lineNumber = 0;
  while (std::getline(in, text)) {
    ++lineNumber;
    const std::string where = path + ":" + std::to_string(lineNumber) + ": ";
    const std::string line = trim(text.substr(0, text.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[')
      throw std::runtime_error(where + "sections are not supported, found " + quote(line));
    const auto eq = line.find('=');
    const std::string key = trim(line.substr(0, eq));
    const std::string value = eq == std::string::npos ? "" : trim(line.substr(eq + 1));
    if (eq == std::string::npos || key.empty())
      throw std::runtime_error(where + "expected 'key = value', found " + quote(line));
    const OptionInfo* o = find(key);
    if (!o || o->commandLineOnly || o->positional)
      throw std::runtime_error(
          where + "unknown option " + quote(key) +
          (o ? " (command line only)" : " (" + m_program + " --help lists the options)"));
    if (auto it = seenOnLine.find(o->name); it != seenOnLine.end())
      throw std::runtime_error(where + quote(key) + " is already set on line " +
                               std::to_string(it->second));
    seenOnLine[o->name] = lineNumber;
    if (o->takesValue() && value.empty())
      throw std::runtime_error(where + key + ": expected a value after '='");
    if (given.has(o->name)) continue;  // the command line wins
    given.add({o->name, value.empty() ? "true" : value, where + key});
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
}

std::string OptionList::helpText(const std::vector<std::string>& defaults) const {
  std::ostringstream out;
  out << about;
  std::string section;
  for (std::size_t i = 0; i < m_options.size(); ++i) {
    const OptionInfo& o = m_options[i];
    if (section != o.section || i == 0) {
      section = o.section;
      out << "\n" << (section.empty() ? "Options" : section) << ":\n";
    }
    const std::string left = usageLine(o);
    out << left;
    if (left.size() < kHelpIndent)
      out << std::string(kHelpIndent - left.size(), ' ');
    else
      out << "\n" << std::string(kHelpIndent, ' ');
    const std::string tail = defaults[i].empty() ? "" : "(default: " + defaults[i] + ")";
    out << wrap(o.fullDescription(), tail) << "\n";
  }
  return out.str();
}

std::string OptionList::optionsMarkdown(const std::vector<std::string>& defaults) const {
  const bool keywordColumn = !m_keywords.empty();
  std::ostringstream md;
  std::string section;
  for (std::size_t i = 0; i < m_options.size(); ++i) {
    const OptionInfo& o = m_options[i];
    if (section != o.section || i == 0) {
      section = o.section;
      md << "\n### " << (section.empty() ? "Options" : section) << "\n\n"
         << "| Option | Unit | Default | Range | " << (keywordColumn ? "Keyword | " : "")
         << "Meaning |\n|---|---|---|---|---|" << (keywordColumn ? "---|" : "") << "\n";
    }
    std::string keywords;
    for (const auto& k : o.keywords) keywords += (keywords.empty() ? "`" : ", `") + k + "`";
    md << "| `" << markdownCell(trim(usageLine(o))) << "` | " << markdownCell(o.unit) << " | "
       << markdownCell(defaults[i]) << " | " << markdownCell(o.rule.bounds()) << " | "
       << (keywordColumn ? keywords + " | " : "") << markdownCell(o.description) << " |\n";
  }
  return md.str();
}

}  // namespace landscape
