// The learner registry's entries for workload profiles: stand-ins for traffic and time
// (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"
#include "core/learners/profile_file.h"
#include "core/learners/profile_model.h"
#include "core/learners/workload_profiles.h"

namespace geotrain {
namespace {

LearnerCaps profile_caps() {
  LearnerCaps c;  // stand-ins: nothing to cut, filter or send for real; metrics not modelled
  c.cuttable = c.values_meaningful = c.real_mode = c.metrics_modelled = false;
  return c;
}

}  // namespace

std::vector<LearnerInfo> workload_learners() {
  return {
      {{"profile",
        "a workload profile: a published model's tensor sizes and compute, for traffic and time studies "
        "(metrics not modelled; simulation only)",
        {{"profile", "(this or file)", "resnet50 | vgg16 | bert-base | gpt2-small | mlp-quickstart | softmax-fashion"},
         {"file", "(this or profile)",
          "or your own model: a profile file (scenarios/profile.schema.json), relative to the scenario's "
          "folder"}}},
       "workload",
       {"labelled"},
       {},
       classifier_metrics(),
       profile_caps(),
       [](JsonReader& r, ModelSpec& m) {
         if (r.has("file") == r.has("profile"))
           r.fail("profile", "expected either \"profile\" (a built-in profile) or \"file\" (your own), not both");
         if (r.has("file")) {
           m.profile_file = resolve_path(r.file(), r.string("file", std::nullopt));
           m.profile = load_profile_file(m.profile_file).name;  // checked now: errors at load time, exit 2
           return;
         }
         std::vector<std::string> names;
         for (const auto& p : workload_profiles()) names.push_back(p.name);
         m.profile = r.string("profile", std::nullopt, names);
       },
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<ProfileModel>(
             m.profile_file.empty() ? *find_profile(m.profile) : load_profile_file(m.profile_file), classes_of(d));
       }},
  };
}

}  // namespace geotrain
