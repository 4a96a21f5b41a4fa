#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What ctest runs in place of Python when the Python it was configured with
has no `avro` module (python3-avro, the peer most Python tests read and write
through): the test says it did not run, by the name of its script, and why.

    python_avro_missing.py PYTHON SCRIPT [ARGS...]

Exit 77 (tests/notrun.py: ctest's SKIP_RETURN_CODE), or 1 under CI.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import notrun  # noqa: E402

python = sys.argv[1] if len(sys.argv) > 1 else "python3"
script = os.path.basename(sys.argv[2]) if len(sys.argv) > 2 else "a Python test"
notrun.not_run(script, f"{python} has no avro module (python3-avro)",
               "scripts/bootstrap installs python3-avro; or configure with "
               "-DAVROGEN_PYTHON=/path/to/a/python/that/has/it")
