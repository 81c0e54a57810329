#include "landscape/paths/SharedDnebBands.h"

namespace landscape {

// A run's view: one request per relax().
class SharedBandView : public DnebBands {
 public:
  SharedBandView(SharedDnebBands& shared, SharedBatchedPotential::Member& member)
      : m_shared(shared), m_member(member) {}
  std::size_t imageSize() const override { return m_shared.imageSize(); }
  std::string name() const override { return m_shared.name(); }
  void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
             std::vector<DnebRelaxedBand>& out) override {
    checkDnebBandJobs(jobs);
    m_shared.m_calls.submit(params, jobs, out, m_member);
  }

 private:
  SharedDnebBands& m_shared;
  SharedBatchedPotential::Member& m_member;
};

SharedDnebBands::SharedDnebBands(DnebBands& bands)
    : m_bands(bands),
      m_calls({[&bands](const DnebParams& params, const std::vector<DnebBandJob>& jobs,
                        std::vector<DnebRelaxedBand>& out) { bands.relax(params, jobs, out); }},
              &sameDnebBandSettings) {}

std::unique_ptr<DnebBands> SharedDnebBands::view(SharedBatchedPotential::Member& member) {
  return std::make_unique<SharedBandView>(*this, member);
}

}  // namespace landscape
