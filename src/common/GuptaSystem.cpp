#include "src/common/GuptaSystem.h"

#include <stdexcept>

namespace landscape {

std::string GuptaSystemConfig::origin() const {
  const char* option = parameters ? "gupta-params" : "gupta";
  const auto it = origins.find(option);
  return it == origins.end() ? std::string("--") + option : it->second;
}

void resolveGuptaSystem(GuptaSystemConfig& gupta, const GivenOptions& given,
                        const KeywordOrigins& keywords) {
  gupta.origins.clear();
  const auto keyword = keywords.find("GUPTA");
  if (given.has("gupta"))
    gupta.origins["gupta"] = given.origin("gupta");
  else if (keyword != keywords.end())
    gupta.origins["gupta"] = keyword->second.where() + ": GUPTA";
  if (given.has("gupta-params")) gupta.origins["gupta-params"] = given.origin("gupta-params");
  if (gupta.metal && gupta.parameters) {
    // A keyword file's GUPTA gives way to --gupta-params; both on the command line (or --config)
    // contradict each other.
    if (given.has("gupta"))
      throw std::runtime_error(gupta.origins["gupta-params"] + ": cannot be combined with " +
                               gupta.origins["gupta"] +
                               " (a named metal or four numbers, not both)");
    gupta.metal.reset();
    gupta.origins.erase("gupta");
  }
  if (!gupta.active()) return;
  try {
    guptaParamsOf(gupta).check();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(gupta.origin() + ": " + e.what());
  }
}

GuptaParams guptaParamsOf(const GuptaSystemConfig& gupta) {
  if (gupta.metal) return guptaMetalParams(*gupta.metal);
  GuptaParams params;
  if (gupta.parameters) {
    params.p = (*gupta.parameters)[0];
    params.q = (*gupta.parameters)[1];
    params.a = (*gupta.parameters)[2];
    params.xi = (*gupta.parameters)[3];
  }
  params.r0 = 1.0;
  return params;
}

void setGuptaMetalOfGminType(GuptaSystemConfig& gupta, double type) {
  GuptaMetal metal{};
  if (!guptaMetalOfGminType(static_cast<long long>(type), metal))
    throw std::invalid_argument("GUPTA type " + std::to_string(static_cast<long long>(type)) +
                                " is not provided");
  gupta.metal = metal;
}

std::string guptaGminTypesText() {
  std::string text;
  const std::vector<long long> types = guptaGminTypes();
  for (std::size_t i = 0; i < types.size(); ++i) {
    GuptaMetal metal{};
    guptaMetalOfGminType(types[i], metal);
    text += (i == 0                  ? ""
             : i + 1 == types.size() ? " or "
                                     : ", ") +
            std::to_string(types[i]) + " (" + guptaMetalName(metal) + ")";
  }
  return text;
}

}  // namespace landscape
