#include "core/roles/role_context.h"

namespace geotrain {

const char* stream_name(Tier t, bool push) {
  if (t == Tier::kLan) return push ? "lan_push" : "lan_pull";
  return push ? "wan_push" : "wan_pull";
}

void report_stream(nlohmann::json& report, const char* name, const StreamEncoder& s) {
  if (s.bytes().payloads == 0) return;
  report["streams"][name] = {{"codec", s.kind()},
                             {"payloads", s.bytes().payloads},
                             {"dense_bytes", s.bytes().dense_bytes},
                             {"sent_bytes", s.bytes().sent_bytes}};
  // [time_s, payloads, dense_bytes, sent_bytes] after each distinct time's payloads: the timeline's per-stream bytes.
  nlohmann::json h = nlohmann::json::array();
  for (const StreamSample& x : s.history())
    h.push_back({to_seconds(x.t), x.total.payloads, x.total.dense_bytes, x.total.sent_bytes});
  report["streams"][name]["history"] = std::move(h);
}

namespace {
const CodecChoice& chosen(const CompressionSpec& c, Tier t, bool push) {
  return t == Tier::kLan ? (push ? c.lan_push : c.lan_pull) : (push ? c.wan_push : c.wan_pull);
}

StreamEncoder stream(const RoleContext& ctx, const NodeSpec& me, Tier t, bool push, const CodecChoice& choice,
                     std::uint64_t dense_below) {
  // Every sender's stream draws its own random numbers, fixed by the seed.
  const std::uint64_t seed =
      ctx.seed * 0x9E3779B97F4A7C15ull + std::uint64_t(me.id) * 4 + (t == Tier::kWan ? 2 : 0) + (push ? 1 : 0);
  StreamEncoder s(choice, {t, seed, dense_below}, /*fresh=*/!push);
  if (ctx.records) s.attach(*ctx.records, stream_name(t, push));
  return s;
}
}  // namespace

StreamEncoder RoleContext::push_stream(const NodeSpec& me) const {
  const Tier t = me.parent >= 0 ? tier(me.id, me.parent) : Tier::kLan;
  return stream(*this, me, t, true, chosen(compression, t, true), compression.dense_below);
}

StreamEncoder RoleContext::pull_stream(const NodeSpec& me, Tier t) const {
  const CodecChoice& choice = chosen(compression, t, false);
  if (choice.kind == "none" && me.role == Role::kGlobalServer && policy->pulls_changes())
    return stream(*this, me, t, false, CodecChoice{"sparse", {}}, 0);  // every tensor: only what changed
  return stream(*this, me, t, false, choice, compression.dense_below);
}

bool RoleContext::pulls_changes(const NodeSpec& me) const {
  if (me.parent < 0) return false;
  if (chosen(compression, tier(me.id, me.parent), false).kind != "none") return true;
  // The global server's policy may pull changes (Gaia; a local server holds its instance).
  return parent_policy && parent_policy->pulls_changes();
}

}  // namespace geotrain
