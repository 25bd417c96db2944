#!/bin/sh
# run.sh PYTHON BUILD ROOT TESTFILE… — the Python package's pytest files against this
# build (PYTHONPATH=BUILD/python, the command BUILD/tlop); skipped (77) when the
# interpreter lacks numpy or pytest (Debian: python3-numpy python3-pytest).
py=$1 build=$2 root=$3
shift 3
"$py" -c "import numpy, pytest" 2>/dev/null || { echo "skipped: $py has no numpy or pytest"; exit 77; }
cd "$root" || exit 1
PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" TLOP_CLI="$build/tlop" TLOP_ROOT="$root" \
  MPLBACKEND=Agg PYTHONDONTWRITEBYTECODE=1 \
  exec "$py" -m pytest -q -p no:cacheprovider "$@"
