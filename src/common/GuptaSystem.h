#pragma once
// A Gupta metal cluster as gmin, optim and pathsample grow are asked for it (docs/gupta.md): a
// named metal of Cleri and Rosato's table (--gupta METAL; GMIN's and OPTIM's GUPTA keyword, whose
// number picks a row of that table) or four numbers (--gupta-params P,Q,A,XI), always in GMIN's
// reduced lengths (r0 = 1: lengths in units of the bulk nearest-neighbour distance) and the energy
// unit of A and xi (eV for the named metals). The options are declared once for every program in
// SharedOptions.h (addGuptaSystemOptions); what the programs build from it is a
// PotentialSpec::Kind::Gupta with guptaParamsOf().
#include <array>
#include <map>
#include <optional>
#include <string>

#include "potentials/GuptaPotential.h"
#include "src/common/OptionList.h"
#include "src/common/PairSystem.h"

namespace landscape {

struct GuptaSystemConfig {
  std::optional<GuptaMetal> metal;                  ///< --gupta METAL [GUPTA type]
  std::optional<std::array<double, 4>> parameters;  ///< --gupta-params P,Q,A,XI
  /// Where each option was given ("command line: --gupta", "data:3: GUPTA"), for messages;
  /// resolveGuptaSystem() fills it.
  std::map<std::string, std::string> origins;

  /// A Gupta cluster was asked for (instead of Lennard-Jones).
  bool active() const { return metal || parameters; }
  /// Where the system was chosen, for messages ("data:3: GUPTA", "--gupta-params").
  std::string origin() const;
};

/// After the command line, --config and the keyword file are applied: records where the options
/// came from (the command line's over GUPTA) and checks that one way of giving the parameters was
/// used (--gupta-params on a higher-priority source replaces a keyword file's GUPTA) and that the
/// numbers make a potential (GuptaParams::check). Throws std::runtime_error whose one-line message
/// starts with the origin of the offending option.
void resolveGuptaSystem(GuptaSystemConfig& gupta, const GivenOptions& given,
                        const KeywordOrigins& keywords);

/// The parameters of the run (r0 = 1).
GuptaParams guptaParamsOf(const GuptaSystemConfig& gupta);

/// GMIN's and OPTIM's GUPTA keyword: the metal of a type number, which the keyword's rule has
/// already limited to guptaGminTypes().
void setGuptaMetalOfGminType(GuptaSystemConfig& gupta, double type);

/// "Gupta clusters: GMIN's GUPTA type 1 (Ni), 2 (Cu), ..." for keyword descriptions.
std::string guptaGminTypesText();

}  // namespace landscape
