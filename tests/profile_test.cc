// Workload profiles (core/learners/workload_profiles.h, profile_model.h): the
// published parameter counts, messages charged at the real tensors' size,
// summary.json saying accuracy is not modelled, and real mode refusing them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/job/job.h"
#include "core/learners/mlp.h"
#include "core/learners/profile_file.h"
#include "core/learners/workload_profiles.h"
#include "core/payload/wire.h"
#include "core/run/results.h"
#include "sim/sim_runner.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

TEST(WorkloadProfiles, TensorListsAddUpToThePublishedParameterCounts) {
  const std::pair<const char*, std::uint64_t> published[] = {
      {"resnet50", 25'557'032}, {"vgg16", 138'357'544}, {"bert-base", 109'482'240}, {"gpt2-small", 124'439'808}};
  for (const auto& [name, count] : published) {
    const WorkloadProfile* p = find_profile(name);
    ASSERT_TRUE(p) << name;
    EXPECT_EQ(p->parameters(), count) << name;
    EXPECT_GT(p->train_flops_per_sample, 1e9) << name;
  }
  EXPECT_EQ(find_profile("resnet50")->tensors.size(), 161u);
  EXPECT_EQ(find_profile("vgg16")->tensors.size(), 32u);
  // The shipped models' profiles are read from the models themselves.
  const Mlp mlp(784, {128}, 10);
  EXPECT_EQ(find_profile("mlp-quickstart")->parameters(), element_count(mlp.init(1)));
  EXPECT_EQ(find_profile("mlp-quickstart")->train_flops_per_sample, mlp.train_flops_per_sample());
  EXPECT_EQ(find_profile("nope"), nullptr);
}

Scenario resnet_on_quickstart(std::vector<std::string> extra = {}) {
  std::vector<std::string> sets = {R"(model={"kind":"profile","profile":"resnet50"})",
                                   R"(dataset={"kind":"synthetic","features":8,"classes":2,"train":256,"test":32})",
                                   "stop.rounds=3", "eval.every_rounds=1", "policy.kind=bsp"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return load_scenario(testing::source_path("scenarios/quickstart.json"), sets);
}

TEST(ProfileModel, MessagesCostTheRealTensorsWhileRolesComputeOnStandIns) {
  const Scenario sc = resnet_on_quickstart();
  const TrainingJob job(sc);
  ASSERT_EQ(job.initial_params().size(), 161u);        // a stand-in per tensor
  EXPECT_EQ(element_count(job.initial_params()), 0u);  // holding no entries
  // A dense push or pull of the whole model: ResNet-50's 25,557,032 floats plus headers.
  EXPECT_EQ(job.dense_model_bytes(),
            kMessageHeaderBytes + kPayloadHeaderBytes + 161 * kBlockHeaderBytes + 4 * std::uint64_t(25'557'032));
  // A step charges the profile's compute: 6 x 4.09 GMACs per sample.
  EXPECT_DOUBLE_EQ(job.learner().train_flops_per_sample(), 6 * 4.09e9);

  const RunResult r = sim::run_simulation(sc);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.rounds, 3);
  EXPECT_FALSE(r.accuracy_modelled);
  EXPECT_FALSE(summary_json(r)["accuracy_modelled"].get<bool>());
  // Each round each of the two local servers pushes and pulls the whole model across the WAN.
  const auto& wan_push = r.compression["wan_push"];
  EXPECT_EQ(wan_push["sent_bytes"].get<std::uint64_t>(), 2 * 3 * job.dense_model_bytes()) << wan_push.dump();
  // The links carry those pushes and the pulls, plus TCP/IP headers and acks.
  const double payloads = double(wan_push["sent_bytes"].get<std::uint64_t>() +
                                 r.compression["wan_pull"]["sent_bytes"].get<std::uint64_t>());
  EXPECT_GT(double(r.bytes.wan_bytes), payloads);
  EXPECT_LT(double(r.bytes.wan_bytes), payloads * 1.01);
  // A trained model says it is modelled.
  EXPECT_TRUE(summary_json(sim::run_simulation(testing::small_scenario("hips", {"stop.rounds=2"})))["accuracy_modelled"]
                  .get<bool>());
}

TEST(ProfileModel, CodecsChargeStandInsByTheirWireSizeRules) {
  // Tensors of 200,000 entries or more are coded, the rest travel dense (the
  // scenario's dense_below): fp16 at 2 bytes an entry, bsc at rho = 0.01 as
  // 1% of the entries in (index, value) pairs.
  const TrainingJob job(resnet_on_quickstart());
  std::uint64_t dense = 0, fp16 = 0, bsc = 0;
  for (const auto& b : job.initial_params()) {
    const std::uint64_t n = b.stands_for, as_is = kBlockHeaderBytes + 4 * n;
    dense += as_is;
    fp16 += n < 200000 ? as_is : kCodedHeaderBytes + 2 * n;
    bsc += n < 200000 ? as_is : kCodedHeaderBytes + 4 + 8 * std::uint64_t(std::ceil(0.01 * double(n)));
  }
  const std::uint64_t headers = kMessageHeaderBytes + kPayloadHeaderBytes;
  for (const char* codec : {"fp16", "bsc"}) {
    SCOPED_TRACE(codec);
    const RunResult r = sim::run_simulation(resnet_on_quickstart({std::string("compression.wan_push.kind=") + codec}));
    ASSERT_EQ(r.error, "");
    const auto& s = r.compression["wan_push"];
    const std::uint64_t payloads = s["payloads"].get<std::uint64_t>();
    EXPECT_GT(payloads, 0u);
    EXPECT_EQ(s["dense_bytes"].get<std::uint64_t>(), payloads * (headers + dense));
    EXPECT_EQ(s["sent_bytes"].get<std::uint64_t>(), payloads * (headers + (std::string(codec) == "bsc" ? bsc : fp16)));
  }
}

