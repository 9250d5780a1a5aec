// Settings for the whole test binary, made before any test runs.
#include "core/base/allocator_settings.h"
#include "core/data/idx_reader.h"

namespace {

// Many tests run a Fashion-MNIST scenario each; decoding the files once, not once per run,
// took a quarter off each short run.
const bool kKeepDatasets = (geotrain::keep_idx_datasets_loaded(true), true);
// The allocator as the geotrain binary sets it, so tests run the product's memory behaviour.
const bool kAllocator = geotrain::configure_allocator();

}  // namespace
