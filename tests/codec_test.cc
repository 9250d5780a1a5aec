// The codec seam: one definition of what a message costs, coded blocks on the
// wire, sums by key, and every decoder rejecting what lies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <set>

#include "core/base/bytes.h"
#include "core/codec/codec_registry.h"
#include "core/codec/fp16.h"
#include "core/codec/segment.h"
#include "core/codec/sparse.h"
#include "core/json/json_text.h"
#include "core/payload/wire.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

Eigen::VectorXf random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d;
  Eigen::VectorXf v(n);
  for (int i = 0; i < n; ++i) v[i] = d(rng);
  return v;
}

// A payload with a dense block and two coded ones (one empty).
std::shared_ptr<Payload> mixed_payload() {
  auto p = std::make_shared<Payload>();
  p->blocks = {{1, random_vector(13, 1)}};
  Eigen::VectorXf x = random_vector(50, 2);
  p->coded.push_back(encode_sparse(2, x, {0, 7, 49}));
  p->coded.push_back(encode_sparse(4, Eigen::VectorXf::Zero(9), {}));
  p->loss_sum = 0.5;
  p->contributors = 3;
  return p;
}

TEST(Codec, EveryMessageKindIsChargedExactlyTheBytesItsEncodingWrites) {
  auto dense = std::make_shared<Payload>();
  dense->blocks = {{0, random_vector(13, 3)}};
  for (int k = 0; k <= int(kLastMsgKind); ++k)
    for (const auto& p : {std::shared_ptr<Payload>(), dense, mixed_payload()}) {
      const Message m = make_message(MsgKind(k), 1, 2, 9, p);
      EXPECT_EQ(encode_message(m).size(), m.wire_bytes) << to_string(MsgKind(k));
      EXPECT_EQ(encode_message_spans(m).size(), m.wire_bytes);
    }
  // The model sent densely, as real mode and the fidelity tests count it.
  EXPECT_EQ(dense_wire_bytes(dense->blocks), make_message(MsgKind::kPullResponse, 0, 1, 0, dense).wire_bytes);
}

TEST(Codec, CodedBlocksRoundTripOnTheWire) {
  const Message m = make_message(MsgKind::kPush, 3, 0, 5, mixed_payload());
  const auto bytes = encode_message(m);
  const Message d = decode_message(bytes.data(), bytes.size());
  ASSERT_TRUE(d.payload);
  ASSERT_EQ(d.payload->coded.size(), 2u);
  EXPECT_EQ(d.wire_bytes, m.wire_bytes);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(d.payload->coded[i].key, m.payload->coded[i].key);
    EXPECT_EQ(d.payload->coded[i].n, m.payload->coded[i].n);
    EXPECT_EQ(d.payload->coded[i].bytes, m.payload->coded[i].bytes);
  }
  EXPECT_EQ(max_abs_diff(densify(*d.payload).blocks, densify(*m.payload).blocks), 0.0f);
}

TEST(Codec, SparseKeepsExactlyTheChosenEntries) {
  const Eigen::VectorXf x = random_vector(50, 2);
  const CodedBlock b = encode_sparse(2, x, {0, 7, 49});
  EXPECT_EQ(b.bytes.size(), 4u + 3 * 8);
  Eigen::VectorXf y = Eigen::VectorXf::Zero(50);
  add_decoded(b, 2.0f, y);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(y[i], (i == 0 || i == 7 || i == 49) ? 2.0f * x[i] : 0.0f) << i;
  Eigen::VectorXf z = x;
  z[3] = 0;
  z[20] = 0;
  Eigen::VectorXf back = Eigen::VectorXf::Zero(50);
  add_decoded(encode_nonzeros(2, z), 1.0f, back);
  EXPECT_EQ((back - z).cwiseAbs().maxCoeff(), 0.0f);
  EXPECT_EQ(sparse_count(encode_nonzeros(2, z)), 48u);
}

