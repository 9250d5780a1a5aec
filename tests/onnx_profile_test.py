#!/usr/bin/env python3
"""geotrain profile reads an ONNX model: a small CNN built here with python3-onnx
(Conv 1->4 channels 3x3 on 8x8 images, Relu, Flatten, Gemm 144->10, batch 2):
its parameters and forward FLOPs as counted by hand, and the profile runs in a
scenario. With python3-torchvision installed (optional), torchvision's ResNet-50
too: its trainable parameters against the built-in profile's 25,557,032.

usage: onnx_profile_test.py SOURCE_DIR GEOTRAIN   (exit 77: python3-onnx missing)
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:
    print("skipped: python3-onnx is not installed (scripts/setup.sh installs it)")
    sys.exit(77)


def resnet50_from_torchvision(geotrain, d, failures):
    """Optional (python3-torchvision): torchvision's ResNet-50, exported untrained in training mode (batch
    normalisation kept as its own operator), imported: its trainable parameters are the built-in resnet50
    profile's 25,557,032 (WorkloadProfiles.TensorListsAddUpToThePublishedParameterCounts holds that one)."""
    try:
        import torch
        import torchvision
    except ImportError:
        print("note: python3-torchvision is not installed: the ResNet-50 comparison is skipped")
        return
    m = torchvision.models.resnet50(weights=None).train()
    path = os.path.join(d, "resnet50.onnx")
    torch.onnx.export(m, torch.zeros(1, 3, 224, 224), path, opset_version=13,
                      training=torch.onnx.TrainingMode.TRAINING, do_constant_folding=False)
    r = subprocess.run([geotrain, "profile", path, "-o", os.path.join(d, "resnet50.json")], capture_output=True,
                       text=True)
    if r.returncode != 0:
        failures.append("geotrain profile failed on ResNet-50: " + r.stdout + r.stderr)
        return
    p = json.load(open(os.path.join(d, "resnet50.json")))
    size = lambda t: int(np.prod(t["shape"])) if t["shape"] else 1
    trainable = sum(size(t) for t in p["tensors"]
                    if not t["name"].endswith(("running_mean", "running_var", "num_batches_tracked")))
    if trainable != 25557032:
        failures.append("ResNet-50 from torchvision: %d trainable parameters, the built-in profile has 25,557,032"
                        % trainable)
    gmacs = p["forward_flops_per_sample"] / 2e9
    if abs(gmacs - 4.09) > 0.01:
        failures.append("ResNet-50 from torchvision: %.3f G multiply-adds forward, published 4.09" % gmacs)
    print("ResNet-50 from torchvision: %d tensors, %d trainable parameters (built-in 25,557,032), %.3f G "
          "multiply-adds forward" % (len(p["tensors"]), trainable, gmacs))


