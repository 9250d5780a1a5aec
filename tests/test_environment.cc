// Settings for the whole test binary, made before any test runs.
#include "core/data/idx_reader.h"

namespace {

// Many tests run a Fashion-MNIST scenario each; decoding the files once, not once per run,
// took a quarter off each short run.
const bool kKeepDatasets = (geotrain::keep_idx_datasets_loaded(true), true);

}  // namespace
