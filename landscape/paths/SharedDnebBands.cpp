#include "landscape/paths/SharedDnebBands.h"

namespace landscape {

// A run's endpoint alignments: one request per align().
class SharedAlignmentView : public BatchedAlignment {
 public:
  SharedAlignmentView(SharedDnebBands& shared, SharedBatchedPotential::Member& member)
      : m_shared(shared), m_member(member) {}
  std::string name() const override { return m_shared.m_alignment->name() + ", shared"; }
  void align(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
             std::vector<AlignmentResult>& out) override {
    if (!batchedAlignmentFits(params))
      throw std::invalid_argument(
          "shared batched alignment: clusters only (no permutation groups, no periodic box)");
    m_shared.m_alignmentCalls->submit(params, pairs, out, m_member);
  }

 private:
  SharedDnebBands& m_shared;
  SharedBatchedPotential::Member& m_member;
};

// A run's view: one request per relax().
class SharedBandView : public DnebBands {
 public:
  SharedBandView(SharedDnebBands& shared, SharedBatchedPotential::Member& member)
      : m_shared(shared), m_member(member) {
    if (shared.m_alignment) m_alignment = std::make_unique<SharedAlignmentView>(shared, member);
  }
  std::size_t imageSize() const override { return m_shared.imageSize(); }
  std::string name() const override { return m_shared.name(); }
  void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
             std::vector<DnebRelaxedBand>& out) override {
    checkDnebBandJobs(jobs);
    m_shared.m_calls.submit(params, jobs, out, m_member);
  }
  BatchedAlignment* endpointAlignment() override { return m_alignment.get(); }

 private:
  SharedDnebBands& m_shared;
  SharedBatchedPotential::Member& m_member;
  std::unique_ptr<SharedAlignmentView> m_alignment;
};

SharedDnebBands::SharedDnebBands(DnebBands& bands, BatchedAlignment* alignment)
    : m_bands(bands),
      m_alignment(alignment),
      m_calls({[&bands](const DnebParams& params, const std::vector<DnebBandJob>& jobs,
                        std::vector<DnebRelaxedBand>& out) { bands.relax(params, jobs, out); }},
              &sameDnebBandSettings) {
  if (alignment)
    m_alignmentCalls = std::make_unique<AlignmentCalls>(
        std::vector<AlignmentCalls::Call>{[alignment](const AlignmentParams& params,
                                                      const std::vector<AlignmentPair>& pairs,
                                                      std::vector<AlignmentResult>& out) {
          alignment->align(params, pairs, out);
        }},
        &sameAlignmentSettings);
}

SharedCallStatistics SharedDnebBands::alignmentStatistics() const {
  return m_alignmentCalls ? m_alignmentCalls->statistics() : SharedCallStatistics{};
}

std::unique_ptr<DnebBands> SharedDnebBands::view(SharedBatchedPotential::Member& member) {
  return std::make_unique<SharedBandView>(*this, member);
}

std::unique_ptr<BatchedAlignment> SharedDnebBands::alignmentView(
    SharedBatchedPotential::Member& member) {
  if (!m_alignment) return nullptr;
  return std::make_unique<SharedAlignmentView>(*this, member);
}

}  // namespace landscape