def bad_models(geotrain, d, failures):
    """What loading a profile would refuse, `geotrain profile` refuses first: exit 2 naming the ONNX
    path of the bad tensor, and no profile written."""
    def graph_of(inits):
        g = helper.make_graph([], "bad", [], [], inits)
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])

    def tensor(name, dims):
        t = TensorProto()
        t.name, t.data_type = name, TensorProto.FLOAT
        t.dims.extend(dims)
        return t

    cases = {
        "empty file": (b"", "graph.initializer: the model has no parameters"),
        "no parameters": (graph_of([]).SerializeToString(), "graph.initializer: the model has no parameters"),
        "unknown dimension": (graph_of([tensor("w", [-1, 10])]).SerializeToString(),
                              'graph.initializer[0] "w".dims[0]: is -1'),
        "10^12 elements": (graph_of([tensor("w", [1000000, 1000000])]).SerializeToString(),
                           'graph.initializer[0] "w".dims: holds more than 4,294,967,295'),
        "2^96 elements": (graph_of([tensor("w", [2 ** 32, 2 ** 32, 2 ** 32])]).SerializeToString(),
                          'graph.initializer[0] "w".dims: holds more than'),
        "duplicate names": (graph_of([tensor("w", [2]), tensor("w", [3])]).SerializeToString(),
                            'graph.initializer[1] "w": has the name of an earlier initializer'),
    }
    for what, (data, expect) in cases.items():
        path = os.path.join(d, "bad.onnx")
        with open(path, "wb") as f:
            f.write(data)
        out = os.path.join(d, "bad.json")
        if os.path.exists(out):
            os.remove(out)
        r = subprocess.run([geotrain, "profile", path, "-o", out], capture_output=True, text=True)
        if r.returncode != 2 or expect not in r.stderr or os.path.exists(out):
            failures.append("profile of a model with %s: exit %d, %s (expected exit 2 and '%s', no file)"
                            % (what, r.returncode, r.stderr.strip(), expect))
    # Duplicate names in a profile file itself are refused when it is loaded.
    prof = os.path.join(d, "dup.json")
    with open(prof, "w") as f:
        json.dump({"name": "dup", "forward_flops_per_sample": 1, "tensors": [
            {"name": "w", "shape": [2]}, {"name": "w", "shape": [3]}]}, f)
    r = subprocess.run([geotrain, "validate", os.path.join(os.path.dirname(__file__), "..", "scenarios",
                                                           "profile-from-file.json"),
                        "--set", 'model={"kind":"profile","file":"%s"}' % prof], capture_output=True, text=True)
    if r.returncode != 2 or "/tensors/1/name" not in r.stderr:
        failures.append("a profile file with two tensors named w: exit %d, %s" % (r.returncode, r.stderr.strip()))


def main():
    src, geotrain = sys.argv[1], sys.argv[2]
    w = numpy_helper.from_array(np.zeros((4, 1, 3, 3), np.float32), "conv.weight")
    b = numpy_helper.from_array(np.zeros((4,), np.float32), "conv.bias")
    fw = numpy_helper.from_array(np.zeros((10, 144), np.float16), "fc.weight")
    fb = numpy_helper.from_array(np.zeros((10,), np.float16), "fc.bias")
    nodes = [
        helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"]),
        helper.make_node("Cast", ["f"], ["h"], to=TensorProto.FLOAT16),
        helper.make_node("Gemm", ["h", "fc.weight", "fc.bias"], ["y"], transB=1),
    ]
    graph = helper.make_graph(nodes, "small", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 10])], [w, b, fw, fb])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    failures = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "small.onnx")
        onnx.save(model, path)
        r = subprocess.run([geotrain, "profile", path, "-o", os.path.join(d, "small.json")], capture_output=True,
                           text=True)
        if r.returncode != 0:
            sys.exit("geotrain profile failed: " + r.stdout + r.stderr)
        p = json.load(open(os.path.join(d, "small.json")))
        want = [("conv.weight", [4, 1, 3, 3], "float32"), ("conv.bias", [4], "float32"),
                ("fc.weight", [10, 144], "float16"), ("fc.bias", [10], "float16")]
        got = [(t["name"], t["shape"], t["dtype"]) for t in p["tensors"]]
        if got != want:
            failures.append("tensors %s, expected %s" % (got, want))
        # Per image: the conv's 4 x 6 x 6 outputs of 9 multiply-adds, the Gemm's 10 of 144; 2 FLOPs each.
        flops = 2 * (4 * 6 * 6 * 9 + 10 * 144)
        if p["forward_flops_per_sample"] != flops:
            failures.append("forward FLOPs %s, expected %d" % (p["forward_flops_per_sample"], flops))
        if p["name"] != "small":
            failures.append("name %s, expected small" % p["name"])
        out = os.path.join(d, "run")
        r = subprocess.run([geotrain, "sim", os.path.join(src, "scenarios/profile-from-file.json"), "--out", out, "-q",
                            "--set", 'model={"kind":"profile","file":"%s"}' % os.path.join(d, "small.json"),
                            "--set", "stop.rounds=5"], capture_output=True, text=True)
        if r.returncode != 0:
            failures.append("the imported profile does not run: " + r.stdout + r.stderr)
        bad_models(geotrain, d, failures)
        resnet50_from_torchvision(geotrain, d, failures)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("profile of a small ONNX CNN: 4 tensors as built, %d forward FLOPs per image, runs in a scenario" % flops)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
