// Which scenarios a learner can run under: its declared capabilities
// (LearnerCaps, in its registry entry) against what the scenario's policy,
// codecs, DGT, P3, MultiGPS, dataset and partition need. The scenario loader
// refuses the first misfit with its JSON path and reason (exit 2); `geotrain
// list` and the tests use the same rules. One place states them.
#pragma once
#include <string>
#include <vector>

#include "core/config/scenario.h"
#include "core/learners/learner_registry.h"

namespace geotrain {

struct Misfit {
  std::string path;    // JSON pointer of the scenario key at fault, e.g. "/compression/wan_push/kind"
  std::string reason;  // a sentence a user can act on
};

// Every misfit of scenario `sc` for learner `l` (empty: it runs).
std::vector<Misfit> learner_misfits(const LearnerInfo& l, const Scenario& sc);
// The policies, and the codecs on its pushes (`pulls`: on its pulls), a learner accepts, by name (for `geotrain list`).
std::vector<std::string> accepted_policies(const LearnerInfo& l);
std::vector<std::string> accepted_codecs(const LearnerInfo& l, bool pulls = false);

}  // namespace geotrain
