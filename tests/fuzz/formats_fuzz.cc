// libFuzzer target: the data file readers (core/data/formats/). The first byte
// picks the reader and its options (CSV with or without a header, missing
// values filled, a hashed column; SVMlight for classification or ranking;
// NumPy), the rest is the file, handed over as /proc/self/fd/N of an
// in-memory file so nothing touches the disk. Every error must be a
// std::runtime_error or std::invalid_argument, never a crash or a hang.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/data/formats/csv_format.h"
#include "core/data/formats/npy_format.h"
#include "core/data/formats/svmlight_format.h"

using namespace geotrain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0];
  const int fd = memfd_create("fuzz-data", 0);
  if (fd < 0) return 0;
  for (std::size_t done = 1; done < size;) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += std::size_t(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    switch (mode % 3) {
      case 0: {
        CsvOptions o;
        o.label = (mode & 8) ? "1" : "label";
        o.header = !(mode & 8);
        o.missing = (mode & 16) ? CsvOptions::Missing::kMean : CsvOptions::Missing::kError;
        if (mode & 32) o.hashed = {"0"};
        o.regression = mode & 64;
        (void)load_csv(o, path, (mode & 128) ? "" : path, 0.5, 1);
        break;
      }
      case 1: {
        SvmlightOptions o;
        o.max_dense_values = 1e7;  // within the fuzzer's memory limit
        o.task = (mode & 8) ? SvmlightOptions::Task::kRanking : SvmlightOptions::Task::kClassification;
        (void)load_svmlight(o, path, (mode & 128) ? "" : path, 0.5, 1);
        break;
      }
      default: (void)read_npy(path); break;
    }
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  close(fd);
  return 0;
}
