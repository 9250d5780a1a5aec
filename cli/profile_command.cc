// geotrain profile MODEL.onnx: an ONNX model's traffic and compute as a profile
// file (core/learners/profile_file.h). The tensors are the graph's initializers
// (its parameters) with their shapes and dtypes; the forward FLOPs per sample are
// counted from the shapes ONNX's shape inference gives every Conv, Gemm and
// MatMul (2 per multiply-add, divided by the input's batch dimension); other
// operators (activations, pooling, normalisation) are not counted.
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "api/catalog.h"
#include "api/platform.h"
#include "api/scenarios.h"
#include "cli/commands.h"
#include "cli/guarded.h"

namespace geotrain::cli {

namespace {

struct ProfileArgs {
  std::string model, out, name;
};

const char* dtype_name(int t) {
  using T = onnx::TensorProto;
  switch (t) {
    case T::FLOAT: return "float32";
    case T::FLOAT16: return "float16";
    case T::BFLOAT16: return "bfloat16";
    case T::DOUBLE: return "float64";
    case T::INT8: return "int8";
    case T::UINT8: return "uint8";
    case T::INT16: return "int16";
    case T::UINT16: return "uint16";
    case T::INT32: return "int32";
    case T::UINT32: return "uint32";
    case T::INT64: return "int64";
    case T::UINT64: return "uint64";
    case T::BOOL: return "bool";
    default: return nullptr;
  }
}

using Shape = std::vector<std::int64_t>;  // -1: unknown

Shape shape_of(const onnx::TypeProto& t) {
  Shape s;
  if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return s;
  for (const auto& d : t.tensor_type().shape().dim()) s.push_back(d.has_dim_value() ? d.dim_value() : -1);
  return s;
}

// The product of s's dimensions from `from` on (unknown ones count 1).
double product(const Shape& s, std::size_t from = 0) {
  double p = 1;
  for (std::size_t i = from; i < s.size(); ++i) p *= s[i] > 0 ? double(s[i]) : 1.0;
  return p;
}

// Each initializer as a profile's loader would take it (a name of its own, known
// positive dimensions, a size a block can stand for), named by its ONNX path.
void check_initializers(const std::string& path, const onnx::GraphProto& g) {
  if (g.initializer_size() == 0)
    throw ConfigError(path, "graph.initializer",
                      "the model has no parameters (initializers): a profile needs the tensors that travel");
  std::set<std::string> names;
  for (int i = 0; i < g.initializer_size(); ++i) {
    const onnx::TensorProto& t = g.initializer(i);
    const std::string where = "graph.initializer[" + std::to_string(i) + "] \"" + t.name() + "\"";
    const char* dt = dtype_name(t.data_type());
    if (!dt) throw ConfigError(path, where, "has a data type a profile cannot carry");
    if (t.name().empty()) throw ConfigError(path, where, "has no name");
    if (!names.insert(t.name()).second) throw ConfigError(path, where, "has the name of an earlier initializer");
    double elements = 1;
    for (int d = 0; d < t.dims_size(); ++d) {
      if (t.dims(d) < 1)
        throw ConfigError(path, where + ".dims[" + std::to_string(d) + "]",
                          "is " + std::to_string(t.dims(d)) + ": an initializer's dimensions are known and positive");
      elements *= double(t.dims(d));
    }
    if (elements * dtype_bytes(dt) / 4 > 4294967295.0)
      throw ConfigError(path, where + ".dims",
                        "holds more than 4,294,967,295 float32-sized elements: a profile's tensor must be split");
  }
}

nlohmann::json profile_of(const std::string& path, const std::string& name) {
  onnx::ModelProto m;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError(path, "", "cannot read the file");
    if (!m.ParseFromIstream(&in)) throw ConfigError(path, "", "not an ONNX model (protobuf ModelProto)");
  }
  check_initializers(path, m.graph());
  try {
    onnx::shape_inference::InferShapes(m);
  } catch (const std::exception& e) {
    throw ConfigError(path, "", std::string("ONNX shape inference failed: ") + e.what());
  }
  const onnx::GraphProto& g = m.graph();
  std::map<std::string, Shape> shapes;
  for (const auto& v : g.input()) shapes[v.name()] = shape_of(v.type());
  for (const auto& v : g.value_info()) shapes[v.name()] = shape_of(v.type());
  for (const auto& v : g.output()) shapes[v.name()] = shape_of(v.type());
  nlohmann::json tensors = nlohmann::json::array();
  std::map<std::string, bool> is_param;
  for (int i = 0; i < g.initializer_size(); ++i) {
    const onnx::TensorProto& t = g.initializer(i);
    const char* dt = dtype_name(t.data_type());
    Shape s(t.dims().begin(), t.dims().end());
    shapes[t.name()] = s;
    is_param[t.name()] = true;
    tensors.push_back({{"name", t.name()}, {"shape", s}, {"dtype", dt}});
  }
  // The batch: the first dimension of the first input that is not a parameter (1 when unknown).
  double batch = 1;
  for (const auto& v : g.input())
    if (!is_param.count(v.name())) {
      const Shape s = shapes[v.name()];
      if (!s.empty() && s[0] > 0) batch = double(s[0]);
      break;
    }
  double macs = 0;
  for (const auto& n : g.node()) {
    if (n.output_size() == 0) continue;
    const Shape y = shapes[n.output(0)];
    if (n.op_type() == "Conv" && n.input_size() >= 2) {
      const Shape w = shapes[n.input(1)];  // [M, C / group, k...]
      macs += product(y) * product(w, 1);
    } else if (n.op_type() == "Gemm" && n.input_size() >= 2) {
      const Shape a = shapes[n.input(0)];
      bool trans_a = false;
      for (const auto& at : n.attribute())
        if (at.name() == "transA") trans_a = at.i() != 0;
      const double k = a.size() == 2 ? double(trans_a ? a[0] : a[1]) : 0;
      macs += product(y) * k;
    } else if (n.op_type() == "MatMul" && n.input_size() >= 2) {
      const Shape a = shapes[n.input(0)];
      macs += product(y) * (a.empty() ? 0 : double(std::max<std::int64_t>(a.back(), 1)));
    }
  }
  nlohmann::json profile = {
      {"name", name},
      {"description", "imported from " + path + " by geotrain profile (Conv, Gemm and MatMul counted)"},
      {"forward_flops_per_sample", 2 * macs / batch},
      {"tensors", tensors}};
  // What loading it would refuse is refused here, before anything is written (the model's size, say).
  profile_from_json(profile, path + " (as a profile)");
  return profile;
}

}  // namespace

