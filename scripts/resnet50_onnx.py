#!/usr/bin/env python3
"""Writes ResNet-50 (torchvision's layout: 224 x 224 input, bottleneck blocks
3-4-6-3, batch normalisation, a 1000-way classifier) as an ONNX model with zero
weights, built layer by layer with python3-onnx, for `geotrain profile`:

  python3 scripts/resnet50_onnx.py out/resnet50.onnx
  build/geotrain profile out/resnet50.onnx -o out/resnet50.json

Its trainable parameters (weights, biases, batch-norm scales and shifts) are
25,557,032; the batch-norm running means and variances add 53,120 entries.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

inits, nodes = [], []
count = [0]


def param(name, shape):
    inits.append(numpy_helper.from_array(np.zeros(shape, np.float32), name))
    return name


def conv_bn(x, cin, cout, k, stride, relu=True):
    count[0] += 1
    n = "l%d" % count[0]
    w = param(n + ".conv.weight", (cout, cin, k, k))
    nodes.append(helper.make_node("Conv", [x, w], [n + ".c"], kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[k // 2] * 4))
    bn = [param(n + ".bn." + s, (cout,)) for s in ("weight", "bias", "running_mean", "running_var")]
    nodes.append(helper.make_node("BatchNormalization", [n + ".c"] + bn, [n + ".b"]))
    if not relu:
        return n + ".b"
    nodes.append(helper.make_node("Relu", [n + ".b"], [n + ".r"]))
    return n + ".r"


def main(out):
    x = conv_bn("input", 3, 64, 7, 2)
    nodes.append(helper.make_node("MaxPool", [x], ["pool"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
    x, cin = "pool", 64
    for stage, blocks in enumerate([3, 4, 6, 3]):
        width = 64 << stage
        for b in range(blocks):
            stride = 2 if b == 0 and stage > 0 else 1
            y = conv_bn(x, cin, width, 1, 1)
            y = conv_bn(y, width, width, 3, stride)
            y = conv_bn(y, width, 4 * width, 1, 1, relu=False)
            short = conv_bn(x, cin, 4 * width, 1, stride, relu=False) if b == 0 else x
            s = "add%d_%d" % (stage, b)
            nodes.append(helper.make_node("Add", [y, short], [s]))
            nodes.append(helper.make_node("Relu", [s], [s + ".r"]))
            x, cin = s + ".r", 4 * width
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"]))
    nodes.append(helper.make_node("Gemm", ["flat", param("fc.weight", (1000, 2048)), param("fc.bias", (1000,))],
                                  ["logits"], transB=1))
    graph = helper.make_graph(nodes, "resnet50", [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                                                 [1, 3, 224, 224])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, out)
    trainable = sum(int(np.prod(t.dims)) for t in inits if not t.name.endswith(("running_mean", "running_var")))
    print("%s: %d initializers, %d trainable parameters" % (out, len(inits), trainable))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "resnet50.onnx")
