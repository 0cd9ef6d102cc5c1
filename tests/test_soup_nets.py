#!/usr/bin/python3
"""tools/soup_nets.py on two small nets made here, one convolution and one dense layer: alpha 0
gives the first net's weights, 1 the second's, 0.5 their mean, each weight checked against the
mean worked out here; the second net's weights named otherwise and its ops after the last weight
different (as a detector pair's exports are) still match, and the soup keeps the first's ops;
a net with a weight of another shape is refused with both files named, and nothing is written;
a file that is no net, or an empty one, is refused in one line that names it.

  tests/test_soup_nets.py   # exits 77 (skipped) without python3-onnx or python3-opencv
"""
import pathlib
import subprocess
import sys
import tempfile

try:
    import cv2  # noqa: F401 (soup_nets loads its output with it)
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
except ImportError as missing:
    print(f"skipped: {missing.name} is not installed")
    sys.exit(77)

from tool_checks import TOOLS, check, finish


def small_net(conv, dense, names, tail="Relu"):
    """image (1x2x4x4) -> Conv(conv) -> Flatten -> Gemm(dense) -> tail -> out."""
    weights = [numpy_helper.from_array(conv, names[0]),
               numpy_helper.from_array(dense, names[1])]
    nodes = [helper.make_node("Conv", ["image", names[0]], ["c"], kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("Flatten", ["c"], ["f"]),
             helper.make_node("Gemm", ["f", names[1]], ["g"], transB=1),
             helper.make_node(tail, ["g"], ["out"])]
    graph = helper.make_graph(nodes, "small",
                              [helper.make_tensor_value_info("image", TensorProto.FLOAT,
                                                             [1, 2, 4, 4])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 3])],
                              weights)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])


def soup(a, b, alpha, out):
    return subprocess.run([sys.executable, str(TOOLS / "soup_nets.py"), str(a), str(b),
                           "--alpha", str(alpha), "--out", str(out)],
                          capture_output=True, text=True)


def weights(path):
    model = onnx.load(str(path))
    return ([numpy_helper.to_array(w) for w in model.graph.initializer],
            [node.op_type for node in model.graph.node])


rng = np.random.default_rng(7)
conv_a, conv_b = (rng.normal(size=(2, 2, 3, 3)).astype(np.float32) for _ in range(2))
dense_a, dense_b = (rng.normal(size=(3, 32)).astype(np.float32) for _ in range(2))
with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    onnx.save(small_net(conv_a, dense_a, ["conv.w", "dense.w"]), str(tmp / "a.onnx"))
    # Named as another export would name them, and ending in another op.
    onnx.save(small_net(conv_b, dense_b, ["onnx::Conv_9", "onnx::Gemm_12"], tail="Sigmoid"),
              str(tmp / "b.onnx"))
    for alpha, conv, dense in ((0.0, conv_a, dense_a), (1.0, conv_b, dense_b),
                               (0.5, (conv_a + conv_b) / 2, (dense_a + dense_b) / 2),
                               (0.3, 0.7 * conv_a + 0.3 * conv_b, 0.7 * dense_a + 0.3 * dense_b)):
        out = tmp / f"soup{alpha}.onnx"
        run = soup(tmp / "a.onnx", tmp / "b.onnx", alpha, out)
        check(run.returncode == 0, f"alpha {alpha}: soup_nets succeeds ({run.stderr.strip()})")
        if run.returncode:
            continue
        (got_conv, got_dense), ops = weights(out)
        check(np.allclose(got_conv, conv, atol=1e-6) and np.allclose(got_dense, dense, atol=1e-6),
              f"alpha {alpha}: each weight is (1 - alpha) x A's + alpha x B's")
        check(ops == ["Conv", "Flatten", "Gemm", "Relu"], f"alpha {alpha}: A's ops kept: {ops}")

    onnx.save(small_net(conv_b[:1], dense_b[:, :16], ["conv.w", "dense.w"]),
              str(tmp / "narrow.onnx"))
    run = soup(tmp / "a.onnx", tmp / "narrow.onnx", 0.5, tmp / "bad.onnx")
    check(run.returncode != 0 and "a.onnx" in run.stderr and "narrow.onnx" in run.stderr
          and "differ" in run.stderr, f"a weight of another shape is refused: {run.stderr.strip()}")
    check(not (tmp / "bad.onnx").exists(), "and nothing is written")
    (tmp / "notes.onnx").write_text("not a net\n")
    run = soup(tmp / "a.onnx", tmp / "notes.onnx", 0.5, tmp / "bad.onnx")
    check(run.returncode == 1 and "notes.onnx" in run.stderr
          and len(run.stderr.strip().splitlines()) == 1,
          f"a file that is no net: one line naming it: {run.stderr.strip()}")
    (tmp / "empty.onnx").write_bytes(b"")
    run = soup(tmp / "empty.onnx", tmp / "empty.onnx", 0.5, tmp / "bad.onnx")
    check(run.returncode == 1 and "empty.onnx" in run.stderr
          and len(run.stderr.strip().splitlines()) == 1,
          f"an empty file: one line naming it: {run.stderr.strip()}")
    run = soup(tmp / "a.onnx", tmp / "b.onnx", 1.5, tmp / "bad.onnx")
    check(run.returncode != 0 and "--alpha" in run.stderr, "alpha 1.5 is refused")
finish()
