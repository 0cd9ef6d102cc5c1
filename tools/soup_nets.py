#!/usr/bin/python3
"""A net halfway (or any part of the way) between two nets of the same graph: each weight
(1 - alpha) x A's + alpha x B's, a "model soup" of a net and its fine-tune. Fine-tuned from the
committed readers, the readers grew surer on the renders and lost real photos (READER_HISTORY.md,
tries 66 and 67); the weights between the two keep part of each (tries 68 and 69 measured it).

  usage: tools/soup_nets.py A.onnx B.onnx --alpha 0.5 --out OUT.onnx

A and B must be exports of one net (the same weights, used in the same order by the same ops), as
a net and its fine-tune from tools/train_reader.py or train_face_reader.py --init-from are; OUT
is A's graph. The exports fold each BatchNorm into its convolution, so the soup mixes the
convolutions as they run. Needs python3-onnx."""
import argparse
import pathlib
import sys
import warnings

import cv2
import numpy as np
import onnx
from google.protobuf.message import DecodeError
from onnx import numpy_helper


def weights_in_use(model):
    """model's weights in the order its nodes first use them, each with that node's op."""
    weights = {w.name: w for w in model.graph.initializer}
    used = []
    for node in model.graph.node:
        for name in node.input:
            if name in weights:
                used.append((node.op_type, weights.pop(name)))
    return used


def soup(first, second, alpha):
    """first's graph with each weight moved alpha of the way to second's, the two matched by the
    order the graphs use them: two exports of one net may name their weights differently, and
    their ops after the last weight may differ (a detector pair's way of joining its halves,
    which stays first's). Raises ValueError when the weights do not match."""
    mixed = onnx.ModelProto()
    mixed.CopyFrom(first)
    mine, theirs = weights_in_use(mixed), weights_in_use(second)
    if len(mine) != len(theirs) or len(mine) != len(mixed.graph.initializer):
        raise ValueError("the two nets do not hold the same number of weights")
    for (op, weight), (other_op, other) in zip(mine, theirs):
        a, b = numpy_helper.to_array(weight), numpy_helper.to_array(other)
        if op != other_op or a.shape != b.shape or a.dtype != b.dtype:
            raise ValueError(f"weight {weight.name} ({op}) and {other.name} ({other_op}) differ")
        if not np.issubdtype(a.dtype, np.floating):
            if not np.array_equal(a, b):
                raise ValueError(f"weight {weight.name} is not a float and differs")
            continue
        blend = ((1.0 - alpha) * a.astype(np.float64) + alpha * b).astype(a.dtype)
        weight.CopyFrom(numpy_helper.from_array(blend, weight.name))
    return mixed


def load(path):
    """The ONNX net at path, or the tool's exit naming the file and what is wrong with it."""
    try:
        with warnings.catch_warnings():  # a file that is no net is told below, in one line
            warnings.simplefilter("ignore")
            model = onnx.load(str(path))
        onnx.checker.check_model(model)  # an empty file parses as an empty net
        return model
    except (OSError, DecodeError, onnx.checker.ValidationError) as error:
        sys.exit(f"soup_nets: {path}: cannot be read as an ONNX net: {error}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", type=pathlib.Path, metavar="A.onnx")
    parser.add_argument("second", type=pathlib.Path, metavar="B.onnx")
    parser.add_argument("--alpha", type=float, required=True, help="B's share, 0 to 1")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    if not 0.0 <= args.alpha <= 1.0:
        parser.error("--alpha must lie from 0 to 1")
    try:
        mixed = soup(load(args.first), load(args.second), args.alpha)
    except ValueError as error:
        sys.exit(f"soup_nets: {args.first} and {args.second}: {error}")
    try:
        onnx.save(mixed, str(args.out))
    except OSError as error:
        sys.exit(f"soup_nets: {args.out}: cannot be written: {error.strerror}")
    try:
        cv2.dnn.readNetFromONNX(str(args.out))  # OpenCV, which runs it in vision/, loads it
    except cv2.error as error:
        args.out.unlink()
        sys.exit(f"soup_nets: {args.out}: OpenCV cannot load it: {str(error).splitlines()[-1]}")
    print(f"{args.out}: {1 - args.alpha:g} x {args.first} + {args.alpha:g} x {args.second}")


if __name__ == "__main__":
    main()
