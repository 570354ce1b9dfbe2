"""Lets the tests import the grader helper module beside them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
