# Sourced by the cluster sweep tests: writes WORK/sweep.json (4 points: hips and
# flat x seeds 1, 2; 10 rounds of softmax on synthetic data, named NAME) and puts
# BIN on PATH as `geotrain`, as the example scripts expect.
# usage: tiny_sweep WORK SRC BIN NAME
tiny_sweep() {
  local work=$1 src=$2 bin=$3 name=$4
  cat > "$work/sweep.json" <<SWEEP
{ "name": "$name", "base": "$src/scenarios/quickstart.json",
  "sets": ["model={\"kind\":\"softmax\"}", "dataset={\"kind\":\"synthetic\"}", "stop.rounds=10"],
  "grid": { "architecture": ["hips", "flat"] }, "seeds": [1, 2] }
SWEEP
  mkdir -p "$work/bin"
  ln -s "$bin" "$work/bin/geotrain"
  export PATH=$work/bin:$PATH
}