void add_profile(CLI::App& app) {
  auto a = std::make_shared<ProfileArgs>();
  CLI::App* c = app.add_subcommand("profile", "Write an ONNX model's traffic and compute as a profile file");
  c->footer(
      "The profile's tensors are the model's initializers (names, shapes, dtypes); its forward\n"
      "FLOPs per sample count every Conv, Gemm and MatMul from ONNX's inferred shapes (2 per\n"
      "multiply-add, over the input's batch dimension); other operators are not counted.\n"
      "Use it as \"model\": {\"kind\": \"profile\", \"file\": \"my-model.json\"} (docs/scale.md).\n\n"
      "Example: geotrain profile my-model.onnx -o profiles/my-model.json");
  c->add_option("model", a->model, "ONNX model file")->required();
  c->add_option("-o,--out", a->out, "Profile file to write (default: print it)");
  c->add_option("--name", a->name, "The profile's name (default: the file's name without .onnx)");
  c->callback([a] {
    guarded([&] {
      std::string name = a->name;
      if (name.empty()) {
        name = a->model.substr(a->model.find_last_of('/') + 1);
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".onnx") == 0) name.resize(name.size() - 5);
      }
      const std::string text = profile_of(a->model, name).dump(2) + "\n";
      if (a->out.empty())
        std::printf("%s", text.c_str());
      else
        write_file_atomically(a->out, text);
      return 0;
    });
  });
}

}  // namespace geotrain::cli
