#include "core/config/learner_fit.h"

#include <algorithm>

#include "core/data/dataset_registry.h"
#include "core/policies/policy_registry.h"

namespace geotrain {
namespace {

void policy_misfits(const LearnerInfo& l, const PolicyInfo& p, const PolicyParams& params, std::vector<Misfit>& out) {
  const LearnerCaps& c = l.caps;
  const PolicyNeeds n = policy_needs(p, params);
  const std::string who = l.doc.name + " ";
  if (n.stale_updates && !c.stale_ok)
    out.push_back(
        {"/policy/kind", who +
                             "needs every round to merge all workers' answers to the same model (its phases are "
                             "locked): " +
                             p.name + " applies stale updates; use bsp"});
  if (n.model_averaging && !c.model_averaging)
    out.push_back({"/policy/kind", who + "cannot average models or push model changes after local steps, which " +
                                       p.name + " does; use bsp"});
  if (n.reads_values && !c.values_meaningful)
    out.push_back({"/policy/kind", who + "has no parameter values for " + p.name + "'s significance filter to read"});
}

void codec_misfit(const LearnerInfo& l, Precision need, const CodecChoice& codec, const std::string& path,
                  std::vector<Misfit>& out) {
  const CodecInfo* info = find_codec(codec.kind);
  if (!info || info->lossless || need == Precision::kAny) return;
  if (need == Precision::kRounding && info->rounds_entries) return;
  if (need == Precision::kRounding)
    out.push_back({path, l.doc.name + " sends statistics (histograms, sums) that every entry of must arrive: " +
                             codec.kind + " drops or re-scales entries; use none, fp16 or a lossless codec"});
  else
    out.push_back({path, l.doc.name +
                             " sends blocks that must arrive exactly (counts, candidates): the "
                             "lossy codec " +
                             codec.kind + " cannot carry them; use none or a lossless codec"});
}

}  // namespace

std::vector<Misfit> learner_misfits(const LearnerInfo& l, const Scenario& sc) {
  std::vector<Misfit> out;
  const LearnerCaps& c = l.caps;
  const std::string dkind = data_kind_of(sc.dataset);
  if (std::find(l.data.begin(), l.data.end(), dkind) == l.data.end()) {
    std::string kinds;
    for (const auto& k : l.data) kinds += (kinds.empty() ? "" : " or ") + k;
    out.push_back({"/dataset/kind", l.doc.name + " learns from " + kinds + " data; dataset " + sc.dataset.kind +
                                        " is " + dkind + " data"});
  }
  if (sc.partition.kind != "iid" && dkind != "labelled")
    out.push_back({"/partition/kind",
                   "partition " + sc.partition.kind + " splits by class label; " + dkind + " data has none: use iid"});
  if (const PolicyInfo* p = find_policy(sc.policy)) policy_misfits(l, *p, sc.policy_params, out);
  codec_misfit(l, c.update_precision, sc.compression.lan_push, "/compression/lan_push/kind", out);
  codec_misfit(l, c.update_precision, sc.compression.wan_push, "/compression/wan_push/kind", out);
  codec_misfit(l, c.model_precision, sc.compression.lan_pull, "/compression/lan_pull/kind", out);
  codec_misfit(l, c.model_precision, sc.compression.wan_pull, "/compression/wan_pull/kind", out);
  if (sc.dgt.on() && (!c.cuttable || c.update_precision != Precision::kAny))
    out.push_back({"/dgt", l.doc.name + (c.cuttable ? " sends blocks that must arrive exactly: DGT may zero-fill them"
                                                    : " has tensors that cannot be cut into parts (dgt)")});
  if (sc.p3.on() && !c.cuttable)
    out.push_back({"/p3", l.doc.name + " has tensors that cannot be cut into slices (p3)"});
  if (sc.multigps.servers > 1 && !c.cuttable)
    out.push_back({"/multigps", l.doc.name + " has tensors that cannot be cut across servers (multigps)"});
  return out;
}

std::vector<std::string> accepted_policies(const LearnerInfo& l) {
  std::vector<std::string> out;
  for (const auto& p : policy_registry()) {
    std::vector<Misfit> m;
    policy_misfits(l, p, default_params(p), m);
    if (m.empty()) out.push_back(p.name);
  }
  return out;
}

std::vector<std::string> accepted_codecs(const LearnerInfo& l, bool pulls) {
  std::vector<std::string> out;
  for (const auto& c : codec_registry()) {
    std::vector<Misfit> m;
    codec_misfit(l, pulls ? l.caps.model_precision : l.caps.update_precision, CodecChoice{c.doc.name, {}}, "", m);
    if (m.empty()) out.push_back(c.doc.name);
  }
  return out;
}

}  // namespace geotrain
