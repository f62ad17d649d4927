// The searcher command's did-you-mean policy: the library proposes a
// corrected query when nothing matched; the command runs it once.
#pragma once

#include "sagasu/searcher.h"

namespace sagasu {

/// Runs req; when nothing matches and the result proposes a correction, runs
/// the corrected query once and returns its result instead if it has hits,
/// with a notice naming both queries and the original suggestions.
/// (sagasu-eval and the benchmark search through this too, to measure what
/// the command gives.)
SearchResult search_with_correction(Searcher& searcher, const SearchRequest& req);

}  // namespace sagasu
