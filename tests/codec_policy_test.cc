// Every codec with every sync policy, on the fake runtime: the roles encode
// what each policy pushes (gradients, model changes, models) and pull
// changes through the codec, and every combination runs to its rounds with a
// finite model, compressing the streams it was given.
#include <gtest/gtest.h>

#include "core/codec/codec_registry.h"
#include "core/policies/policy_registry.h"
#include "core/roles/global_server.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

TEST(CodecWithPolicy, EveryCodecRunsUnderEveryPolicy) {
  for (const auto& codec : codec_registry()) {
    if (codec.doc.name == "none") continue;
    // Lossy pulls of changes are for what the server's copy corrects: pair
    // sparse and fp16 pulls with every push codec.
    const std::string pull = codec.lossless ? "sparse" : "fp16";
    for (const auto& policy : policy_registry()) {
      const std::string arch = policy.architectures.front();
      const std::string what = codec.doc.name + " under " + policy.name + " (" + arch + ")";
      std::vector<std::string> sets = {
          "policy={\"kind\":\"" + policy.name + "\"}", "stop.rounds=4",
          R"(compression={"lan_push":{"kind":")" + codec.doc.name + R"("},"wan_push":{"kind":")" + codec.doc.name +
              R"("},"lan_pull":{"kind":")" + pull + R"("},"wan_pull":{"kind":")" + pull + R"("},"dense_below":0})"};
      for (const char* k : {"h", "k1", "k2"})  // short local rounds
        for (const auto& p : policy.params)
          if (p.name == k) sets.push_back(std::string("policy.") + k + "=2");
      testing::FakeJob fj(testing::small_scenario(arch, sets));
      fj.run();
      const auto& gs = fj.role<GlobalServer>(fj.job().deployment().global_server);
      EXPECT_GE(gs.rounds(), 4) << what;
      bool finite = true;
      for (const auto& b : gs.params()) finite = finite && b.values.allFinite();
      EXPECT_TRUE(finite) << what;
      // The pushes went through the codec: some node's push stream counted bytes below dense.
      bool compressed = false;
      for (const auto& n : fj.job().deployment().nodes) {
        const nlohmann::json r = fj.actor(n.id).report(fj.world().now());
        if (!r.contains("streams")) continue;
        for (const auto& [name, s] : r["streams"].items())
          if (name.find("push") != std::string::npos && s["sent_bytes"] < s["dense_bytes"]) compressed = true;
      }
      // (sparse only shrinks what is mostly zeros; gradients are not.)
      EXPECT_TRUE(compressed || codec.doc.name == "sparse") << what << ": no push stream compressed";
    }
  }
}

}  // namespace
}  // namespace geotrain
