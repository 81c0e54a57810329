#pragma once
// A program's options as text, before they meet a configuration struct: their descriptions
// (name, unit, value rule, keyword spellings, default), the sources that give them values (the
// command line, through Boost.Program_options, and `key = value` config files) and what is written
// from them (--help and the Markdown tables of docs/). OptionTable<Config> (OptionTable.h) adds
// the fields each option lands in; this part needs no Config and lives in OptionList.cpp.
#include <optional>
#include <string>
#include <vector>

#include "src/common/KeywordFile.h"
#include "src/common/OptionValue.h"

namespace landscape {

/// Everything about an option except the field it lands in.
struct OptionInfo {
  std::string name;  ///< long name, without "--"
  std::vector<std::string> aliases;
  char shortName = 0;  ///< 'h' for -h
  std::string section;
  std::string valueName;  ///< "N", "FILE"; empty: from the rule ("cpu|cuda") or none (a switch)
  std::string description;
  std::string unit;  ///< "epsilon", "kcal/mol", "ps", "degrees"; empty for none
  ValueRule rule;
  bool commandLineOnly = false;            ///< not allowed in --config files
  bool positional = false;                 ///< given without "--name" (tools' DATABASE)
  double scale = 1.0;                      ///< the field holds value x scale (degrees -> radians)
  bool inverted = false;                   ///< yes/no whose field holds the opposite (--no-centre)
  std::optional<std::string> defaultText;  ///< shown instead of the field's value; "" for none
  std::vector<std::string> keywords;       ///< "STEP 1st", "CENTRE": keyword-file spellings
  bool inCheckpoint = true;                ///< gmin --resume must run with the same value
  std::string formerCheckpointKey;         ///< its key in checkpoints of earlier versions

  bool takesValue() const { return rule.kind != ValueKind::Switch; }
  std::string usageValue() const;  ///< " N", " cpu|cuda"; empty for a switch
  /// The description with its unit and keywords: "Metropolis temperature kT (epsilon)
  /// [TEMPERATURE]".
  std::string fullDescription() const;
};

/// One option's value as given on the command line or in a --config file.
struct GivenOption {
  std::string name;    ///< the option's long name (an alias is resolved)
  std::string value;   ///< as written; "true" for a switch
  std::string origin;  ///< for messages: "command line: --steps" or "run.cfg:4: steps"
};

/// The options given, each once.
class GivenOptions {
 public:
  const GivenOption* find(const std::string& name) const;
  bool has(const std::string& name) const { return find(name) != nullptr; }
  /// The value and origin of an option that has been given.
  const std::string& value(const std::string& name) const;
  const std::string& origin(const std::string& name) const;
  void add(GivenOption option) { m_options.push_back(std::move(option)); }
  void remove(const std::string& name);
  std::vector<std::string> positionals;  ///< the words that are no option, in order

 private:
  std::vector<GivenOption> m_options;
};

class OptionList {
 public:
  explicit OptionList(std::string program) : m_program(std::move(program)) {}

  const std::string& program() const { return m_program; }
  const std::vector<OptionInfo>& options() const { return m_options; }
  const std::vector<KeywordInfo>& keywords() const { return m_keywords; }
  /// The option named `name` or one of its aliases; nullptr when there is none.
  const OptionInfo* find(const std::string& name) const;
  const KeywordInfo* findKeyword(const std::string& keyword) const;
  /// Long names in the order of --help.
  std::vector<std::string> names() const;

  /// Text above the options in --help, and the program's line for --version.
  std::string about;
  std::string version() const;

  /// The arguments after the program name. Unknown options, missing values, an option given twice
  /// and (unless the table has positional options) stray words throw std::runtime_error
  /// "command line: ...". Negative numbers may follow an option as its value (--target -44.3).
  GivenOptions readCommandLine(const std::vector<std::string>& arguments) const;
  /// Adds the options of the `key = value` file at `path` (long names, '#' comments) that `given`
  /// does not hold yet: the command line wins. Errors name the file and line.
  void readConfigFile(const std::string& path, GivenOptions& given) const;

  /// --help: `about`, then the options by section with unit, keywords and `defaults` (one text per
  /// option, in table order; empty for none).
  std::string helpText(const std::vector<std::string>& defaults) const;
  /// The options as Markdown tables by section (Option, Unit, Default, Range, Keyword, Meaning).
  std::string optionsMarkdown(const std::vector<std::string>& defaults) const;

 protected:
  std::string m_program;
  std::string m_section;
  std::vector<OptionInfo> m_options;
  std::vector<KeywordInfo> m_keywords;
};

}  // namespace landscape
