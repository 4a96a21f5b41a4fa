# SPDX-License-Identifier: Apache-2.0
"""A test that cannot run here says so by name, with the reason and the fix,
and is never counted as passed.

It exits NOT_RUN (77), which CTest knows as the test's SKIP_RETURN_CODE: ctest
lists it under "The following tests did not run", and scripts/test counts it in
its summary line. Under CI (the environment variable CI set and not empty)
whatever is missing is a failure instead: CI has every peer and the test data.
"""

import os
import sys

NOT_RUN = 77

TESTDATA_HINT = ("put Apache Avro's test data there (what ../shared/apache-avro-testdata "
                 "holds beside a checkout: its MANIFEST names each file's origin) or set "
                 "AVROGEN_TESTDATA to its folder and configure again")


def not_run(test, reason, fix):
    """Stop `test`: NOT RUN (exit 77), or under CI a failure (exit 1)."""
    if os.environ.get("CI"):
        print(f"FAIL: {test}: {reason}; {fix} (CI is set: every test must run)", flush=True)
        sys.exit(1)
    print(f"NOT RUN: {test}: {reason}; {fix}", flush=True)
    sys.exit(NOT_RUN)


def require_testdata(test, path):
    """Stop `test` unless `path` holds Apache Avro's test data (its MANIFEST)."""
    if not path or not os.path.isfile(os.path.join(path, "MANIFEST")):
        not_run(test, f"no Apache Avro test data at {path}", TESTDATA_HINT)
