#include "src/MpiCommunicator.h"

#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>

namespace landscape {

MpiCommunicator::MpiCommunicator(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m_size);
  // The ranks that share this node's memory are the ranks of this node (MPI-3).
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &m_localRank);
  MPI_Comm_size(node, &m_localSize);
  MPI_Comm_free(&node);
}

MpiCommunicator::~MpiCommunicator() { MPI_Finalize(); }

std::string MpiCommunicator::description() const {
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string name(library, static_cast<std::size_t>(length));
  name = name.substr(0, name.find_first_of(",\n"));  // "Open MPI v4.1.4, package: ..." -> first part
  return "MPI, " + std::to_string(m_size) + (m_size == 1 ? " rank (" : " ranks (") + name + ")";
}

std::vector<std::vector<char>> MpiCommunicator::allGather(const std::vector<char>& mine) {
  if (mine.size() > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("MPI all-gather: more than 2^31 bytes from one rank");
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(m_size)), offsets(counts.size(), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (total > INT_MAX) throw std::invalid_argument("MPI all-gather: more than 2^31 bytes");
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<char> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE,
                 MPI_COMM_WORLD);
  std::vector<std::vector<char>> parts;
  for (std::size_t r = 0; r < counts.size(); ++r)
    parts.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  return parts;
}

bool MpiCommunicator::anyTrue(bool mine) {
  int local = mine ? 1 : 0, any = 0;
  MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return any != 0;
}

long MpiCommunicator::broadcast(long value) {
  MPI_Bcast(&value, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  return value;
}

void MpiCommunicator::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest if it did
}

}  // namespace landscape