TEST(Codec, SumsAddCodedAndDenseBlocksByKey) {
  const auto p = mixed_payload();
  Payload sum = densify(*p);  // keys 1, 2, 4
  ASSERT_EQ(sum.blocks.size(), 3u);
  EXPECT_EQ(sum.blocks[0].key, 1u);
  EXPECT_EQ(sum.blocks[1].key, 2u);
  EXPECT_EQ(sum.blocks[2].key, 4u);
  accumulate(sum, *p);
  EXPECT_EQ(sum.contributors, 6);
  const Payload once = densify(*p);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ((sum.blocks[i].values - 2 * once.blocks[i].values).cwiseAbs().maxCoeff(), 0.0f);
  // A push carrying only some keys adds into those alone.
  Payload partial;
  partial.coded.push_back(encode_sparse(4, Eigen::VectorXf::Ones(9), {8}));
  accumulate(sum, partial);
  EXPECT_EQ(sum.blocks[2].values[8], 1.0f);
  EXPECT_EQ(sum.blocks[2].values.sum(), 1.0f);
  // A key the sum does not have is an error, not a silent loss.
  Payload stranger;
  stranger.coded.push_back(encode_sparse(3, Eigen::VectorXf::Ones(9), {0}));
  EXPECT_THROW(accumulate(sum, stranger), CodecError);
}

void store_count(CodedBlock& b, std::uint32_t k) { store_raw<std::uint32_t>(b.bytes.data(), k); }

// Encodes `m` after `tamper` changed its coded block; decoding must throw WireError.
void expect_rejected(const std::function<void(CodedBlock&)>& tamper, const char* what) {
  auto p = mixed_payload();
  tamper(p->coded[0]);
  const auto bytes = encode_message(make_message(MsgKind::kPush, 3, 0, 5, p));
  EXPECT_THROW(decode_message(bytes.data(), bytes.size()), WireError) << what;
}

TEST(Codec, DecodersRejectBlocksThatLie) {
  expect_rejected([](CodedBlock& b) { b.codec = 200; }, "unknown codec");
  expect_rejected([](CodedBlock& b) { store_count(b, 4); }, "count larger than the bytes");
  expect_rejected([](CodedBlock& b) { b.bytes.pop_back(); }, "short values");
  expect_rejected([](CodedBlock& b) { b.n = 10; }, "index past the tensor");
  expect_rejected([](CodedBlock& b) { b.n = kMaxCodedTensorElements + 1; }, "a tensor too long to allocate");
  expect_rejected([](CodedBlock& b) { std::swap(b.bytes[4], b.bytes[8]); }, "indices out of order");
  expect_rejected([](CodedBlock& b) { b.key = 1; }, "a key both dense and coded");
  expect_rejected([](CodedBlock& b) { b.key = 9; }, "coded keys out of order");
  expect_rejected([](CodedBlock& b) { b.bytes.clear(); }, "no count");
  // Random corruption of the coded part never crashes and is mostly caught.
  const auto good = encode_message(make_message(MsgKind::kPush, 3, 0, 5, mixed_payload()));
  std::mt19937 rng(5);
  const std::size_t coded_at = good.size() - (13 + 28) - (13 + 4);
  for (int i = 0; i < 2000; ++i) {
    auto bad = good;
    bad[coded_at + rng() % (good.size() - coded_at)] = std::uint8_t(rng());
    try {
      const Message d = decode_message(bad.data(), bad.size());
      densify(*d.payload);  // whatever decoded is well formed enough to sum
    } catch (const WireError&) {
    }
  }
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

NumericParams defaults(const CodecInfo& c) {
  NumericParams p;
  for (const auto& s : c.params) p[s.name] = s.default_value;
  return p;
}

std::unique_ptr<Encoder> make(const std::string& name, NumericParams overrides = {}, Tier tier = Tier::kWan) {
  const CodecInfo* c = find_codec(name);
  NumericParams p = defaults(*c);
  for (const auto& [k, v] : overrides) p[k] = v;
  return c->make ? c->make(p, {tier, 7, 0}) : nullptr;
}

// decoded(b), checked on the way as a receiver would.
Eigen::VectorXf decode(const std::optional<CodedBlock>& b, const Eigen::VectorXf& dense_fallback) {
  if (!b) return dense_fallback;
  validate_block(*b);
  Eigen::VectorXf out = Eigen::VectorXf::Zero(b->n);
  add_decoded(*b, 1.0f, out);
  return out;
}

TEST(Codec, LosslessCodecsRoundTripExactly) {
  Eigen::VectorXf x = random_vector(5000, 11);
  for (int i = 0; i < 5000; i += 3) x[i] = 0;
  EXPECT_EQ((decode(make("sparse")->encode(1, x), x) - x).cwiseAbs().maxCoeff(), 0.0f);
  Eigen::VectorXf mostly_zero = Eigen::VectorXf::Zero(5000);
  mostly_zero[17] = 3;
  const auto b = make("sparse")->encode(1, mostly_zero);
  ASSERT_TRUE(b) << "few non-zeros: sparse is smaller";
  EXPECT_EQ((decode(b, mostly_zero) - mostly_zero).cwiseAbs().maxCoeff(), 0.0f);
  EXPECT_FALSE(make("sparse")->encode(1, random_vector(100, 3))) << "all non-zero: dense is smaller";
}

TEST(Codec, Fp16IsWithinHalfPrecisionAndTheInstructionsMatchTheSoftware) {
  Eigen::VectorXf x = random_vector(4099, 12);  // not a multiple of 8: the tail too
  const float specials[] = {0.0f,    -0.0f,    1.0f,     65504.0f, 65519.0f,       1e9f,          -1e9f,
                            6.1e-5f, 5.96e-8f, 2.98e-8f, 1e-10f,   1.00048828125f, 1.0009765625f, 0.33333334f};
  for (int i = 0; i < 14; ++i) x[i] = specials[i];
  const CodedBlock b = encode_fp16(1, x);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    std::uint16_t h;
    std::memcpy(&h, b.bytes.data() + 2 * i, 2);
    ASSERT_EQ(h, half_from_float(std::clamp(x[i], -65504.0f, 65504.0f))) << "entry " << i << " = " << x[i];
  }
  const Eigen::VectorXf d = decode(b, x);
  for (Eigen::Index i = 14; i < x.size(); ++i)
    EXPECT_LE(std::abs(d[i] - x[i]), std::abs(x[i]) * 0x1p-11f + 0x1p-25f) << i;
  EXPECT_EQ(d[5], 65504.0f) << "beyond the largest half: clamped, never infinite";
  EXPECT_EQ(d[10], 0.0f) << "below half the smallest subnormal: zero";
  EXPECT_EQ(half_from_float(1.00048828125f), 0x3c00) << "a tie rounds to even (down)";
  EXPECT_EQ(half_from_float(1.00146484375f), 0x3c02) << "a tie rounds to even (up)";
  EXPECT_EQ(b.bytes.size(), 2u * 4099) << "half the bytes of fp32";
}

