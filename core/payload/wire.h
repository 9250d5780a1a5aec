// Byte encoding of a Message for real networks (simulation never serialises).
// Layout, little-endian: u8 kind, u8 channel, i32 priority, i32 from, i32 to, i32 origin, i32 dest,
// i64 round, u32 seq, u16 part, u16 parts, f64 step_s, f64 transfer_s, f64 sent_s, u8 has_payload, then if present: f64
// loss_sum, i32 contributors, u8 flags (bit 0: from_zero; the others zero), u32 dense block count, u32 coded block
// count, per dense block: u32 key, u32 n, n x f32; per coded block: u32 key, u32 n, u8 codec id, u32 byte count, the
// codec's bytes (checked by that codec: core/codec/codec_registry.h). Keys ascend in each list and no key is in both.
// decode() validates every length against the buffer and throws WireError on anything malformed: a hostile peer cannot
// make it read out of bounds.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/payload/message.h"

namespace geotrain {

class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The encoding as byte spans in order, for gather writes that never copy a
// tensor: small pieces (ids, block headers) live in `owned`; float data is
// referenced in place inside `payload`, which this object keeps alive.
struct ByteSpans {
  std::vector<std::vector<std::uint8_t>> owned;
  std::vector<std::pair<const std::uint8_t*, std::size_t>> spans;
  std::shared_ptr<const Payload> payload;
  std::size_t size() const;
  static ByteSpans of(std::vector<std::uint8_t> bytes);  // one owned buffer
};

// Bytes of the fixed part every message has (kind, channel, priority, ids, round, parts, timings, payload flag).
constexpr std::uint64_t kMessageHeaderBytes = 1 + 1 + 4 + 4 + 4 + 4 + 4 + 8 + 4 + 2 + 2 + 8 + 8 + 8 + 1;
// kBlockHeaderBytes and kCodedHeaderBytes: core/codec/coded_block.h.
constexpr std::uint64_t kPayloadHeaderBytes = 8 + 4 + 1 + 4 + 4;  // loss, contributors, flags, block counts
// The longest tensor a coded block may claim (1 GiB of floats; VGG-16's largest is 103 M entries).
// A dense block is bounded by its bytes, but a coded one names a length its
// decoder allocates: unbounded, one corrupt or hostile header would ask for 16 GB.
constexpr std::uint32_t kMaxCodedTensorElements = std::uint32_t(1) << 28;
// What encode_message writes for a message carrying `p` (null: none): the one
// definition of a message's cost, which make_message() charges in every runtime.
// A workload profile's stand-in block is charged for the tensor it stands for
// (profiles run only in simulation, which never serialises).
std::uint64_t wire_size(const Payload* p);
// The same for a message carrying `blocks` densely (e.g. the whole model).
std::uint64_t dense_wire_bytes(const ParamSet& blocks);

ByteSpans encode_message_spans(const Message& m);
// The same bytes, contiguous.
std::vector<std::uint8_t> encode_message(const Message& m);
Message decode_message(const std::uint8_t* data, std::size_t size);

// Incremental decoding straight into the destination tensors, for receivers
// that want no intermediate buffer: ask prepare() where the next bytes go
// (never past the current field), write at most that many there, commit().
// Same validation as decode_message (WireError).
class MessageAssembler {
 public:
  explicit MessageAssembler(std::size_t total);
  std::pair<std::uint8_t*, std::size_t> prepare();
  void commit(std::size_t n);
  bool done() const { return consumed_ == total_ && state_ == State::kDone; }
  Message take();  // REQUIRES: done()

 private:
  enum class State { kFixed, kPayloadHeader, kBlockHeader, kBlockData, kCodedHeader, kCodedData, kDone };
  void field_complete();
  void next_block();            // after a block's header or data: the next header, or done
  void check_coded();           // the coded block just read, by its codec (WireError)
  void check_arrived_values();  // the dense block's floats that arrived since the last check
  std::size_t total_, consumed_ = 0;
  State state_ = State::kFixed;
  std::uint8_t small_[64];  // the largest fixed field group (the message header)
  std::size_t small_want_, small_have_ = 0;
  std::uint8_t* data_ = nullptr;
  std::size_t data_left_ = 0;
  // Dense block values are checked for non-finite floats as they arrive, while
  // they are still in cache: a second pass over a 100 MB block costs more than its copy.
  std::size_t block_checked_ = 0;  // bytes of the current block's data checked so far
  std::uint32_t blocks_left_ = 0, coded_left_ = 0;
  std::int64_t last_key_ = -1;  // keys ascend in each list
  Message msg_;
  std::shared_ptr<Payload> payload_;
};

}  // namespace geotrain
