#pragma once
// GMIN's `data` keyword file -> GminConfig.
//
// Format (as GMIN reads it): one keyword per line followed by free-format fields separated by
// blanks or commas; keywords are case-insensitive; '!' or '#' starts a comment that runs to the end
// of the line; NOTE and COMMENT lines are comments too; STOP ends the file. Reals may use Fortran
// D exponents (5.0D-3). Energies, lengths and temperatures (kT) are in the potential's units
// (reduced Lennard-Jones units for LJ clusters).
//
// Every keyword this reader knows is in gmin's option table (GminOptions.cpp), beside the options
// its fields set; gminKeywordsMarkdown() renders keywords and options, and docs/gmin-keywords.md
// is that rendering (a test keeps them equal; `gmin --help-markdown` prints it).
#include <iosfwd>
#include <string>
#include <vector>

#include "src/common/KeywordFile.h"
#include "src/gmin/GminConfig.h"

namespace landscape {

using GminKeywordStatus = KeywordStatus;
using GminKeywordInfo = KeywordInfo;

/// The whole table, in the order of the documentation.
std::vector<GminKeywordInfo> gminKeywordTable();

/// "implemented", "ignored (warning)", "error: not implemented" or "file syntax".
std::string gminKeywordStatusName(GminKeywordStatus status);

/// The contents of docs/gmin-keywords.md: a short preamble, the keyword table and the options.
std::string gminKeywordsMarkdown();

/// What GMIN assumes for a keyword that a data file leaves out: the BasinHoppingParams defaults
/// (documented there as GMIN's) with GMIN's switches CENTRE, NEWRESTART and AVOID off, and the
/// system fields of GminConfig (LJ38, CPU, ./gmin-out) unchanged. Differs from the `gmin`
/// command's no-argument defaults (gminDefaultConfig(), GMIN's LJ38 example) on purpose: a data
/// file describes the whole run, as it does for GMIN.
GminConfig gminKeywordDefaults();

/// Applies the keywords read from `in` to `config`, in file order (a later line overrides an
/// earlier one). `source` names the input in messages ("FILE:LINE: ..."). Warnings for ignored
/// keywords are appended to config.warnings. Throws std::runtime_error with a one-line message
/// naming source, line and keyword on an unknown keyword, a NotImplemented keyword, a wrong field
/// count or a bad number. Does not run BasinHoppingParams::check().
void applyGminKeywords(std::istream& in, const std::string& source, GminConfig& config);

/// gminKeywordDefaults() with the keywords of the file at `path` applied, then checked
/// (BasinHoppingParams::check()). Throws std::runtime_error naming the file when it cannot be
/// opened, on any error of applyGminKeywords, or when the parameters fail their check.
GminConfig readGminDataFile(const std::string& path);

}  // namespace landscape
