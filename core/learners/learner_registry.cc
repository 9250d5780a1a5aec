#include "core/learners/learner_registry.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <iterator>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <stdexcept>

#include "core/learners/learner_entries.h"

namespace geotrain {

void check_model_size(const std::string& what, double params) {
  if (params > kMaxModelParams)
    throw std::invalid_argument(what + " of " + std::to_string(std::llround(params / 1e6)) +
                                "M parameters: more than the " + std::to_string(std::llround(kMaxModelParams / 1e6)) +
                                "M geotrain trains (each role keeps copies)");
}

ComponentDoc learner_doc(const LearnerInfo& l) {
  ComponentDoc d = numeric_doc(l.doc.name, l.doc.description, l.params);
  d.params.insert(d.params.begin(), l.doc.params.begin(), l.doc.params.end());
  return d;
}

const std::vector<LearnerInfo>& builtin_learners() {
  // One family's entries after another (each family's file says what its entries are).
  static const std::vector<LearnerInfo> registry = [] {
    std::vector<LearnerInfo> all;
    for (auto family : {gradient_descent_learners, reinforcement_learners, mapreduce_learners, ensemble_learners,
                        online_learners, support_vector_learners, incremental_learners, workload_learners}) {
      std::vector<LearnerInfo> entries = family();
      all.insert(all.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    }
    return all;
  }();
  return registry;
}

namespace {

// The learners added at run time: a deque, so that adding one moves none.
struct Registered {
  std::shared_mutex mutex;
  std::deque<LearnerInfo> entries;
};

Registered& registered() {
  static Registered r;
  return r;
}

void check_entry(const LearnerInfo& l) {
  const std::string& name = l.doc.name;
  const auto bad = [&](const std::string& why) {
    throw std::invalid_argument("register_learner(\"" + name + "\"): " + why);
  };
  if (name.empty()) bad("the name is empty");
  for (char c : name)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
          c == '_'))
      bad("expected a name of lower-case letters, digits, '-' and '_' (it is written as a scenario's model.kind)");
  if (!l.make) bad("no factory (make)");
  if (l.metrics.empty()) bad("no metrics (the first is the run's primary metric)");
  if (l.data.empty()) bad("no dataset kinds it learns from (data)");
  std::set<std::string> seen;
  for (const auto& p : l.params) {
    if (!seen.insert(p.name).second) bad("parameter '" + p.name + "' is named twice");
    if (p.min > p.max || p.default_value < p.min || p.default_value > p.max)
      bad("parameter '" + p.name + "': its default is outside [min, max]");
  }
}

}  // namespace

std::vector<const LearnerInfo*> learners() {
  std::vector<const LearnerInfo*> out;
  for (const auto& l : builtin_learners()) out.push_back(&l);
  Registered& r = registered();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  for (const auto& l : r.entries) out.push_back(&l);
  return out;
}

const LearnerInfo* find_learner(const std::string& name) {
  for (const LearnerInfo* l : learners())
    if (l->doc.name == name) return l;
  return nullptr;
}

std::vector<std::string> learner_names() {
  std::vector<std::string> out;
  for (const LearnerInfo* l : learners()) out.push_back(l->doc.name);
  return out;
}

void register_learner(LearnerInfo info) {
  check_entry(info);
  Registered& r = registered();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  const auto taken = [&](const LearnerInfo& l) { return l.doc.name == info.doc.name; };
  if (std::any_of(builtin_learners().begin(), builtin_learners().end(), taken) ||
      std::any_of(r.entries.begin(), r.entries.end(), taken))
    throw std::invalid_argument("register_learner(\"" + info.doc.name + "\"): a learner of that name exists");
  r.entries.push_back(std::move(info));
}

}  // namespace geotrain
