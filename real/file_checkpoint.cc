#include "real/file_checkpoint.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/base/atomic_file.h"
#include "core/run/results.h"

namespace geotrain::real {
namespace {

using nlohmann::json;

json params_json(const ParamSet& p) {
  json a = json::array();
  for (const auto& b : p) {
    std::vector<std::uint8_t> bytes(sizeof(float) * std::size_t(b.values.size()));
    if (!bytes.empty()) std::memcpy(bytes.data(), b.values.data(), bytes.size());
    a.push_back({{"key", b.key}, {"v", json::binary(std::move(bytes))}});
  }
  return a;
}

ParamSet params_from(const json& a) {
  ParamSet p;
  for (const auto& e : a) {
    const auto& bytes = e["v"].get_binary();
    ParamBlock b{e["key"].get<std::uint32_t>(), Eigen::VectorXf(Eigen::Index(bytes.size() / sizeof(float)))};
    if (!bytes.empty()) std::memcpy(b.values.data(), bytes.data(), bytes.size());
    p.push_back(std::move(b));
  }
  return p;
}

std::vector<std::uint8_t> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

FileCheckpointStore::FileCheckpointStore(std::string dir) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
  log_ = std::fopen((dir_ + "/global.log").c_str(), "ab");
  if (log_ == nullptr) throw std::runtime_error(dir_ + "/global.log: cannot open for append");
}

FileCheckpointStore::~FileCheckpointStore() {
  if (log_) std::fclose(log_);
}

void FileCheckpointStore::log_round(const LoggedRound& r) {
  json j = {{"round", r.round}, {"update", params_json(r.mean_update)}, {"loss", r.train_loss}};
  if (r.contributors > 0) j["contributors"] = r.contributors;
  if (r.evaluation) j["eval"] = timeline_row_json(*r.evaluation);
  const std::vector<std::uint8_t> rec = json::to_cbor(j);
  const std::uint32_t n = std::uint32_t(rec.size());
  if (std::fwrite(&n, sizeof n, 1, log_) != 1 || std::fwrite(rec.data(), 1, rec.size(), log_) != rec.size() ||
      std::fflush(log_) != 0)
    throw std::runtime_error(dir_ + "/global.log: write failed");
}

void FileCheckpointStore::save(const ServerSnapshot& s) {
  json j = {{"rounds", s.rounds}, {"params", params_json(s.params)}, {"steps", s.optimizer.steps}};
  j["slots"] = json::array();
  for (const auto& slot : s.optimizer.slots) j["slots"].push_back(params_json(slot));
  j["timeline"] = json::array();
  for (const auto& r : s.timeline) j["timeline"].push_back(timeline_row_json(r));
  j["time_to_target_s"] = s.time_to_target_s ? json(*s.time_to_target_s) : json(nullptr);
  const auto bytes = json::to_cbor(j);
  write_file_atomically(dir_ + "/global.snap", std::string(bytes.begin(), bytes.end()));
  // Rounds up to the snapshot are in it; the log starts afresh.
  std::fclose(log_);
  log_ = std::fopen((dir_ + "/global.log").c_str(), "wb");
  if (log_ == nullptr) throw std::runtime_error(dir_ + "/global.log: cannot reopen");
}

std::optional<ServerSnapshot> FileCheckpointStore::load_snapshot() {
  const auto bytes = read_all(dir_ + "/global.snap");
  if (bytes.empty()) return std::nullopt;
  const json j = json::from_cbor(bytes);
  ServerSnapshot s;
  s.rounds = j["rounds"];
  s.params = params_from(j["params"]);
  s.optimizer.steps = j["steps"];
  for (const auto& slot : j["slots"]) s.optimizer.slots.push_back(params_from(slot));
  for (const auto& r : j["timeline"]) s.timeline.push_back(timeline_row_from_json(r));
  if (!j["time_to_target_s"].is_null()) s.time_to_target_s = j["time_to_target_s"].get<double>();
  return s;
}

std::vector<LoggedRound> FileCheckpointStore::load_log() {
  std::fflush(log_);
  const auto bytes = read_all(dir_ + "/global.log");
  std::vector<LoggedRound> out;
  std::size_t pos = 0;
  while (pos + 4 <= bytes.size()) {
    std::uint32_t n;
    std::memcpy(&n, bytes.data() + pos, 4);
    if (pos + 4 + n > bytes.size()) break;  // torn last record
    const json j = json::from_cbor(bytes.begin() + long(pos + 4), bytes.begin() + long(pos + 4 + n));
    LoggedRound r;
    r.round = j["round"];
    r.mean_update = params_from(j["update"]);
    r.contributors = j.value("contributors", 0);
    r.train_loss = j["loss"];
    if (j.contains("eval")) r.evaluation = timeline_row_from_json(j["eval"]);
    out.push_back(std::move(r));
    pos += 4 + n;
  }
  return out;
}

}  // namespace geotrain::real
