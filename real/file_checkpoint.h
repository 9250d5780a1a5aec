// The global server's CheckpointStore on disk (OUT/checkpoint/): a snapshot
// file replaced atomically (write, then rename) and an append-only log of the
// rounds applied since, one length-prefixed CBOR record per round, flushed to
// the kernel before the round is acknowledged (it survives the process being
// killed; a torn last record is ignored on load).
#pragma once
#include <cstdio>
#include <string>

#include "core/run/checkpoint.h"

namespace geotrain::real {

class FileCheckpointStore : public CheckpointStore {
 public:
  explicit FileCheckpointStore(std::string dir);
  ~FileCheckpointStore() override;
  void log_round(const LoggedRound& r) override;
  void save(const ServerSnapshot& s) override;
  std::optional<ServerSnapshot> load_snapshot() override;
  std::vector<LoggedRound> load_log() override;

 private:
  std::string dir_;
  std::FILE* log_ = nullptr;
};

}  // namespace geotrain::real
