// The incremental learners: the IDX datasets' class and sample selections,
// fine-tuning starting exactly where the pre-trained CNN ends, and feature
// extraction training a head alone (the frozen blocks are not in the model).
#include <gtest/gtest.h>

#include "core/config/scenario.h"
#include "core/job/job.h"
#include "core/learners/classifier.h"
#include "core/learners/gd/cnn.h"
#include "core/payload/params_file.h"
#include "sim/sim_runner.h"
#include "test_util.h"

namespace geotrain {
namespace {

TEST(DatasetSelection, ClassesAreKeptInTheGivenOrderAndRelabelled) {
  Dataset d;
  d.classes = 4;
  d.x = Eigen::MatrixXf(1, 6);
  d.x << 0, 1, 2, 3, 4, 5;
  d.y = {0, 3, 2, 3, 1, 2};
  const Dataset kept = d.only_classes({3, 2});
  EXPECT_EQ(kept.classes, 2);
  EXPECT_EQ(kept.y, (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(kept.x(0, 0), 1);
  EXPECT_EQ(kept.x(0, 3), 5);
  const Dataset tail = d.from(4);
  EXPECT_EQ(tail.y, (std::vector<int>{1, 2}));
  EXPECT_EQ(tail.x(0, 0), 4);
}

std::string base_file() {
  const std::string path = ::testing::TempDir() + "/geotrain-transfer-cnn.bin";
  write_params_file(path, Cnn(64, 4, 3, 4, 8).init(11));
  return path;
}

Scenario transfer_scenario(const std::string& model, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {
      "model=" + model, R"(dataset={"kind":"synthetic","features":64,"classes":4,"train":800,"test":200,"noise":1})",
      "batch_size=16", R"(stop={"rounds":60})", "eval.every_rounds=20"};
  sets.insert(sets.end(), more.begin(), more.end());
  return load_scenario(testing::source_path("scenarios/algo-fine_tuning.json"), sets);
}

// Fine-tuning's model is the pre-trained CNN's layers above the convolutions, so before any step it classifies
// exactly as the pre-trained CNN does; only those layers are in the model (what travels).
TEST(Transfer, FineTuningStartsWhereThePretrainedCnnEnds) {
  const std::string base = base_file();
  const TrainingJob job(transfer_scenario(R"({"kind":"fine_tuning","base":")" + base + R"("})"));
  const ParamSet head = job.learner().init(1), cnn_params = read_params_file(base);
  ASSERT_EQ(head.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(head[i].values, cnn_params[4 + i].values) << "block " << i;
  const Evaluation whole = evaluate_classifier(Cnn(64, 4, 3, 4, 8), cnn_params, job.data().test);
  const auto m = job.learner().evaluate(head, job.data().test);
  EXPECT_EQ(m[0], whole.accuracy);
  EXPECT_NEAR(m[1], whole.loss, 1e-5 * whole.loss);
}

// Feature extraction trains a new head on the frozen features: the model is that head alone, and it learns.
TEST(Transfer, FeatureExtractionTrainsAHeadAlone) {
  const Scenario sc =
      transfer_scenario(R"({"kind":"feature_extraction","base":")" + base_file() + R"(","hidden":[16]})",
                        {R"(optimizer={"kind":"adam","lr":0.01})"});
  const TrainingJob job(sc);
  EXPECT_EQ(element_count(job.learner().init(1)), std::size_t((8 + 1) * 16 + (16 + 1) * 4));
  const RunResult r = sim::run_simulation(sc);
  ASSERT_EQ(r.error, "");
  EXPECT_GT(r.timeline.back().metrics[0], 0.6) << "4 classes: chance is 0.25";
}

}  // namespace
}  // namespace geotrain
