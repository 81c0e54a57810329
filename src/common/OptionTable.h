#pragma once
// The one table of a program's options: each option is declared once, with its long name, unit,
// bounds, help text, default (the field's value in a default Config) and the field it lands in,
// and each GMIN/OPTIM keyword with the options its fields set. From the table come the command
// line and --config files (OptionList), the keyword files (KeywordFile), --help, the Markdown
// tables of docs/, and the options a gmin checkpoint must match (fingerprint()).
//
//   OptionTable<Run> t("prog");
//   t.section("Basin-hopping");
//   t.add("temperature", "KT", "Metropolis temperature kT",
//         fieldOf(&Run::params, &Params::temperature)).unit("epsilon").positive();
//   t.keyword("TEMPERATURE", "kT", "Metropolis temperature").field("temperature", "kT");
//
// The kind of value follows the field's type (OptionField.h).
#include <array>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <istream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "src/common/KeywordFile.h"
#include "src/common/OptionField.h"
#include "src/common/OptionList.h"

namespace landscape {

template <class Config>
class OptionTable : public OptionList {
 public:
  using Condition = std::function<bool(const Config&)>;

  /// What an option does with its value.
  struct Binding {
    std::function<void(Config&, const std::string&, const OptionInfo&)> set;  ///< null: no field
    std::function<std::string(const Config&, const OptionInfo&, bool exact)> show;
    std::function<void(Config&)> then;  ///< runs after every set
    Condition inEffect;                 ///< null: always
  };

  /// Modifiers of the option just added; each returns the builder, so they chain.
  class Builder {
   public:
    Builder(OptionTable& t, std::size_t i) : m_table(t), m_index(i) {}
    Builder& unit(std::string u) {
      return info([&](OptionInfo& o) { o.unit = std::move(u); });
    }
    Builder& atLeast(double v) {
      return info([&](OptionInfo& o) { o.rule.min = v; });
    }
    Builder& above(double v) {
      return info([&](OptionInfo& o) {
        o.rule.min = v;
        o.rule.minOpen = true;
      });
    }
    Builder& atMost(double v) {
      return info([&](OptionInfo& o) { o.rule.max = v; });
    }
    Builder& below(double v) {
      return info([&](OptionInfo& o) {
        o.rule.max = v;
        o.rule.maxOpen = true;
      });
    }
    Builder& positive() { return above(0.0); }
    Builder& nonNegative() { return atLeast(0.0); }
    Builder& oneOf(std::vector<long long> v) {
      return info([&](OptionInfo& o) { o.rule.allowed = std::move(v); });
    }
    /// Enumerations: the names and the value each stands for.
    template <class E>
    Builder& choices(const std::vector<E>& values, std::string (*name)(E)) {
      return info([&](OptionInfo& o) {
        o.rule.kind = ValueKind::Choice;
        for (E v : values) o.rule.choices.emplace_back(name(v), static_cast<long long>(v));
      });
    }
    /// One more accepted name for a value of an enumeration (e.g. a former spelling).
    template <class E>
    Builder& choice(std::string name, E value) {
      return info([&](OptionInfo& o) {
        o.rule.choices.emplace_back(std::move(name), static_cast<long long>(value));
      });
    }
    Builder& choices(const std::vector<std::string>& names) {
      return info([&](OptionInfo& o) {
        o.rule.kind = ValueKind::Choice;
        for (std::size_t i = 0; i < names.size(); ++i)
          o.rule.choices.emplace_back(names[i], static_cast<long long>(i));
      });
    }
    /// Text that must name an existing regular file.
    Builder& file() {
      return info([](OptionInfo& o) { o.rule.kind = ValueKind::File; });
    }
    /// Text that may not be empty: "expected a directory name, found nothing".
    Builder& named(std::string what) {
      return info([&](OptionInfo& o) { o.rule.textName = std::move(what); });
    }
    /// The field holds value x factor (e.g. degrees given, radians held).
    Builder& scale(double factor) {
      return info([&](OptionInfo& o) { o.scale = factor; });
    }
    /// A yes/no or switch whose field holds the opposite.
    Builder& inverted() {
      return info([](OptionInfo& o) { o.inverted = true; });
    }
    Builder& alias(std::string a) {
      return info([&](OptionInfo& o) { o.aliases.push_back(std::move(a)); });
    }
    Builder& shortName(char c) {
      return info([&](OptionInfo& o) { o.shortName = c; });
    }
    /// The default as shown in --help, instead of the field's value; "" shows none.
    Builder& defaultText(std::string text) {
      return info([&](OptionInfo& o) { o.defaultText = std::move(text); });
    }
    Builder& commandLineOnly() {
      return info([](OptionInfo& o) { o.commandLineOnly = true; });
    }
    /// Not compared when gmin resumes: the run may change it (--steps, --output).
    Builder& notInCheckpoint() {
      return info([](OptionInfo& o) { o.inCheckpoint = false; });
    }
    /// The key of the option in checkpoints written before it was derived from this table.
    Builder& formerly(std::string key) {
      return info([&](OptionInfo& o) { o.formerCheckpointKey = std::move(key); });
    }
    /// Runs after the value is set (an option that sets two fields, or a flag beside it).
    Builder& then(std::function<void(Config&)> f) {
      m_table.m_bindings[m_index].then = std::move(f);
      return *this;
    }
    /// The option matters only for runs where `c` holds (AMBER's --igb with --prmtop).
    Builder& inEffectIf(Condition c) {
      m_table.m_bindings[m_index].inEffect = std::move(c);
      return *this;
    }

