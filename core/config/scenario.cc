#include "core/config/scenario.h"

#include <algorithm>
#include <cmath>

#include "core/base/text.h"
#include "core/codec/codec_registry.h"
#include "core/config/learner_fit.h"
#include "core/config/network_models.h"
#include "core/config/stack_fit.h"
#include "core/data/dataset_registry.h"
#include "core/learners/learner_registry.h"
#include "core/optim/optimizer_registry.h"
#include "core/policies/policy_registry.h"
#include "core/topology/deployment.h"

namespace geotrain {
namespace {

bool has_metric(const LearnerInfo& l, const std::string& name) {
  for (const auto& m : l.metrics)
    if (m.name == name) return true;
  return false;
}

// `sets` are the --set assignments under "topology.", applied to the topology
// itself (a referenced file or the inline object), with the prefix removed.
Topology read_topology_ref(JsonReader& r, const std::string& scenario_file, nlohmann::json* resolved,
                           const std::vector<std::string>& sets) {
  const nlohmann::json& ref = r.raw("topology");
  if (ref.is_string()) {
    std::string p = ref.get<std::string>();
    p = resolve_path(scenario_file, p);
    nlohmann::json tj;
    try {
      tj = load_json_file(p);
    } catch (const ConfigError& e) {
      r.fail("topology", std::string("cannot load topology: ") + e.what());
    }
    for (const auto& a : sets) apply_set(tj, a);
    JsonReader tr(tj, p, "", resolved);
    return read_topology(tr);
  }
  if (ref.is_object()) {
    nlohmann::json tj = ref;
    for (const auto& a : sets) apply_set(tj, a);
    JsonReader tr(tj, r.file(), r.pointer("topology"), resolved);
    return read_topology(tr);
  }
  r.fail("topology", ref.is_null() ? "missing required topology (a file path relative to the scenario, or an object)"
                                   : "expected a file path or an object");
}

void read_model(JsonReader r, ModelSpec& m) {
  m.kind = r.string("kind", {}, learner_names());
  const LearnerInfo& l = *find_learner(m.kind);
  if (l.read) l.read(r, m);
  m.params = read_numeric_params(r, l.params);
  r.finish();
}

void read_dataset(JsonReader r, DatasetSpec& d) {
  d.kind = r.string("kind", {}, entry_names(dataset_registry()));
  find_entry(dataset_registry(), d.kind)->read(r, d);
  r.finish();
}

void read_partition(JsonReader r, PartitionSpec& p) {
  p.kind = r.string("kind", "iid", {"iid", "by_class", "dirichlet"});
  p.level = r.string("level", "worker", {"worker", "dc"});
  if (p.kind == "by_class") p.classes_per_unit = int(r.integer("classes_per_unit", 2, 1, 1000));
  if (p.kind == "dirichlet") p.alpha = r.positive("alpha", 0.5);
  r.finish();
}

void read_optimizer(JsonReader r, OptimizerSpec& o) {
  o.kind = r.string("kind", "sgd", entry_names(optimizer_registry()));
  find_entry(optimizer_registry(), o.kind)->read(r, o);
  r.finish();
}

void read_network(JsonReader r, NetworkSpec& n) {
  n.model = r.string("model", n.model, entry_names(network_model_registry()));
  n.segment_bytes = int(r.integer("segment_bytes", n.segment_bytes, 536, 65000));
  n.tcp_buffer_bytes = r.integer("tcp_buffer_bytes", 0, 0, std::int64_t(1) << 29);  // ns-3: 32-bit, window < 1 GiB
  n.initial_cwnd_bytes = int(r.integer("initial_cwnd_bytes", n.initial_cwnd_bytes, 536, 1 << 26));
  n.queue_bytes = r.integer("queue_bytes", 0, 0, std::int64_t(1) << 31);
  n.min_rto_ms = r.number("min_rto_ms", n.min_rto_ms, 1, 60000);
  r.finish();
}

void read_compute(JsonReader r, ComputeSpec& c, int workers) {
  c.jitter = r.number("jitter", 0.0, 0, 0.99);
  for (auto& s : r.objects("stragglers")) {
    Straggler st;
    st.worker = int(s.integer("worker", {}, 0, workers - 1));
    st.from_s = s.number("from_s", 0.0, 0);
    st.to_s = s.number("to_s", 1e300, st.from_s);
    st.slowdown = s.number("slowdown", {}, 1e-3, 1e6);
    s.finish();
    c.stragglers.push_back(st);
  }
  r.finish();
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets) {
  return read_scenario(load_json_file(path), path, sets);
}

namespace {

void read_codec(JsonReader r, CodecChoice& c) {
  const CodecInfo* info = find_codec(r.string("kind", "none", entry_names(codec_registry())));
  c.kind = info->doc.name;
  c.params = read_numeric_params(r, info->params);
  r.finish();
}

void read_compression(JsonReader r, CompressionSpec& c) {
  read_codec(r.object_or_empty("lan_push"), c.lan_push);
  read_codec(r.object_or_empty("lan_pull"), c.lan_pull);
  read_codec(r.object_or_empty("wan_push"), c.wan_push);
  read_codec(r.object_or_empty("wan_pull"), c.wan_pull);
  c.dense_below = std::uint64_t(r.integer("dense_below", 200000, 0, std::int64_t(1) << 40));
  r.finish();
}

void read_dgt(JsonReader r, DgtSpec& d) {
  const DgtSpec def;  // the defaults live in the struct, once
  d.mode = int(r.integer("mode", def.mode, 0, 3));
  d.k = r.number("k", def.k, 0, 1);
  d.k_min = r.number("k_min", std::min(def.k_min, d.k), 0, 1);
  if (d.k_min > d.k) r.fail("k_min", "must not exceed k");
  d.adaptive = r.boolean("adaptive", def.adaptive);
  d.channels = int(r.integer("channels", def.channels, 1, 7));
  d.alpha = r.number("alpha", def.alpha, 0, 1);
  d.block_bytes = int(r.integer("block_bytes", def.block_bytes, 8, 1 << 20));
  if (d.block_bytes % 4 != 0) r.fail("block_bytes", "must be a multiple of 4 (whole fp32 entries)");
  d.deadline_ms = r.number("deadline_ms", def.deadline_ms, 0, 1e6);
  d.rate_fraction = r.number("rate_fraction", def.rate_fraction, 0.01, 1);
  r.finish();
}

void read_scheduler(JsonReader r, SchedulerChoice& c) {
  const SchedulerInfo* info = find_scheduler(r.string("kind", "direct", entry_names(scheduler_registry())));
  c.kind = info->doc.name;
  c.params = read_numeric_params(r, info->params);
  r.finish();
}

void read_schedule(JsonReader r, ScheduleSpec& s) {
  read_scheduler(r.object_or_empty("lan"), s.lan);
  read_scheduler(r.object_or_empty("wan"), s.wan);
  r.finish();
}

void read_p3(JsonReader r, P3Spec& p) {
  const P3Spec def;
  p.slice_elements = std::uint64_t(r.integer("slice_elements", std::int64_t(def.slice_elements), 0, 1 << 30));
  p.forward_fraction = r.number("forward_fraction", def.forward_fraction, 0, 1);
  r.finish();
}

void read_multigps(JsonReader r, MultiGpsSpec& m) {
  const MultiGpsSpec def;
  m.servers = int(r.integer("servers", def.servers, 1, 64));
  m.split_above = std::uint64_t(r.integer("split_above", std::int64_t(def.split_above), 1, std::int64_t(1) << 40));
  r.finish();
}

}  // namespace

Scenario read_scenario(nlohmann::json j, const std::string& path, const std::vector<std::string>& sets) {
  std::vector<std::string> topo_sets;
  for (const auto& s : sets) {
    if (s.rfind("topology.", 0) == 0)
      topo_sets.push_back(s.substr(9));
    else
      apply_set(j, s);
  }
  Scenario sc;
  sc.file = path;
  JsonReader r(j, path, "", &sc.resolved);
  r.raw("$schema");
  sc.name = r.string("name", {});
  sc.description = r.string("description", "");
  sc.topology = read_topology_ref(r, path, &sc.resolved["topology"], topo_sets);
  sc.seed = std::uint64_t(r.integer("seed", 1, 0, std::int64_t(1) << 53));  // exact in a JSON double
  read_model(r.object("model"), sc.model);
  read_dataset(r.object("dataset"), sc.dataset);
  for (const auto& f : sc.dataset.per_dc)  // each name a data centre of the topology
    if (std::none_of(sc.topology.dcs.begin(), sc.topology.dcs.end(), [&](const DcSpec& d) { return d.name == f.dc; })) {
      std::vector<std::string> names;
      for (const auto& d : sc.topology.dcs) names.push_back(d.name);
      throw ConfigError(path, "/dataset/per_dc/" + f.dc, "not a data centre of the topology (" + joined(names) + ")");
    }
  read_partition(r.object_or_empty("partition"), sc.partition);
  sc.architecture = r.string("architecture", "hips", entry_names(architecture_registry()));
  {
    JsonReader p = r.object_or_empty("policy");
    const PolicyInfo* info = find_policy(p.string("kind", "bsp", policy_kinds()));
    sc.policy = info->name;
    sc.policy_params = read_numeric_params(p, info->params);
    p.finish();
    if (std::find(info->architectures.begin(), info->architectures.end(), sc.architecture) ==
        info->architectures.end()) {
      std::string archs;
      for (const auto& a : info->architectures) archs += (archs.empty() ? "" : ", ") + a;
      p.fail("kind",
             "policy \"" + info->name + "\" runs under architecture " + archs + ", not \"" + sc.architecture + "\"");
    }
  }
  read_optimizer(r.object("optimizer"), sc.optimizer);
  sc.batch_size = int(r.integer("batch_size", 32, 1, 1 << 20));
  {
    JsonReader s = r.object("stop");
    sc.stop.rounds = s.integer("rounds", 0, 0, 1'000'000'000);
    sc.stop.sim_time_s = s.number("sim_time_s", 0.0, 0, 1e8);  // ns-3 time is int64 ns: ~292 years
    const LearnerInfo& learner = *find_learner(sc.model.kind);
    if (s.has("target_accuracy") && s.has("target")) s.fail("target", "give target or target_accuracy, not both");
    if (s.has("target_accuracy")) {  // the classifiers' shorthand for target {metric: test_accuracy}
      if (!has_metric(learner, "test_accuracy"))
        s.fail("target_accuracy", sc.model.kind + " has no test_accuracy metric: give target {metric, value}");
      sc.stop.target = s.number("target_accuracy", {}, 0, 1);
      sc.stop.target_metric = "test_accuracy";
    }
    if (s.has("target")) {
      JsonReader t = s.object("target");
      std::vector<std::string> names;
      for (const auto& m : learner.metrics) names.push_back(m.name);
      sc.stop.target_metric = t.string("metric", learner.metrics.at(0).name, names);
      sc.stop.target = t.number("value", {});
      t.finish();
    }
    sc.stop.stop_at_target = s.boolean("stop_at_target", false);
    if (sc.stop.stop_at_target && !sc.stop.target) s.fail("stop_at_target", "needs target (or target_accuracy)");
    if (sc.stop.rounds == 0 && sc.stop.sim_time_s == 0 && !sc.stop.stop_at_target)
      s.fail("", "no stop condition: give rounds, sim_time_s, or target with stop_at_target");
    s.finish();
  }
  {
    JsonReader e = r.object_or_empty("eval");
    if (e.has("every_s") && e.has("every_rounds")) e.fail("every_s", "give every_rounds or every_s, not both");
    sc.eval.every_rounds = int(e.integer("every_rounds", 10, 1, 1'000'000'000));
    sc.eval.every_s = e.number("every_s", 0.0, 0, 1e9);
    e.finish();
  }
  read_network(r.object_or_empty("network"), sc.network);
  read_compute(r.object_or_empty("compute"), sc.compute, sc.topology.total_workers());
  read_compression(r.object_or_empty("compression"), sc.compression);
  read_dgt(r.object_or_empty("dgt"), sc.dgt);
  read_schedule(r.object_or_empty("schedule"), sc.schedule);
  read_p3(r.object_or_empty("p3"), sc.p3);
  read_multigps(r.object_or_empty("multigps"), sc.multigps);
  // Which parts of the stack combine (core/config/stack_fit.h), then what the
  // learner cannot run under (core/config/learner_fit.h): the first misfit, at its key.
  for (const auto& misfits : {stack_misfits(sc), learner_misfits(*find_learner(sc.model.kind), sc)})
    if (!misfits.empty()) throw ConfigError(r.file(), misfits.front().path, misfits.front().reason);
  r.finish();
  return sc;
}

Topology load_topology(const std::string& path) {
  nlohmann::json j = load_json_file(path);
  JsonReader r(j, path, "", nullptr);
  return read_topology(r);
}

Deployment plan_deployment(const Scenario& sc) {
  const PolicyInfo* p = find_policy(sc.policy);
  return plan_deployment(sc.topology, sc.architecture,
                         p && p->make(sc.policy_params, Role::kStateServer)->uses_state_server(), sc.multigps.servers);
}

}  // namespace geotrain
