// What the searcher command shows a person when the query as typed finds
// nothing: the closest search that finds something, under a heading that says
// what was searched instead. Pipelines (--paths, --vimgrep, --json, --jsonl)
// never get this: they, and the exit status, answer the query as typed.
#pragma once

#include <string>

#include "sagasu/searcher.h"

namespace sagasu {

/// A search as a person reads it.
struct PeopleSearch {
  SearchResult result;  ///< what to show
  std::size_t typed_total =
      0;                ///< the hits of the query as typed (the exit status says whether there are any)
  SearchResult typed;   ///< with a heading: the result of the query as typed (nothing)
  std::string heading;  ///< when result answers another search: what it is, and why
};

/// Runs req as typed; when it finds nothing, tries in order: the pieces of a
/// compound apart (loose), notes with any of the words (widen), the corrected
/// query (did you mean). The first that finds something is shown, with a
/// heading. (sagasu-eval and the benchmark search through this too, to measure
/// what a person sees.)
PeopleSearch search_for_people(Searcher& searcher, const SearchRequest& req);

/// What standard error says of a query as typed that found nothing, the same
/// in every output format: the words apart ("no note has the words of 'X'
/// together; 3 have them apart (--loose lists them)") and did-you-mean ("no
/// hits for 'X'; did you mean 'Y'?"). Empty lines are left out.
std::vector<std::string> zero_hit_messages(const SearchRequest& req, const SearchResult& typed);

}  // namespace sagasu
