// The four roles of the parameter-server hierarchy (core/roles): what a node is,
// in a deployment (core/topology/deployment.h) and to a policy
// (core/policies/sync_policy.h).
#pragma once

namespace geotrain {

enum class Role { kWorker, kLocalServer, kGlobalServer, kStateServer };
const char* to_string(Role r);

}  // namespace geotrain
