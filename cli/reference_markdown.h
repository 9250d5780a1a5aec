// docs/reference.md, generated: `geotrain list --markdown`. Every scenario and
// topology field from the JSON Schemas (type, range, default, meaning), then
// every registered architecture, policy, codec, scheduler, learner, optimiser
// and dataset with its parameters. The test docs.reference_is_current fails
// when the committed file differs from what this writes.
#pragma once
#include <string>

namespace geotrain::cli {

// `schema_dir`: the source tree, where scenarios/ and topologies/ hold the schemas.
std::string reference_markdown(const std::string& source_dir);

}  // namespace geotrain::cli
