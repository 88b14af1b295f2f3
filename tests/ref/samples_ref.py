"""What the references of the sample models share (make_lyapunov_samples.py,
make_report_samples.py): numpy's BLAS on one thread, set before numpy loads it, so that its
sums are the same on every run; where the samples, their text and the fixtures are."""
import os
import sys

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
TEXT = os.path.join(ROOT, "samples", "kjv-valid.txt")
WORDS_TEXT = os.path.join(ROOT, "samples", "kjv-words-valid.txt")  # the word model's


def model_path(name, ext=".bin"):
    """samples/NAME.bin (the word model's NAME.pt)"""
    return os.path.join(ROOT, "samples", name + ext)


def fixtures(folder):
    """tests/fixtures/FOLDER, made if it is not there."""
    out = os.path.join(ROOT, "tests", "fixtures", folder)
    os.makedirs(out, exist_ok=True)
    return out