TEST(ProfileModel, TheLoaderAndRealModeSayWhatAProfileCannotDo) {
  EXPECT_THROW(resnet_on_quickstart({R"(model={"kind":"profile","profile":"resnet-51"})"}), ConfigError);
  try {
    resnet_on_quickstart({R"(dgt={"mode":1})"});
    FAIL() << "a profile with dgt was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be cut into parts (dgt)"), std::string::npos) << e.what();
  }
  const auto r = testing::run_geotrain("launch " + testing::source_path("scenarios/scale-8x8-resnet50.json") +
                                       " -o /tmp/geotrain-profile-launch-test");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("runs only in simulation"), std::string::npos) << r.output;
}

// Your own model's traffic from a file: the shipped example counted by hand.
TEST(ProfileFile, ParametersAndFlopsAreTheOnesCountedByHand) {
  const WorkloadProfile p = load_profile_file(testing::source_path("examples/profiles/small-cnn.json"));
  // conv1 32x1x3x3 + 32, conv2 64x32x3x3 + 64, fc 10x3136 and 10 in float16 (half the fp32 elements, rounded up).
  EXPECT_EQ(p.tensors, (std::vector<std::uint64_t>{288, 32, 18432, 64, 15680, 5}));
  EXPECT_EQ(p.train_flops_per_sample, 3.0 * 2 * (28 * 28 * 32 * 9 + 14 * 14 * 64 * 32 * 9 + 3136 * 10));
}

// A file that copies a built-in profile trains exactly as it does (the same bytes at the same times),
// and a tensor's dtype counts by its bytes: 2N float16 entries travel as N float32 ones.
TEST(ProfileFile, AFileCopyOfABuiltInProfileRunsTheSameAndDtypesCountByBytes) {
  const WorkloadProfile& builtin = *find_profile("softmax-fashion");
  const std::string dir = "/tmp/geotrain-profile-file-test-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, bool halves) {
    nlohmann::json j = {{"name", name}, {"forward_flops_per_sample", builtin.train_flops_per_sample / 3}};
    for (std::size_t i = 0; i < builtin.tensors.size(); ++i)
      j["tensors"].push_back({{"name", "t" + std::to_string(i)},
                              {"shape", {halves ? 2 * builtin.tensors[i] : builtin.tensors[i]}},
                              {"dtype", halves ? "float16" : "float32"}});
    std::ofstream(dir + "/" + name + ".json") << j.dump();
    return dir + "/" + name + ".json";
  };
  auto run = [](const std::string& model) {
    const auto sc =
        load_scenario(testing::source_path("scenarios/profile-from-file.json"), {"model=" + model, "stop.rounds=20"});
    return summary_json(sim::run_simulation(sc));
  };
  const auto a = run(R"({"kind":"profile","profile":"softmax-fashion"})");
  const auto b = run(R"({"kind":"profile","file":")" + write("fp32", false) + R"("})");
  const auto c = run(R"({"kind":"profile","file":")" + write("fp16", true) + R"("})");
  for (const auto* s : {&b, &c}) {
    EXPECT_EQ((*s)["bytes"], a["bytes"]);
    EXPECT_EQ((*s)["sim_time_s"], a["sim_time_s"]);
    EXPECT_EQ((*s)["rounds"], a["rounds"]);
  }
  std::filesystem::remove_all(dir);
}

TEST(ProfileFile, BadFilesAreRefusedWithTheFileAndJsonPath) {
  const std::string dir = "/tmp/geotrain-profile-bad-test-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/bad.json")
      << R"({"name": "x", "forward_flops_per_sample": 1, "tensors": [{"name": "w", "shape": [4], "dtype": "float8"}]})";
  try {
    load_profile_file(dir + "/bad.json");
    FAIL() << "a float8 tensor was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/tensors/0/dtype"), std::string::npos) << e.what();
  }
  std::ofstream(dir + "/huge.json")
      << R"({"name": "x", "forward_flops_per_sample": 1, "tensors": [{"name": "w", "shape": [65536, 65536]}]})";
  try {
    load_profile_file(dir + "/huge.json");
    FAIL() << "a tensor of 2^32 elements was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/tensors/0/shape"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ParamBlock(0, Eigen::VectorXf(), std::uint64_t(1) << 32), std::length_error);
  EXPECT_EQ(ParamBlock(0, Eigen::VectorXf(), UINT32_MAX).stands_for, UINT32_MAX);
  const auto r = testing::run_geotrain("validate " + testing::source_path("scenarios/profile-from-file.json") +
                                       R"( --set 'model={"kind":"profile","profile":"resnet50","file":"x.json"}')");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("not both"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace geotrain
