#!/usr/bin/env bash
# docs/reference.md is what `geotrain list --markdown` writes now: a registry or
# schema change without the regenerated reference fails here.
# usage: check_reference.sh SOURCE_DIR GEOTRAIN
set -euo pipefail
src=$1 bin=$2
if ! diff -u "$src/docs/reference.md" <("$bin" list --markdown); then
  echo "docs/reference.md is stale: regenerate it with  build/geotrain list --markdown > docs/reference.md" >&2
  exit 1
fi
echo "docs/reference.md matches the registries and schemas"