   private:
    template <class F>
    Builder& info(F f) {
      f(m_table.m_options[m_index]);
      return *this;
    }
    OptionTable& m_table;
    std::size_t m_index;
  };

  /// Fields of an implemented keyword, in order; each returns the builder, so they chain.
  class KeywordBuilder {
   public:
    KeywordBuilder(OptionTable& t, std::size_t i) : m_table(t), m_index(i) {}
    /// The next field sets `option`; `what` names it in messages ("the step size"). `ifAbsent`:
    /// the value when an optional field is left out (otherwise the option keeps its value).
    KeywordBuilder& field(const std::string& option, std::string what, std::string ifAbsent = "") {
      m_table.requireOption(option);
      addRef(option, ordinal(entry().fields.size()));
      entry().fields.push_back({std::move(what), option, std::move(ifAbsent), {}, "", nullptr});
      return *this;
    }
    /// The next field is checked against `rule` and then must equal `only`: any other value is
    /// not implemented ("STEPS temperature factor 0.99 is not implemented (must be 1.0 or
    /// absent)").
    KeywordBuilder& only(std::string what, ValueRule rule, std::string only) {
      entry().fields.push_back(
          {std::move(what), "", "", std::move(rule), std::move(only), nullptr});
      return *this;
    }
    /// The next field is checked against `rule` and then not used (PERMDIST's tolerance).
    KeywordBuilder& unused(std::string what, ValueRule rule) { return only(what, rule, ""); }
    /// The next field is one part of `option`'s value (BLJCLUSTER's five numbers of --binary-lj,
    /// PERIODIC's edges of --box): checked by `rule`, then handed to `set`; the docs name the
    /// keyword beside the option once.
    KeywordBuilder& part(const std::string& option, std::string what, ValueRule rule,
                         std::function<void(Config&, double)> set) {
      m_table.requireOption(option);
      const std::string& keyword = m_table.m_keywords[m_index].keyword;
      bool named = false;
      for (const auto& o : m_table.m_options)
        if (o.name == option)
          for (const auto& k : o.keywords) named = named || k == keyword;
      if (!named) addRef(option, "");
      entry().fields.push_back({std::move(what), "", "", std::move(rule), "", std::move(set)});
      return *this;
    }
    /// The next field sets what no option does: `set` receives the checked number.
    KeywordBuilder& number(std::string what, ValueRule rule,
                           std::function<void(Config&, double)> set) {
      entry().fields.push_back({std::move(what), "", "", std::move(rule), "", std::move(set)});
      return *this;
    }
    /// The keyword, with no field of its own, sets `option` to `value` (CENTRE: --centre).
    KeywordBuilder& sets(const std::string& option, std::string value) {
      m_table.requireOption(option);
      const bool on = value == "yes" || value == "true";
      addRef(option, on ? "" : " = " + value);
      entry().sets.emplace_back(option, std::move(value));
      return *this;
    }

