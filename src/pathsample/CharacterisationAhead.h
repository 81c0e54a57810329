#pragma once
// The Hessians of a growth cycle's new stationary points, computed while the cycle's last connect
// runs go on. A cycle merges once its slowest run has ended, and then characterises every new
// point (a trp-cage cycle of 256 runs: about 1,100 finite-difference Hessians, 40 s with the
// device otherwise idle). Here a worker thread characterises each ended run's points as soon as
// the runs still in flight leave the device room (the caller says when), and the merge takes
// what it finds done by exact coordinates, computing only the rest.
//
// A point's properties depend on its own coordinates only (characteriseTogether's guarantee when
// the batched Hessians are the single ones' bits, as the batched potentials' are), so the network
// never depends on which points were done ahead.
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "landscape/network/StoredNetwork.h"

namespace landscape {

class CharacterisationAhead {
 public:
  /// Characterises points (atoms' Cartesians) together, properties in their order.
  using Characterise = std::function<std::vector<StationaryPointProperties>(
      const std::vector<std::vector<double>>& points)>;

  /// `characterise` runs on the worker, `chunk` points at a time (a pause waits for at most one
  /// chunk), once `start` has run there (e.g. choosing the thread's GPU). Points whose energy is
  /// within `energyTolerance` (EDIFFTOL) of a known point's or of one already taken are skipped:
  /// the merge would drop them as duplicates.
  CharacterisationAhead(Characterise characterise, double energyTolerance, std::size_t chunk,
                        std::function<void()> start = {});
  ~CharacterisationAhead();  // stops the worker after its chunk under way
  CharacterisationAhead(const CharacterisationAhead&) = delete;
  CharacterisationAhead& operator=(const CharacterisationAhead&) = delete;

  /// A stationary point of an ended run (any thread): its energy and atoms' Cartesians.
  void add(double energy, std::vector<double> atoms);
  /// Whether the worker may compute (it takes the points added so far, oldest first).
  void allow(bool allowed);

  /// What the merge asked of it: points, and those found done ahead.
  struct Use {
    std::size_t points = 0;
    std::size_t ahead = 0;
  };
  /// The properties of `points`: those done ahead, and `rest` (called with the others, in
  /// order, on the calling thread) for the others. Pauses the worker first (it stays paused
  /// until allowed again), so that `rest` may use what the worker uses.
  std::vector<StationaryPointProperties> take(const std::vector<std::vector<double>>& points,
                                              const Characterise& rest, Use* use = nullptr);
  /// The energies of the network as saved: points added later within the tolerance of one are
  /// skipped; points done or waiting that match one (merged, or duplicates of merged points) are
  /// dropped. Pauses the worker as take does.
  void know(std::vector<double> energies);

 private:
  struct Point {
    double energy;
    std::vector<double> atoms;
  };
  struct Done {
    double energy;
    StationaryPointProperties properties;
  };
  void work();
  void pause(std::unique_lock<std::mutex>& lock);
  bool isKnown(double energy) const;  // under m_lock

  Characterise m_characterise;
  double m_tolerance;
  std::size_t m_chunk;
  std::function<void()> m_start;

  std::mutex m_lock;
  std::condition_variable m_changed;
  bool m_allowed = false;
  bool m_busy = false;  // the worker is characterising a chunk (outside the lock)
  bool m_ending = false;
  bool m_failed = false;  // a chunk threw: the merges compute everything (and report it)
  int m_held = 0;         // take() is computing the rest with what the worker uses
  std::vector<Point> m_waiting;
  std::vector<double> m_energies;                // sorted: known and taken points' energies
  std::unordered_map<std::string, Done> m_done;  // by the atoms' bytes
  std::thread m_worker;                          // last: started once the members above exist
};

}  // namespace landscape
