#!/usr/bin/python3
"""tools/train_reader.py's --keep-where-right: which training scenes learn their labels and which
keep the teacher's maps (detector_roles, read_right), and the focal loss leaving the unlabelled
samples out (focal_loss's labelled flags) against the loss of the labelled samples alone.

  tests/test_detector_roles.py

Exits 1 on a failed check; 77 (skipped) without python3-torch, python3-numpy or python3-opencv
(tools/setup.sh --train installs them).
"""
import pathlib
import tempfile

import tool_checks
from tool_checks import check, finish

tr = tool_checks.train_reader()
import torch  # noqa: E402


with tempfile.TemporaryDirectory() as tmp:
    photos = pathlib.Path(tmp) / "photos.csv"
    photos.write_text("file,dice,found,status,right,missed,no_value,wrong_value,wrong_ok,reason\n"
                      "a.jpg,2,2,ok,2,0,0,0,0,\n"        # read right
                      "b.jpg,2,1,refused,1,1,0,0,0,x\n"  # refused
                      "c.jpg,1,1,ok,0,0,0,1,1,\n")       # a wrong roll reported sure
    right = tr.read_right(photos)
check(right == {"a.jpg"}, "read_right: only the photo read right and not wrong-sure")

train = [("shared/a.jpg",), ("shared/b.jpg",), ("shared/c.jpg",), ("lawn/d.jpg",),
         ("world/e.jpg",)]
roles = tr.detector_roles(train, {"lawn"}, {"shared": right})
check(roles == [(False, True), (True, False), (True, False), (True, True), (True, False)],
      "detector_roles: read right -> teacher alone; others of that set -> labels alone; "
      "keep-sets -> both; the rest -> labels")
check(tr.detector_roles(train, {"lawn"}, {}) ==
      [(True, False)] * 3 + [(True, True), (True, False)],
      "detector_roles: without --keep-where-right, every scene learns its labels")

torch.manual_seed(3)
pred = torch.rand(4, 6, 6, requires_grad=True)
heat = torch.rand(4, 6, 6) * 0.9
heat[0, 2, 2] = heat[1, 4, 1] = heat[3, 0, 5] = 1.0  # die centres in samples 0, 1 and 3
labelled = torch.tensor([True, False, True, True])
masked = tr.focal_loss(pred, heat, labelled)
alone = tr.focal_loss(pred[labelled], heat[labelled])
check(torch.allclose(masked, alone), "focal_loss with flags = the loss of the labelled alone")
check(torch.allclose(tr.focal_loss(pred, heat, torch.ones(4, dtype=torch.bool)),
                     tr.focal_loss(pred, heat)), "focal_loss: all flagged = no flags")
masked.backward()
check(bool((pred.grad[1] == 0).all()) and bool((pred.grad[0] != 0).any()),
      "focal_loss: an unlabelled sample's map gets no gradient")

finish()
