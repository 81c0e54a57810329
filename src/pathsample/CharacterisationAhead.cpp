#include "src/pathsample/CharacterisationAhead.h"

#include <algorithm>
#include <utility>

namespace landscape {

namespace {

std::string keyOf(const std::vector<double>& atoms) {
  return std::string(reinterpret_cast<const char*>(atoms.data()), atoms.size() * sizeof(double));
}

}  // namespace

CharacterisationAhead::CharacterisationAhead(Characterise characterise, double energyTolerance,
                                             std::size_t chunk, std::function<void()> start)
    : m_characterise(std::move(characterise)),
      m_tolerance(energyTolerance),
      m_chunk(std::max<std::size_t>(chunk, 1)),
      m_start(std::move(start)),
      m_worker([this] { work(); }) {}

CharacterisationAhead::~CharacterisationAhead() {
  {
    std::lock_guard<std::mutex> lock(m_lock);
    m_ending = true;
  }
  m_changed.notify_all();
  m_worker.join();
}

bool CharacterisationAhead::isKnown(double energy) const {
  const auto near = std::lower_bound(m_energies.begin(), m_energies.end(), energy - m_tolerance);
  return near != m_energies.end() && *near < energy + m_tolerance;
}

void CharacterisationAhead::add(double energy, std::vector<double> atoms) {
  {
    std::lock_guard<std::mutex> lock(m_lock);
    if (isKnown(energy)) return;
    m_energies.insert(std::upper_bound(m_energies.begin(), m_energies.end(), energy), energy);
    m_waiting.push_back({energy, std::move(atoms)});
  }
  m_changed.notify_all();
}

void CharacterisationAhead::allow(bool allowed) {
  {
    std::lock_guard<std::mutex> lock(m_lock);
    m_allowed = allowed;
  }
  m_changed.notify_all();
}

void CharacterisationAhead::pause(std::unique_lock<std::mutex>& lock) {
  m_allowed = false;
  m_changed.wait(lock, [this] { return !m_busy; });
}

void CharacterisationAhead::work() {
  if (m_start) m_start();
  std::unique_lock<std::mutex> lock(m_lock);
  while (true) {
    m_changed.wait(lock, [this] {
      return m_ending || (m_allowed && m_held == 0 && !m_failed && !m_waiting.empty());
    });
    if (m_ending) return;
    const std::size_t n = std::min(m_chunk, m_waiting.size());
    std::vector<Point> chunk(std::make_move_iterator(m_waiting.begin()),
                             std::make_move_iterator(m_waiting.begin() + static_cast<long>(n)));
    m_waiting.erase(m_waiting.begin(), m_waiting.begin() + static_cast<long>(n));
    m_busy = true;
    lock.unlock();
    std::vector<std::vector<double>> points;
    for (Point& p : chunk) points.push_back(std::move(p.atoms));
    std::vector<StationaryPointProperties> found;
    bool failed = false;
    try {
      found = m_characterise(points);
      failed = found.size() != points.size();
    } catch (...) {
      failed = true;  // the merge computes these itself, and reports what fails there
    }
    lock.lock();
    m_busy = false;
    if (failed) {
      m_failed = true;
    } else {
      for (std::size_t k = 0; k < n; ++k)
        m_done[keyOf(points[k])] = Done{chunk[k].energy, std::move(found[k])};
    }
    m_changed.notify_all();
  }
}

std::vector<StationaryPointProperties> CharacterisationAhead::take(
    const std::vector<std::vector<double>>& points, const Characterise& rest, Use* use) {
  std::vector<StationaryPointProperties> out(points.size());
  std::vector<std::size_t> missing;
  std::vector<std::vector<double>> others;
  std::unique_lock<std::mutex> lock(m_lock);
  pause(lock);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto done = m_done.find(keyOf(points[i]));
    if (done != m_done.end()) {
      out[i] = done->second.properties;
    } else {
      missing.push_back(i);
      others.push_back(points[i]);
    }
  }
  if (use) *use = {points.size(), points.size() - missing.size()};
  if (others.empty()) return out;
  ++m_held;  // the worker stays out while `rest` runs (allow may come from ending runs)
  lock.unlock();
  std::vector<StationaryPointProperties> computed;
  try {
    computed = rest(others);
  } catch (...) {
    lock.lock();
    --m_held;
    throw;
  }
  lock.lock();
  --m_held;
  m_changed.notify_all();
  for (std::size_t k = 0; k < missing.size() && k < computed.size(); ++k)
    out[missing[k]] = std::move(computed[k]);
  if (computed.size() != missing.size()) out.resize(0);  // as rest said: the caller checks sizes
  return out;
}

void CharacterisationAhead::know(std::vector<double> energies) {
  std::unique_lock<std::mutex> lock(m_lock);
  pause(lock);
  std::sort(energies.begin(), energies.end());
  m_energies = std::move(energies);
  // What matches the network now was merged (or duplicates what was): not needed again.
  for (auto d = m_done.begin(); d != m_done.end();)
    d = isKnown(d->second.energy) ? m_done.erase(d) : std::next(d);
  m_waiting.erase(std::remove_if(m_waiting.begin(), m_waiting.end(),
                                 [this](const Point& p) { return isKnown(p.energy); }),
                  m_waiting.end());
  std::vector<double> pending;
  for (const auto& d : m_done) pending.push_back(d.second.energy);
  for (const Point& p : m_waiting) pending.push_back(p.energy);
  for (double e : pending)
    m_energies.insert(std::upper_bound(m_energies.begin(), m_energies.end(), e), e);
}

}  // namespace landscape
