#include "core/roles/role_context.h"

namespace geotrain {

const char* stream_name(Tier t, bool push) {
  if (t == Tier::kLan) return push ? "lan_push" : "lan_pull";
  return push ? "wan_push" : "wan_pull";
}

void report_stream(nlohmann::json& report, const char* name, const StreamEncoder& s) {
  if (s.bytes().payloads == 0) return;
  nlohmann::json& j = report["streams"][name];
  j["codec"] = s.kind();
  j["payloads"] = j.value("payloads", std::uint64_t{0}) + s.bytes().payloads;
  j["dense_bytes"] = j.value("dense_bytes", std::uint64_t{0}) + s.bytes().dense_bytes;
  j["sent_bytes"] = j.value("sent_bytes", std::uint64_t{0}) + s.bytes().sent_bytes;
}

namespace {
StreamEncoder stream(const RoleContext& ctx, const NodeSpec& me, Tier t, bool push, bool fresh = false) {
  const CompressionSpec& c = ctx.compression;
  const CodecChoice& choice = t == Tier::kLan ? (push ? c.lan_push : c.lan_pull) : (push ? c.wan_push : c.wan_pull);
  // Every sender's stream draws its own random numbers, fixed by the seed.
  const std::uint64_t seed =
      ctx.seed * 0x9E3779B97F4A7C15ull + std::uint64_t(me.id) * 4 + (t == Tier::kWan ? 2 : 0) + (push ? 1 : 0);
  return StreamEncoder(choice, {t, seed, c.dense_below}, fresh);
}
}  // namespace

StreamEncoder RoleContext::push_stream(const NodeSpec& me) const {
  return stream(*this, me, me.parent >= 0 ? tier(me.id, me.parent) : Tier::kLan, true);
}

StreamEncoder RoleContext::pull_stream(const NodeSpec& me, Tier t, bool fresh) const {
  return stream(*this, me, t, false, fresh);
}

bool RoleContext::pulls_changes(const NodeSpec& me) const {
  if (me.parent < 0) return false;
  const Tier t = tier(me.id, me.parent);
  const CodecChoice& c = t == Tier::kLan ? compression.lan_pull : compression.wan_pull;
  if (c.kind != "none") return true;
  // The global server's policy may pull changes (Gaia; a local server holds its instance).
  return parent_policy && parent_policy->pulls_changes();
}

}  // namespace geotrain
