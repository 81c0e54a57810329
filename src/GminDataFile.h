#pragma once
// GMIN's `data` keyword file -> GminRunConfig.
//
// Format (as GMIN reads it): one keyword per line followed by free-format fields separated by
// blanks or commas; keywords are case-insensitive; '!' or '#' starts a comment that runs to the end
// of the line; NOTE and COMMENT lines are comments too; STOP ends the file. Reals may use Fortran
// D exponents (5.0D-3). Energies, lengths and temperatures (kT) are in the potential's units
// (reduced Lennard-Jones units for LJ clusters).
//
// Every keyword this reader knows is in one table in GminDataFile.cpp; gminKeywordsMarkdown()
// renders it, and docs/gmin-keywords.md is that rendering (a test keeps them equal).
#include <iosfwd>
#include <string>
#include <vector>

#include "src/RunConfig.h"

namespace landscape {

/// What the reader does with a keyword.
enum class GminKeywordStatus {
  Implemented,     ///< sets a field of GminRunConfig
  Ignored,         ///< accepted with a warning in GminRunConfig::warnings (output/diagnostics only)
  NotImplemented,  ///< a GMIN keyword that would change the run; reading it is an error
  Syntax           ///< NOTE, COMMENT, STOP: structure of the file itself
};

/// One row of the keyword table (the table itself lives in GminDataFile.cpp).
struct GminKeywordInfo {
  std::string keyword;  ///< upper case, as GMIN spells it
  GminKeywordStatus status;
  std::string fields;       ///< field syntax, e.g. "n [tfac]"; empty when none
  std::string description;  ///< one line: GMIN's meaning and the landscape field it sets
};

/// The whole table, in the order of the documentation.
std::vector<GminKeywordInfo> gminKeywordTable();

/// "implemented", "ignored (warning)", "error: not implemented" or "file syntax".
std::string gminKeywordStatusName(GminKeywordStatus status);

/// The contents of docs/gmin-keywords.md: a short preamble and the table in Markdown.
std::string gminKeywordsMarkdown();

/// What GMIN assumes for a keyword that a data file leaves out: the BasinHoppingParams defaults
/// (documented there as GMIN's) with GMIN's switches CENTRE, NEWRESTART and AVOID off, and the
/// system fields of GminRunConfig (LJ38, CPU, ./gmin-out) unchanged. Differs from the `gmin`
/// command's no-argument defaults (gminDefaultConfig(), GMIN's LJ38 example) on purpose: a data
/// file describes the whole run, as it does for GMIN.
GminRunConfig gminKeywordDefaults();

/// Applies the keywords read from `in` to `config`, in file order (a later line overrides an
/// earlier one). `source` names the input in messages ("FILE:LINE: ..."). Warnings for ignored
/// keywords are appended to config.warnings. Throws std::runtime_error with a one-line message
/// naming source, line and keyword on an unknown keyword, a NotImplemented keyword, a wrong field
/// count or a bad number. Does not run BasinHoppingParams::check().
void applyGminKeywords(std::istream& in, const std::string& source, GminRunConfig& config);

/// gminKeywordDefaults() with the keywords of the file at `path` applied, then checked
/// (BasinHoppingParams::check()). Throws std::runtime_error naming the file when it cannot be
/// opened, on any error of applyGminKeywords, or when the parameters fail their check.
GminRunConfig readGminDataFile(const std::string& path);

}  // namespace landscape
