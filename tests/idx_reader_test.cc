// The IDX reader: what it decodes, and that a data set kept in memory is reread
// when its files change.
#include "core/data/idx_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/real_test_util.h"

namespace geotrain {
namespace {

namespace fs = std::filesystem;

// Writes the four files of an IDX data set of n 2x2 images, every pixel `pixel`, labels 0..n-1.
void write_set(const std::string& dir, int n, unsigned char pixel) {
  const auto put = [](const std::string& path, std::string head, const std::string& body) {
    std::ofstream(path, std::ios::binary) << head + body;
  };
  const char c = char(n);
  for (const char* prefix : {"train", "t10k"}) {
    std::string labels;
    for (int i = 0; i < n; ++i) labels += char(i);
    put(dir + "/" + prefix + "-images-idx3-ubyte", {0, 0, 8, 3, 0, 0, 0, c, 0, 0, 0, 2, 0, 0, 0, 2},
        std::string(std::size_t(4 * n), char(pixel)));
    put(dir + "/" + prefix + "-labels-idx1-ubyte", {0, 0, 8, 1, 0, 0, 0, c}, labels);
  }
}

TEST(IdxReader, DecodesPixelsAndLabelsAndRereadsChangedFiles) {
  const std::string dir = testing::fresh_dir("idx-reader");
  fs::create_directories(dir);
  write_set(dir, 3, 255);
  keep_idx_datasets_loaded(true);  // as in the whole test binary; stated here so the test does not depend on it
  const TrainTest a = load_idx_dataset(dir, "tiny");
  ASSERT_EQ(a.train.x.rows(), 4);
  ASSERT_EQ(a.train.x.cols(), 3);
  EXPECT_EQ(a.train.x(0, 0), 1.0f);
  EXPECT_EQ(a.train.y, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(a.train.classes, 3);
  EXPECT_EQ(load_idx_dataset(dir, "tiny").train.x, a.train.x);  // the kept copy
  // The same sizes, other pixels, a later time: read again, not the kept copy.
  write_set(dir, 3, 51);
  for (const auto& e : fs::directory_iterator(dir))
    fs::last_write_time(e.path(), fs::last_write_time(e.path()) + std::chrono::seconds(5));
  EXPECT_FLOAT_EQ(load_idx_dataset(dir, "tiny").train.x(0, 0), 0.2f);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace geotrain
