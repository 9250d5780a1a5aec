// The public API, part 4 of 4: what a front end needs of the machine, done the
// way geotrain's own runs do it: whole-file writes readers never see half done,
// child processes that die with their parent and are stopped the orderly way on
// Ctrl-C, the allocator's start-up settings, and the text helpers the outputs use.
#pragma once
#include "core/base/allocator_settings.h"
#include "core/base/atomic_file.h"
#include "core/base/text.h"
#include "real/process.h"
#include "real/stop_signals.h"
