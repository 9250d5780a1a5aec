// The public API, part 3 of 4: what can be chosen. Every registered component
// kind, each entry with its name, one-line description and parameters: learners
// (with their capabilities, and which policies and codecs each accepts:
// learner_fit), architectures, network models, policies, codecs, schedulers,
// optimisers, datasets; and profile files (your own model's traffic and time).
// And your own learner: register_learner(LearnerInfo) adds one for the life of
// the process, chosen by its name as `model.kind` like a built-in one (the
// Learner seam is core/learners/learner.h; learners() lists them all). The
// kinds of learner are the one table the API keeps per process: a table of
// what can be chosen, never of a run's state.
#pragma once
#include "core/codec/codec_registry.h"
#include "core/config/learner_fit.h"
#include "core/config/network_models.h"
#include "core/data/dataset_registry.h"
#include "core/layers/sched/scheduler_registry.h"
#include "core/learners/learner_registry.h"
#include "core/learners/profile_file.h"
#include "core/optim/optimizer_registry.h"
#include "core/policies/policy_registry.h"
#include "core/topology/deployment.h"  // architecture_registry