   private:
    auto& entry() { return m_table.m_keywordEntries[m_index]; }  // KeywordEntry: declared below
    std::string ordinal(std::size_t i) const {
      if (m_table.m_keywords[m_index].maxFields <= 1) return "";
      static const char* const names[] = {"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"};
      // SYMMETRISE has nine fields: past the table, the number spelled out.
      return i < 8 ? std::string(" ") + names[i] : " " + std::to_string(i + 1) + "th";
    }
    void addRef(const std::string& option, const std::string& suffix) {
      for (auto& o : m_table.m_options)
        if (o.name == option) o.keywords.push_back(m_table.m_keywords[m_index].keyword + suffix);
    }
    OptionTable& m_table;
    std::size_t m_index;
  };

  using Block = std::function<void(const KeywordLine&, std::istream&, std::size_t&, Config&)>;
  using Finish = std::function<void(const std::vector<KeywordLine>&, Config&)>;

  using OptionList::OptionList;
  /// The table `declarations` fill in order, with `about` above the options in --help.
  OptionTable(std::string program, std::string about,
              std::initializer_list<void (*)(OptionTable&)> declarations)
      : OptionList(std::move(program)) {
    this->about = std::move(about);
    for (auto declare : declarations) declare(*this);
  }

  void section(std::string title) { m_section = std::move(title); }

  /// An option that takes a value and lands in the field `access(config)` returns.
  template <class Access>
  Builder add(std::string name, std::string valueName, std::string description, Access access) {
    using Field = std::remove_reference_t<decltype(access(std::declval<Config&>()))>;
    OptionInfo o = newOption(std::move(name), std::move(valueName), std::move(description));
    o.rule.kind = option_field::kindOf<Field>();
    o.rule.list = option_field::IsVector<Field>::value || option_field::IsArray<Field>::value;
    return push(std::move(o), bind(access));
  }
  /// A switch: no value on the command line, yes/no in a config file; lands in a bool.
  template <class Access>
  Builder flag(std::string name, std::string description, Access access) {
    OptionInfo o = newOption(std::move(name), "", std::move(description));
    o.rule.kind = ValueKind::Switch;
    return push(std::move(o), bind(access));
  }
  /// An option whose value, checked by the rule the builder gives it, goes to `set` rather than
  /// to a field (--friction-preset NAME sets a friction).
  Builder custom(std::string name, std::string valueName, std::string description,
                 std::function<void(Config&, const std::string&)> set) {
    OptionInfo o = newOption(std::move(name), std::move(valueName), std::move(description));
    o.defaultText = "";
    Binding b;
    b.set = [set](Config& c, const std::string& text, const OptionInfo& info) {
      checkValue(text, info.rule);
      set(c, text);
    };
    return push(std::move(o), std::move(b));
  }
  /// A word without "--" (tools' DATABASE); `valueName` names it in the usage.
  template <class Access>
  Builder positional(std::string valueName, std::string description, Access access) {
    Builder b = add(valueName, valueName, std::move(description), access);
    m_options.back().positional = true;
    return b;
  }
  /// --help, --version: answered by the parser, command line only.
  Builder command(std::string name, std::string description) {
    OptionInfo o = newOption(std::move(name), "", std::move(description));
    o.rule.kind = ValueKind::Switch;
    o.commandLineOnly = true;
    o.inCheckpoint = false;
    o.defaultText = "";
    return push(std::move(o), {});
  }
  /// A file the parser reads itself (--config, --gmin-data): checked to exist, never a field.
  Builder source(std::string name, std::string valueName, std::string description) {
    OptionInfo o = newOption(std::move(name), std::move(valueName), std::move(description));
    o.rule.kind = ValueKind::File;
    o.inCheckpoint = false;
    o.defaultText = "";
    return push(std::move(o), {});
  }
  /// --help, -h.
  void helpCommand() { command("help", "print this help and exit").shortName('h'); }
  /// --help (-h), --help-markdown and --version, as gmin, optim and sop have them.
  void standardCommands() {
    helpCommand();
    command("help-markdown", "print the options (and keywords) as the Markdown of docs/ and exit");
    command("version", "print the version and exit");
  }

