#pragma once
// OPTIM's `odata` keyword file -> OptimConfig.
//
// Format (as OPTIM reads it): one keyword per line followed by free-format fields separated by
// blanks or commas; keywords are case-insensitive; '!' or '#' starts a comment that runs to the end
// of the line; NOTE and COMMENT lines are comments too; STOP ends the file. Reals may use Fortran
// D exponents (1.0D-6). POINTS starts the coordinates of the first endpoint: every following
// non-blank line is `LABEL x y z` (one atom each) to the end of the file. Energies and lengths are
// in the potential's units (reduced Lennard-Jones units for LJ clusters).
//
// Every keyword this reader knows is in optim's option table (OptimOptions.cpp), beside the
// options its fields set; odataKeywordsMarkdown() renders keywords and options, and
// docs/optim-keywords.md is that rendering (a test keeps them equal; `optim --help-markdown`
// prints it).
#include <iosfwd>
#include <string>
#include <vector>

#include "src/common/KeywordFile.h"
#include "src/optim/OptimConfig.h"

namespace landscape {

using OdataKeywordStatus = KeywordStatus;
using OdataKeywordInfo = KeywordInfo;

/// The whole table, in the order of the documentation.
std::vector<OdataKeywordInfo> odataKeywordTable();

/// "implemented", "ignored (warning)", "error: not implemented" or "file syntax".
std::string odataKeywordStatusName(OdataKeywordStatus status);

/// The contents of docs/optim-keywords.md: a short preamble, the keyword table and the options.
std::string odataKeywordsMarkdown();

/// Applies the keywords read from `in` to `config` (config.settings, config.odataPoints), in file
/// order (a later line overrides an earlier one). `source` names the input in messages
/// ("FILE:LINE: ..."). Warnings for ignored keywords are appended to config.warnings. Throws
/// std::runtime_error with a one-line message naming source, line and keyword on an unknown
/// keyword, a NotImplemented keyword, a wrong field count, a bad number or a bad POINTS line. Does
/// not run OptimSettings::check().
void applyOdataKeywords(std::istream& in, const std::string& source, OptimConfig& config);

/// An OptimConfig whose settings are optimKeywordDefaults() with the keywords of the file at
/// `path` applied, then checked. Throws std::runtime_error naming the file when it cannot be
/// opened, on any error of applyOdataKeywords, or when the parameters fail their check.
OptimConfig readOdataFile(const std::string& path);

}  // namespace landscape