TEST(Codec, UnbiasedQuantisersAverageToTheInput) {
  const Eigen::VectorXf x = random_vector(200, 13);
  for (const char* name : {"qsgd", "terngrad"}) {
    auto enc = make(name);
    Eigen::VectorXf mean = Eigen::VectorXf::Zero(200);
    const int reps = 4000;
    for (int r = 0; r < reps; ++r) mean += decode(enc->encode(1, x), x) / float(reps);
    // terngrad is unbiased for x clipped at 2.5 sigma: compare with that.
    const float sigma = std::sqrt((x.array() - x.mean()).square().mean());
    const Eigen::VectorXf target =
        std::string(name) == "terngrad" ? Eigen::VectorXf(x.cwiseMax(-2.5f * sigma).cwiseMin(2.5f * sigma)) : x;
    EXPECT_LT((mean - target).cwiseAbs().maxCoeff(), 0.1f) << name;
  }
  const auto q = make("qsgd")->encode(1, random_vector(1000, 1));
  EXPECT_EQ(q->bytes.size(), 1005u) << "one byte per entry";
  EXPECT_EQ(make("terngrad")->encode(1, random_vector(1000, 1))->bytes.size(), 254u) << "two bits per entry";
  EXPECT_EQ(make("signsgd_ef")->encode(1, random_vector(1000, 1))->bytes.size(), 129u) << "one bit per entry";
}

// TernGrad decodes a byte (four codes) at a time: every entry, the three of a
// partial last byte too, comes back as 0 or +-scale with the input's sign, and
// an entry at the clip is always sent.
TEST(Codec, TernGradDecodesEveryEntryOfAPartialLastByte) {
  Eigen::VectorXf x = random_vector(1003, 8);
  x.tail(3) << 100.0f, -100.0f, 100.0f;  // beyond 2.5 sigma: clipped to the scale, sent with probability 1
  const auto b = make("terngrad")->encode(1, x);
  ASSERT_TRUE(b);
  const float s = load_raw<float>(b->bytes.data());
  const Eigen::VectorXf d = decode(b, x);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(d[i] == 0.0f || d[i] == (x[i] < 0 ? -s : s)) << i << ": " << d[i];
  }
  EXPECT_EQ(d[1000], s);
  EXPECT_EQ(d[1001], -s);
  EXPECT_EQ(d[1002], s);
  EXPECT_GT((d.head(1000).array() != 0.0f).count(), 10) << "the whole bytes decode too";
}

