#pragma once
// What a resumed gmin run must share with the run that wrote the checkpoint, beyond the
// basin-hopping settings: the system, the backends and every move. checkFingerprint
// (landscape/formats/CheckpointFile.h) names the first entry that differs.
#include "landscape/formats/CheckpointFile.h"
#include "landscape/search/BasinHoppingParams.h"
#include "src/GminSystem.h"
#include "src/RunConfig.h"

namespace landscape {

/// params: the basin-hopping settings of this run; containerRadius: the one the search uses.
CheckpointFingerprint gminFingerprint(const GminRunConfig& config, const GminSystem& system,
                                      const BasinHoppingParams& params, double containerRadius);

}  // namespace landscape
