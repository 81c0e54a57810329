#include "src/common/FaultDrill.h"

#include <csignal>
#include <cstdlib>
#include <string>

namespace landscape {

FaultDrill faultDrill(int rank) {
  const char* drill = std::getenv("LANDSCAPE_FAULT_DRILL");
  if (!drill || !*drill) return {};
  char* end = nullptr;
  const long target = std::strtol(drill, &end, 10);
  if (*end != ':' || target != rank) return {};
  const long round = std::strtol(end + 1, &end, 10);
  if (round < 1) return {};
  if (*end == '\0') return {round, SIGKILL};
  if (std::string(end) == ":stop") return {round, SIGSTOP};
  return {};
}

void runFaultDrill(const FaultDrill& drill, long round) {
  if (round == drill.round) std::raise(drill.signal);
}

}  // namespace landscape