// With error feedback nothing is lost: the decoded updates' sum tracks the
// inputs' sum, the gap being only what is still held back (bounded).
TEST(Codec, WithErrorFeedbackTheDecodedSumConvergesToTheInputsSum) {
  const int n = 2000, steps = 300;
  const Eigen::VectorXf drift = random_vector(n, 21);
  struct Case {
    const char* name;
    NumericParams p;
  };
  for (const Case& c : {Case{"bsc", {{"momentum", 0}, {"rho", 0.05}}}, Case{"dgc", {{"momentum", 0}, {"rho", 0.05}}},
                        Case{"random_k", {{"ratio", 0.05}}}, Case{"signsgd_ef", {}}, Case{"powersgd", {{"rank", 2}}}}) {
    auto enc = make(c.name, c.p);
    Eigen::VectorXf in = Eigen::VectorXf::Zero(n), out = Eigen::VectorXf::Zero(n);
    for (int t = 0; t < steps; ++t) {
      const Eigen::VectorXf x = drift + random_vector(n, 100 + t);
      in += x;
      out += decode(enc->encode(1, x), x);
    }
    EXPECT_LT((out - in).norm() / in.norm(), 0.1) << c.name;
  }
}

TEST(Codec, MpqSendsSmallTensorsAsFp16AndLargeOnesByTier) {
  const CodecInfo* mpq = find_codec("mpq");
  auto lan = mpq->make(defaults(*mpq), {Tier::kLan, 1, 1000});
  auto wan = mpq->make(defaults(*mpq), {Tier::kWan, 1, 1000});
  const Eigen::VectorXf small = random_vector(999, 1), large = random_vector(5000, 2);
  EXPECT_EQ(lan->encode(1, small)->bytes.size(), 2u * 999);
  EXPECT_FALSE(lan->encode(2, large)) << "fp32 inside a DC";
  const auto w = wan->encode(2, large);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->codec, kSparseCodecId) << "bsc across the WAN";
}

void expect_rejected_block(CodedBlock b, const std::function<void(CodedBlock&)>& tamper, const char* what) {
  tamper(b);
  EXPECT_THROW(validate_block(b), CodecError) << what;
}

