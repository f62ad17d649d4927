// The settings an index is built with (vault, config file, file name
// endings, largest file), kept in the index so that a plain run uses them,
// and the guard that no changed setting drops notes without --rebuild.
#pragma once

#include <string>

#include "index_state.h"
#include "sagasu/indexer.h"
#include "vault_walk.h"

namespace sagasu {

/// The settings of opts as the index stores them (schema.h: META_SETTINGS).
std::string encode_settings(const IndexOptions& opts);

/// Throws Error when this run would delete notes whose files are still in the
/// vault because opts.extensions leaves them out: nothing is written, and the
/// message names the endings that keep them.
void refuse_left_out(const IndexState& state, const VaultScan& scan, const IndexOptions& opts);

}  // namespace sagasu
