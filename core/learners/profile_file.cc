#include "core/learners/profile_file.h"

#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "core/json/json_reader.h"
#include "core/learners/learner_registry.h"

namespace geotrain {

int dtype_bytes(const std::string& dtype) {
  static const std::map<std::string, int> bytes = {
      {"float32", 4}, {"float16", 2}, {"bfloat16", 2}, {"float64", 8}, {"int8", 1},   {"uint8", 1}, {"int16", 2},
      {"uint16", 2},  {"int32", 4},   {"uint32", 4},   {"int64", 8},   {"uint64", 8}, {"bool", 1}};
  const auto it = bytes.find(dtype);
  return it == bytes.end() ? 0 : it->second;
}

WorkloadProfile load_profile_file(const std::string& path) { return profile_from_json(load_json_file(path), path); }

WorkloadProfile profile_from_json(const nlohmann::json& j, const std::string& path) {
  JsonReader r(j, path, "", nullptr);
  WorkloadProfile p;
  r.raw("$schema");
  p.name = r.string("name", std::nullopt);
  p.description = r.string("description", "");
  p.train_flops_per_sample = 3 * r.number("forward_flops_per_sample", std::nullopt, 0, 1e18);
  std::vector<JsonReader> tensors = r.objects("tensors");
  if (tensors.empty()) r.fail("tensors", "expected a non-empty array of {name, shape, dtype}");
  double params = 0;
  std::set<std::string> names;
  for (JsonReader& t : tensors) {
    const std::string name = t.string("name", std::nullopt);
    if (!names.insert(name).second) t.fail("name", "\"" + name + "\" names an earlier tensor too: names must differ");
    const std::string dtype = t.string("dtype", "float32");
    const int bytes = dtype_bytes(dtype);
    if (bytes == 0)
      t.fail("dtype",
             "expected float32, float16, bfloat16, float64, int8, uint8, int16, uint16, int32, uint32, "
             "int64, uint64 or bool, not \"" +
                 dtype + "\"");
    if (!t.has("shape")) t.fail("shape", "expected the tensor's dimensions, e.g. [64, 3, 7, 7] ([] for a scalar)");
    double elements = 1;
    for (const auto d : t.integers("shape", 1, std::int64_t(1) << 40)) elements *= double(d);
    const double words = (elements * bytes + 3) / 4;  // what the stand-in block stands for (params.h)
    if (words > double(UINT32_MAX)) {
      std::ostringstream n;
      n << std::setprecision(3) << words;  // (a shape's product may pass 2^64)
      t.fail("shape", "expected a tensor of at most 4,294,967,295 float32-sized elements, not " + n.str() +
                          ": split it into several");
    }
    t.finish();
    params += elements;
    p.tensors.push_back(std::uint64_t(words));
  }
  r.finish();
  try {
    check_model_size("profile \"" + p.name + "\"", params);
  } catch (const std::invalid_argument& e) {
    r.fail("tensors", e.what());
  }
  return p;
}

}  // namespace geotrain