TEST(Codec, EveryFormatRejectsLengthsAndFieldsThatLie) {
  const Eigen::VectorXf x = random_vector(1001, 5);
  std::vector<CodedBlock> blocks;
  for (const char* name : {"fp16", "qsgd", "terngrad", "signsgd_ef", "powersgd", "bsc"}) {
    auto b = make(name)->encode(1, name == std::string("powersgd") ? random_vector(1000, 5) : x);
    ASSERT_TRUE(b) << name;
    EXPECT_NO_THROW(validate_block(*b)) << name;
    expect_rejected_block(
        *b, [](CodedBlock& c) { c.bytes.pop_back(); }, name);
    expect_rejected_block(
        *b, [](CodedBlock& c) { c.bytes.push_back(0); }, name);
    // A length that does not match the tensor it is added into is refused by the sum.
    Eigen::VectorXf wrong = Eigen::VectorXf::Zero(b->n + 1);
    EXPECT_THROW(add_decoded(*b, 1.0f, wrong), CodecError) << name;
    blocks.push_back(*b);
  }
  for (int i : {0, 1, 4})
    expect_rejected_block(
        blocks[std::size_t(i)], [](CodedBlock& c) { c.n += 1; }, "n that lies");
  expect_rejected_block(
      blocks[0], [](CodedBlock& c) { c.bytes[1] = 0x7c; }, "fp16 infinity");
  expect_rejected_block(
      blocks[1], [](CodedBlock& c) { c.bytes[5] = 0x7f; }, "qsgd level above s");
  expect_rejected_block(
      blocks[1], [](CodedBlock& c) { c.bytes[4] = 0; }, "qsgd zero levels");
  expect_rejected_block(
      blocks[2], [](CodedBlock& c) { c.bytes[4] = 3; }, "terngrad code 3");
  expect_rejected_block(
      blocks[2], [](CodedBlock& c) { c.bytes.back() = 0xff; }, "terngrad padding");
  expect_rejected_block(
      blocks[3], [](CodedBlock& c) { c.bytes.back() = 0xff; }, "signsgd padding");
  expect_rejected_block(
      blocks[4], [](CodedBlock& c) { store_raw<std::uint32_t>(c.bytes.data(), 7); }, "powersgd rows");
  expect_rejected_block(
      blocks[4], [](CodedBlock& c) { store_raw<std::uint32_t>(c.bytes.data() + 8, 0); }, "powersgd rank");
  expect_rejected_block(
      blocks[4], [](CodedBlock& c) { store_raw<float>(c.bytes.data() + 12, NAN); }, "powersgd NaN");
  expect_rejected_block(
      blocks[3], [](CodedBlock& c) { c.codec = 99; }, "unknown format");
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

TEST(CodecRegistry, TheSchemaNamesExactlyTheRegisteredCodecsAndTheirParametersOnEveryStream) {
  const auto schema = load_json_file(testing::source_path("scenarios/scenario.schema.json"));
  const auto& streams = schema["properties"]["compression"]["properties"];
  std::set<std::string> registered, registry_params;
  for (const auto& c : codec_registry()) {
    registered.insert(c.doc.name);
    for (const auto& p : c.params) registry_params.insert(p.name);
  }
  for (const char* stream : {"lan_push", "lan_pull", "wan_push", "wan_pull"}) {
    const auto& codec = streams[stream];
    std::set<std::string> kinds, params;
    for (const auto& k : codec["properties"]["kind"]["enum"]) kinds.insert(k.get<std::string>());
    for (const auto& [k, v] : codec["properties"].items()) {
      (void)v;
      if (k != "kind") params.insert(k);
    }
    EXPECT_EQ(kinds, registered) << stream;
    EXPECT_EQ(params, registry_params) << stream;
  }
}

TEST(CodecRegistry, AScenarioChoosesACodecPerStreamAndBadChoicesSayWhere) {
  const Scenario sc = testing::small_scenario(
      "hips", {R"(compression={"wan_push":{"kind":"bsc","rho":0.05},"lan_pull":{"kind":"fp16"},"dense_below":10})"});
  EXPECT_EQ(sc.compression.wan_push.kind, "bsc");
  EXPECT_EQ(sc.compression.wan_push.params.at("rho"), 0.05);
  EXPECT_EQ(sc.compression.wan_push.params.at("momentum"), 0.9) << "defaults filled in";
  EXPECT_EQ(sc.compression.lan_pull.kind, "fp16");
  EXPECT_EQ(sc.compression.lan_push.kind, "none");
  EXPECT_EQ(sc.compression.dense_below, 10u);
  for (const char* bad :
       {R"(compression={"wan_push":{"kind":"zip"}})", R"(compression={"wan_push":{"kind":"bsc","rho":2}})",
        R"(compression={"wan_push":{"kind":"fp16","rho":0.1}})", R"(compression={"wan":{}})"}) {
    try {
      testing::small_scenario("hips", {bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("compression"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// DGT's blocks (core/codec/segment.h): ranges of one tensor share its key on
// the wire, add into their range only, and are refused when they lie.
TEST(Codec, SegmentsOfOneTensorRoundTripAndAddIntoTheirRangeOnly) {
  const Eigen::VectorXf x = random_vector(3000, 9);
  auto p = std::make_shared<Payload>();
  p->coded.push_back(encode_segment(4, 3000, 0, x.data(), 1024));
  p->coded.push_back(encode_segment(4, 3000, 2048, x.data() + 2048, 952));  // the middle range is missing
  Eigen::VectorXf residual = Eigen::VectorXf::Zero(1000);
  p->coded.push_back(encode_segment4(6, 1000, 0, x.data(), 1000, residual.data()));
  const Message m = make_message(MsgKind::kPushPart, 3, 0, 5, p);
  const auto bytes = encode_message(m);
  EXPECT_EQ(bytes.size(), m.wire_bytes);
  const Message d = decode_message(bytes.data(), bytes.size());
  const Payload dense = densify(*d.payload);
  ASSERT_EQ(dense.blocks.size(), 2u);
  const Eigen::VectorXf& got = dense.blocks[0].values;
  EXPECT_EQ(got.head(1024), x.head(1024));
  EXPECT_TRUE(got.segment(1024, 1024).isZero(0));
  EXPECT_EQ(got.tail(952), x.tail(952));
  // 4 bits over the range: within half a bin, and the residual holds exactly what was lost.
  const float bin = (x.head(1000).maxCoeff() - x.head(1000).minCoeff()) / 16;
  EXPECT_LE((dense.blocks[1].values - x.head(1000)).cwiseAbs().maxCoeff(), bin / 2 * 1.001f);
  EXPECT_LT((dense.blocks[1].values + residual - x.head(1000)).cwiseAbs().maxCoeff(), 1e-5f);
  // Ranges that lie, and keys out of order on the wire, are refused.
  expect_rejected_block(
      p->coded[1], [](CodedBlock& c) { store_raw<std::uint32_t>(c.bytes.data(), 2049); }, "range past the tensor");
  expect_rejected_block(
      p->coded[1], [](CodedBlock& c) { store_raw<std::uint32_t>(c.bytes.data() + 4, 0); }, "empty range");
  expect_rejected_block(
      p->coded[0], [](CodedBlock& c) { c.bytes.pop_back(); }, "short segment");
  expect_rejected_block(
      p->coded[2], [](CodedBlock& c) { store_raw<float>(c.bytes.data() + 8, INFINITY); }, "segment4 min");
  auto swapped = std::make_shared<Payload>(*p);
  std::swap(swapped->coded[0], swapped->coded[2]);
  const auto bad = encode_message(make_message(MsgKind::kPushPart, 3, 0, 5, swapped));
  EXPECT_THROW(decode_message(bad.data(), bad.size()), WireError);
  auto mixed = std::make_shared<Payload>(*p);
  mixed->coded[1] = make("fp16")->encode(4, x).value();  // a key repeated by a whole-tensor format
  const auto bad2 = encode_message(make_message(MsgKind::kPushPart, 3, 0, 5, mixed));
  EXPECT_THROW(decode_message(bad2.data(), bad2.size()), WireError);
}

TEST(Codec, EveryWireSizeRuleIsWhatItsEncoderWrites) {
  // Workload profiles are charged by the rules (core/learners/profile_model.h):
  // on real tensors each rule must say what the encoder writes. Exactly, but
  // where a threshold is sampled (bsc, dgc, mpq's WAN side): the rule is the
  // cap, ceil(rho n) pairs; over 30 encodes none is above it and the mean is
  // at least 70% of it (measured: 53% to 100% per encode).
  std::mt19937 rng(5);
  std::normal_distribution<float> g;
  for (const auto& info : codec_registry()) {
    if (!info.make) {
      EXPECT_FALSE(info.wire_bytes) << info.doc.name;
      continue;
    }
    ASSERT_TRUE(info.wire_bytes) << info.doc.name << " has no wire-size rule";
    const bool sampled = info.doc.name == "bsc" || info.doc.name == "dgc" || info.doc.name == "mpq";
    for (Tier tier : {Tier::kLan, Tier::kWan}) {
      for (std::uint32_t n : {1000u, 65536u, 250000u, 1000003u}) {
        SCOPED_TRACE(info.doc.name + " n=" + std::to_string(n) + (tier == Tier::kWan ? " wan" : " lan"));
        const EncoderContext ctx{tier, 7, 200000};
        NumericParams p = defaults(info);
        if (info.doc.name == "dgc") p["warmup_epochs"] = 0;  // the rule is the density after the warm-up
        auto enc = info.make(p, ctx);
        const std::optional<std::uint64_t> rule = info.wire_bytes(p, ctx, n);
        double sum = 0;
        const int encodes = sampled ? 30 : 1;
        for (int i = 0; i < encodes; ++i) {
          Eigen::VectorXf x(n);
          for (auto& v : x) v = g(rng);
          const std::optional<CodedBlock> b = enc->encode(3, x);
          ASSERT_EQ(b.has_value(), rule.has_value());
          if (!b) break;
          if (sampled && b->codec == kSparseCodecId) {
            EXPECT_LE(b->bytes.size(), *rule);
            sum += double(b->bytes.size());
          } else {
            EXPECT_EQ(b->bytes.size(), *rule);
            sum += double(*rule);
          }
        }
        if (rule) {
          EXPECT_GE(sum / encodes, 0.7 * double(*rule));
        }
      }
    }
  }
}

}  // namespace
}  // namespace geotrain
