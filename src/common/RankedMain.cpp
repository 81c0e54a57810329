#include "src/common/RankedMain.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "backends/GpuChoice.h"

namespace landscape {

int runRankedProgram(const char* program, int argc, char** argv,
                     const std::function<int(int, char**, Communicator&)>& run) {
  std::unique_ptr<Communicator> ranks;
  try {
    ranks = startCommunicator(argc, argv);
    if (ranks->rank() != 0 && !std::freopen("/dev/null", "w", stdout))
      throw std::runtime_error("rank " + std::to_string(ranks->rank()) + ": /dev/null: " +
                               std::strerror(errno));
    return run(argc, argv, *ranks);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    if (!ranks || ranks->size() == 1) {
      std::cerr << program << ": error: " << e.what() << "\n";
      return 1;
    }
    if (ranks->rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(2));
    std::cerr << program << ": error (rank " << ranks->rank() << " of " << ranks->size()
              << "): " << e.what() << "\n" << std::flush;
    ranks->abort(1);
  }
  return 1;  // not reached: abort ends the process
}

void useRankGpu(const char* program, bool cuda, bool quiet, Communicator& ranks) {
  if (ranks.size() == 1 || !cuda) return;
  const std::string gpu = useLocalGpu(ranks.localRank());
  if (!quiet && ranks.rank() == 0)
    std::printf("%s: rank 0 on %s (the ranks of a node take its GPUs in turn)\n", program,
                gpu.c_str());
}

}  // namespace landscape
