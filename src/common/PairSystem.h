#pragma once
// A pair system as gmin, optim and pathsample grow are asked for it (docs/pair-potentials.md, "In
// the programs"): the law (--morse, --binary-lj, --kob-andersen, --pair-table; GMIN's MORSE,
// BINARY, BLJCLUSTER), the cutoff (--cutoff, --cutoff-convention; GMIN's SHIFTCUT) and the periodic
// box (--box; GMIN's PERIODIC, OPTIM's BULK), and what the programs build from it: the PairModel
// of potentials/PairModel.h, the check of an XYZ file's species labels and the exact text a
// checkpoint compares (the alignment of its structures is landscape/geometry/PairModelAlignment.h,
// the search's hooks landscape/search/PairModelHooks.h).
// The options themselves are declared once for every program in SharedOptions.h
// (addPairSystemOptions); each program's keywords fill the same fields.
//
// Units: reduced, every length in units of the first species' sigma (r0 for Morse), energies in
// its epsilon (the well depth for Morse); a table in its own units.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "potentials/PairModel.h"
#include "src/common/KeywordFile.h"
#include "src/common/OptionList.h"

namespace landscape {

/// The cutoff of a Kob-Andersen system when none is given: 2.5 sigma_ab (Kob and Andersen, Phys.
/// Rev. E 51, 4626 (1995)).
inline constexpr double kKobAndersenCutoff = 2.5;

struct PairSystemConfig {
  std::optional<double> morseRho;  ///< --morse RHO [MORSE]
  /// --binary-lj NA,EAB,EBB,SAB,SBB [BINARY, BLJCLUSTER]: the first NA atoms are A.
  std::optional<std::array<double, 5>> binaryLj;
  bool kobAndersen = false;  ///< --kob-andersen
  std::string tableFile;     ///< --pair-table FILE: one species, tabulated
  /// --cutoff RC [SHIFTCUT, BLJCLUSTER 6th]: each pair cut at RC times its sigma (r0 for Morse,
  /// absolute for a table); 0 = none (2.5 for Kob-Andersen, the table's end for a table).
  double cutoff = 0.0;
  /// --cutoff-convention; unset: cutoffConvention()'s default.
  std::optional<PairCutoff> convention;
  std::vector<double> box;  ///< --box L | Lx,Ly,Lz [PERIODIC, BULK]; empty = open (a cluster)

  /// Where each option was given, by option name ("command line: --box", "data:4: PERIODIC"),
  /// for messages; resolvePairSystem() fills it.
  std::map<std::string, std::string> origins;

  /// Any of the options given: the run is on a pair system (PotentialSpec::Kind::Pair), not the
  /// plain Lennard-Jones cluster of --lj alone.
  bool active() const {
    return morseRho || binaryLj || kobAndersen || !tableFile.empty() || cutoff > 0.0 ||
           !box.empty();
  }
  bool periodic() const { return !box.empty(); }
  /// The convention asked for, else shifted for Kob-Andersen (the published model, whose energies
  /// the literature reports) and quadratic-smoothed otherwise (V and V' continuous, as minimisers
  /// and transition-state searches need; GMIN's BLJCLUSTER and SHIFTCUT).
  PairCutoff cutoffConvention() const {
    if (convention) return *convention;
    return kobAndersen ? PairCutoff::Shifted : PairCutoff::QuadraticSmoothed;
  }
  /// Where option `name` was given, or "--name" when it was not recorded.
  std::string origin(const std::string& name) const;
  /// Where the pair system was asked for: the law's option, else the box's, else the cutoff's.
  std::string systemOrigin() const;
  /// The box of --box (a cube for one length; open when none).
  PeriodicBox periodicBox() const;
};

/// Keyword fields that fill one option together: field i (0-4) of BINARY and BLJCLUSTER (NTYPEA,
/// EPSAB, EPSBB, SIGAB, SIGBB of --binary-lj), and field i (0-2) of PERIODIC and BULK, whose first
/// field starts the box afresh (a later line replaces an earlier one).
void setBinaryLjField(PairSystemConfig& pair, std::size_t i, double value);
void setBoxField(PairSystemConfig& pair, std::size_t i, double value);

/// The implemented lines of a GMIN data file or OPTIM odata file by keyword (the last line of
/// each), recorded by the programs' tables after reading the file, for messages that name the line
/// a setting came from.
using KeywordOrigins = std::map<std::string, KeywordLine>;
/// Records `line` (any implemented keyword) in `origins`.
void noteKeywordOrigin(const KeywordLine& line, KeywordOrigins& origins);

/// After the command line, --config and the keyword file are applied: records where each pair
/// option came from (the command line's and --config's origins over the keyword lines: MORSE,
/// BINARY, BLJCLUSTER, SHIFTCUT, PERIODIC, BULK) and checks what needs no atom count: one law at
/// most, one or three box edges, a cutoff in a periodic box (Kob-Andersen and tables have their
/// own) that is at most half of every edge for every species pair. Throws std::runtime_error whose
/// one-line message starts with the origin of the offending option.
void resolvePairSystem(PairSystemConfig& pair, const GivenOptions& given,
                       const KeywordOrigins& keywords);

/// The model of `atoms` atoms. Throws std::runtime_error naming the origin: a binary system with
/// more A atoms than atoms (or a non-integer NA), a table that cannot be read, and whatever
/// PairModel::check() refuses.
PairModel makePairModel(const PairSystemConfig& pair, std::size_t atoms);

/// The option that chose the law ("--morse"), or "" for single-species Lennard-Jones.
std::string pairLawOption(const PairSystemConfig& pair);

/// The labels of an XYZ file (readCoordinates' first column) checked against the model's species:
/// with more than one species, labels that name species (the species' names "A", "B", or GMIN's
/// "LA", "LB", in any case) must name each atom's species; labels that name none (element
/// symbols, "X") are accepted as they are; a mixture of both is refused. No labels (a GMIN coords
/// file) pass. Throws std::runtime_error "FILE:LINE: atom I is labelled 'B', but ..." for the first
/// atom that disagrees.
void checkSpeciesLabels(const PairModel& model, const std::vector<std::string>& labels,
                        const std::string& file, const std::string& speciesOrigin);

/// The label of each atom for output files: its species' name ("A", "B") with more than one
/// species, `single` otherwise.
std::vector<std::string> speciesLabels(const PairModel& model, const std::string& single);

/// Every number of the model as exact text (law, convention, species of every atom in runs, each
/// species pair's parameters, box edges, tables' CRC-32): equal text, the same potential. What a
/// gmin checkpoint compares besides the options (src/gmin/GminOptions.h).
std::string pairModelFingerprint(const PairModel& model);

}  // namespace landscape