  /// An implemented keyword; its fields follow with KeywordBuilder::field() and friends.
  KeywordBuilder keyword(std::string keyword, std::string fields, std::string description) {
    return addKeyword(KeywordStatus::Implemented, keyword, fields, description);
  }
  /// Ignored (a warning), not implemented (an error) or file syntax (NOTE, STOP, POINTS), or an
  /// implemented keyword whose `block` reads its fields itself (reading goes on after it; after a
  /// Syntax keyword's block it stops).
  void keyword(KeywordStatus status, std::string keyword, std::string fields,
               std::string description, Block block = nullptr) {
    addKeyword(status, keyword, fields, description);
    m_keywordEntries.back().block = std::move(block);
  }
  /// Several keywords of one status: {keyword, fields, description} each.
  void addKeywords(KeywordStatus status, const std::vector<std::array<const char*, 3>>& rows) {
    for (const auto& r : rows) keyword(status, r[0], r[1], r[2]);
  }
  /// Runs after a keyword file is read, with its implemented lines (values spread over keywords).
  void afterKeywords(Finish finish) { m_finish = std::move(finish); }

  // ---- use ----

  /// Sets the option `name` from its text. Throws ValueError (from its rule) on a bad value.
  void set(Config& config, const std::string& name, const std::string& value) const {
    const std::size_t i = indexOf(name);
    if (!m_bindings[i].set) return;
    m_bindings[i].set(config, value, m_options[i]);
    if (m_bindings[i].then) m_bindings[i].then(config);
  }
  /// Every given option that lands in a field, in table order; errors name the origin.
  void apply(const GivenOptions& given, Config& config) const {
    for (const OptionInfo& o : m_options) {
      const GivenOption* g = given.find(o.name);
      if (!g) continue;
      try {
        set(config, o.name, g->value);
      } catch (const ValueError& e) {
        throw std::runtime_error(g->origin + ": " + e.optionMessage());
      }
    }
  }
  /// The command line and its --config file. Returns false, with config.action and
  /// config.helpText filled, for --help, --help-markdown and --version.
  bool read(const std::vector<std::string>& arguments, GivenOptions& given, Config& config,
            const std::function<std::string()>& markdown) const {
    given = readCommandLine(arguments);
    if (given.has("help") || given.has("help-markdown")) {
      config.action = Config::Action::Help;
      config.helpText = given.has("help") ? helpText(config) : markdown();
      return false;
    }
    if (given.has("version")) {
      config.action = Config::Action::Version;
      config.helpText = version();
      return false;
    }
    if (given.has("config")) readConfigFile(checkedSource(given, "config"), given);
    return true;
  }
  /// The file a Source option names, checked to exist; errors name where it was given.
  std::string checkedSource(const GivenOptions& given, const std::string& name) const {
    try {
      return parseText(given.value(name), find(name)->rule);
    } catch (const ValueError& e) {
      throw std::runtime_error(given.origin(name) + ": " + e.optionMessage());
    }
  }

  /// The words without "--", in order, to the positional options (a list takes the rest).
  void applyPositionals(const std::vector<std::string>& words, Config& config) const {
    std::size_t next = 0;
    for (const OptionInfo& o : m_options) {
      if (!o.positional || next == words.size()) continue;
      std::string value = words[next++];
      while (o.rule.list && next < words.size()) value += "," + words[next++];
      try {
        set(config, o.name, value);
      } catch (const ValueError& e) {
        throw std::runtime_error("command line: " + o.valueName + ": " + e.optionMessage());
      }
    }
    if (next < words.size())
      throw std::runtime_error("command line: unexpected argument " + quote(words[next]));
  }

