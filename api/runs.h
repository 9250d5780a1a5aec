// The public API, part 2 of 4: runs, and what they give back.
//  - sim::run_simulation(scenario, SimOptions): the whole job in one process, on
//    the network model the scenario's `network.model` names (api/catalog.h lists
//    them). A flow-model run has its own event loop, threads and state, so
//    several may run at once on threads of one process, each giving what it
//    gives alone, bit for bit; ns-3's simulator is process-global, so a
//    packet-level run waits for the one before it to end.
//  - real::launch(path, sets, out, LaunchOptions): every node as a process on
//    this machine, over loopback sockets and an emulated WAN.
//  - real::run_role(RealConfig, node id): one node of a real deployment.
//  - RunResult: the summary (summary_json) and the timeline (RunResult::timeline,
//    one TimelineRow per evaluation); write_run_outputs writes both as the CLI does.
//  - estimate_sim_memory / estimate_launch_memory, TrainingJob: what a run will
//    need and what it is made of, before it starts.
#pragma once
#include "core/job/job.h"              // TrainingJob
#include "core/job/memory_estimate.h"  // estimate_*_memory, memory_limit_bytes, check_memory
#include "core/run/results.h"          // RunResult, TimelineRow, summary_json, write_run_outputs
#include "real/launcher.h"             // real::launch, LaunchOptions
#include "real/real_config.h"          // real::RealConfig, load_real_config
#include "real/role_process.h"         // real::run_role
#include "sim/compute_pool.h"          // sim::ComputePool::all_cores (the default --threads)
#include "sim/network_model.h"         // sim::can_make_network_model (each registered name has its model)
#include "sim/sim_runner.h"            // sim::run_simulation, SimOptions
