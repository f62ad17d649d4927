// After a run: how much of the index each facet covers and from which
// sources, the kinds, and the property keys no facet reads, read from the
// documents' COVERAGE and KIND values (value streams: no document is fetched).
// It tells a user at once why a facet is empty and what to put in the config.
#pragma once

#include "sagasu/indexer.h"
#include "shard_set.h"

namespace sagasu {

/// Fills report.indexed, coverage, kinds and unmapped_keys from every shard.
void read_coverage(ShardSet& shards, IndexReport& report);

}  // namespace sagasu