  /// One default text per option, from `defaults`, for --help and the docs.
  std::vector<std::string> defaults(const Config& defaults) const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < m_options.size(); ++i) {
      const OptionInfo& o = m_options[i];
      out.push_back(o.defaultText        ? *o.defaultText
                    : m_bindings[i].show ? m_bindings[i].show(defaults, o, false)
                                         : "");
    }
    return out;
  }
  std::string helpText(const Config& defaults) const {
    return OptionList::helpText(this->defaults(defaults));
  }
  std::string optionsMarkdown(const Config& defaults) const {
    return OptionList::optionsMarkdown(this->defaults(defaults));
  }

  /// Applies the keywords of a GMIN or OPTIM keyword file, in file order (a later line overrides
  /// an earlier one); ignored keywords warn in config.warnings. Errors name source, line, keyword.
  void readKeywords(std::istream& in, const std::string& source, Config& config,
                    const std::string& program, const std::string& docs) const {
    std::vector<KeywordLine> lines;
    KeywordFileFormat format{program, docs, [this](const std::string& k) { return findKeyword(k); },
                             [&](const KeywordLine& line, std::istream& rest, std::size_t& n) {
                               lines.push_back(line);
                               return applyKeyword(line, rest, n, config);
                             }};
    readKeywordFile(in, source, format, config.warnings);
    if (m_finish) m_finish(lines, config);
  }

  /// The options a resumed gmin run must share with the one that wrote the checkpoint: every
  /// option that lands in a field and is in effect for `config`, as (long name, exact value).
  CheckpointFingerprint fingerprint(const Config& config) const {
    CheckpointFingerprint out;
    for (std::size_t i = 0; i < m_options.size(); ++i) {
      const OptionInfo& o = m_options[i];
      const Binding& b = m_bindings[i];
      if (o.inCheckpoint && b.show && (!b.inEffect || b.inEffect(config)))
        out.emplace_back(o.name, b.show(config, o, true));
    }
    return out;
  }
  /// A fingerprint written by an earlier version in today's terms: former keys renamed (with
  /// inverted options' values turned round), options it did not record taken at their default,
  /// options not in effect for `config` left out.
  CheckpointFingerprint upgradeFingerprint(const CheckpointFingerprint& saved, const Config& config,
                                           const Config& defaults) const;

 private:
  struct KeywordField {
    std::string what;
    std::string option;    ///< the option the field sets; empty for a rule-only field
    std::string ifAbsent;  ///< the value when an optional field is left out
    ValueRule rule;        ///< rule-only fields
    std::string only;      ///< rule-only: the one value implemented ("" = any, unused)
    std::function<void(Config&, double)> number;
  };
  struct KeywordEntry {
    std::vector<KeywordField> fields;
    std::vector<std::pair<std::string, std::string>> sets;
    Block block;
  };

  OptionInfo newOption(std::string name, std::string valueName, std::string description) const {
    OptionInfo o;
    o.name = std::move(name);
    o.valueName = std::move(valueName);
    o.description = std::move(description);
    o.section = m_section;
    return o;
  }
  Builder push(OptionInfo o, Binding b) {
    m_options.push_back(std::move(o));
    m_bindings.push_back(std::move(b));
    return Builder(*this, m_options.size() - 1);
  }
  template <class Access>
  static Binding bind(Access access) {
    Binding b;
    b.set = [access](Config& c, const std::string& text, const OptionInfo& o) {
      option_field::assign(access(c), text, o);
    };
    b.show = [access](const Config& c, const OptionInfo& o, bool exact) {
      return option_field::show(access(const_cast<Config&>(c)), o, exact);
    };
    return b;
  }
  std::size_t indexOf(const std::string& name) const {
    for (std::size_t i = 0; i < m_options.size(); ++i)
      if (m_options[i].name == name) return i;
    throw std::logic_error(m_program + ": no option '" + name + "' in the table");
  }
  void requireOption(const std::string& name) const { indexOf(name); }
  KeywordBuilder addKeyword(KeywordStatus status, const std::string& keyword,
                            const std::string& fields, const std::string& description) {
    KeywordInfo k{keyword, status, fields, description, 0, 0};
    std::tie(k.minFields, k.maxFields) = fieldCounts(fields);
    m_keywords.push_back(k);
    m_keywordEntries.emplace_back();
    return KeywordBuilder(*this, m_keywords.size() - 1);
  }
  bool applyKeyword(const KeywordLine& line, std::istream& in, std::size_t& lineNumber,
                    Config& config) const;

  std::vector<Binding> m_bindings;
  std::vector<KeywordEntry> m_keywordEntries;
  Finish m_finish;
};

