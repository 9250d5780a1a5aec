"""Where the benchmark scripts find geotrain's binaries, and a clear exit when one is missing.

build/geotrain and build/geotrain-bench are what scripts/build.sh makes; GEOTRAIN_BIN names another
geotrain (another build, say) for the scripts that take no --geotrain option.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEOTRAIN = os.path.join(ROOT, "build", "geotrain")
GEOTRAIN_BENCH = os.path.join(ROOT, "build", "geotrain-bench")


def require(path, other=None):
    """`path` if it is an executable file; else exits (status 1) saying what is missing and how to
    get it. `other`: how this script is pointed at another binary (an option, or GEOTRAIN_BIN=PATH)."""
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    sys.exit(f"{path}: no such executable. scripts/build.sh builds build/geotrain and build/geotrain-bench"
             + (f"; or name another with {other}" if other else "") + ".")


# The geotrain of the scripts that take no --geotrain option.
GEOTRAIN_FROM_ENV = os.environ.get("GEOTRAIN_BIN", GEOTRAIN)


def require_geotrain_from_env():
    """GEOTRAIN_FROM_ENV, checked."""
    return require(GEOTRAIN_FROM_ENV, "GEOTRAIN_BIN=PATH")
