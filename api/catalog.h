// The public API, part 3 of 4: what can be chosen. Every registered component
// kind, each entry with its name, one-line description and parameters: learners
// (with their capabilities, and which policies and codecs each accepts:
// learner_fit), architectures, network models, policies, codecs, schedulers,
// optimisers, datasets; and profile files (your own model's traffic and time).
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