template <class Config>
bool OptionTable<Config>::applyKeyword(const KeywordLine& line, std::istream& in,
                                       std::size_t& lineNumber, Config& config) const {
  const KeywordInfo* info = findKeyword(line.keyword);
  const KeywordEntry& k = m_keywordEntries[info - m_keywords.data()];
  if (k.block) {
    // An implemented keyword's block reads its own line; a Syntax one (POINTS) ends the keywords.
    k.block(line, in, lineNumber, config);
    return info->status == KeywordStatus::Implemented;
  }
  std::string what;
  try {
    for (const auto& [option, value] : k.sets) {
      what = option;
      set(config, option, value);
    }
    for (std::size_t i = 0; i < k.fields.size(); ++i) {
      const KeywordField& f = k.fields[i];
      if (i >= line.fields.size() && f.ifAbsent.empty()) continue;
      const std::string& text = i < line.fields.size() ? line.fields[i] : f.ifAbsent;
      what = f.what;
      if (!f.option.empty()) {
        set(config, f.option, text);
        continue;
      }
      const double v = f.rule.kind == ValueKind::Integer
                           ? static_cast<double>(parseInteger(text, f.rule))
                           : parseReal(text, f.rule);
      if (f.number) f.number(config, v);
      if (!f.only.empty() && v != parseReal(f.only, f.rule))
        line.fail(line.keyword + " " + f.what + " " + text + " is not implemented (must be " +
                  f.only + " or absent)");
    }
  } catch (const ValueError& e) {
    line.fail(e.keywordMessage(line.keyword, what));
  }
  return true;
}

template <class Config>
CheckpointFingerprint OptionTable<Config>::upgradeFingerprint(const CheckpointFingerprint& saved,
                                                              const Config& config,
                                                              const Config& defaults) const {
  const CheckpointFingerprint current = fingerprint(config);
  auto currentHas = [&](const std::string& key) {
    for (const auto& entry : current)
      if (entry.first == key) return true;
    return false;
  };
  CheckpointFingerprint out;
  for (auto [key, value] : saved) {
    for (std::size_t i = 0; i < m_options.size(); ++i) {
      const OptionInfo& o = m_options[i];
      if (key != o.name && key != o.formerCheckpointKey) continue;
      if (key == o.formerCheckpointKey && o.inverted) value = value == "on" ? "off" : "on";
      key = o.name;
      if (!currentHas(key)) key.clear();  // not in effect for this run
    }
    if (!key.empty()) out.emplace_back(key, value);
  }
  for (std::size_t i = 0; i < m_options.size(); ++i) {
    const OptionInfo& o = m_options[i];
    bool recorded = false;
    for (const auto& entry : out) recorded = recorded || entry.first == o.name;
    if (!recorded && currentHas(o.name))
      out.emplace_back(o.name, m_bindings[i].show(defaults, o, true));
  }
  return out;
}

/// The command line of a tool (tools/): the options of argv applied to `options`, whose values
/// stay where nothing is given, and the words without "--" to the table's positional options in
/// order (a vector takes the rest). --help prints the help with `options` as the defaults and
/// exits 0; a bad command line prints "PROGRAM: message" and exits 2.
template <class Config>
void parseToolCommandLine(const OptionTable<Config>& table, int argc, char** argv,
                          Config& options) {
  try {
    const GivenOptions given =
        table.readCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    if (given.has("help")) {
      std::cout << table.helpText(options);
      std::exit(0);
    }
    table.apply(given, options);
    table.applyPositionals(given.positionals, options);
  } catch (const std::exception& e) {
    std::cerr << table.program() << ": " << e.what() << "\n";
    std::exit(2);
  }
}

}  // namespace landscape
