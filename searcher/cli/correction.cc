#include "correction.h"

#include <fmt/format.h>

namespace sagasu {

SearchResult search_with_correction(Searcher& searcher, const SearchRequest& req) {
  SearchResult result = searcher.search(req);
  if (result.total > 0 || result.correction.empty()) return result;
  SearchRequest corrected = req;
  corrected.query = result.correction;
  SearchResult again = searcher.search(corrected);
  if (again.total == 0) return result;
  again.notices.insert(again.notices.begin(),
                       fmt::format("no hits for '{}'; showing hits for '{}'", req.query, corrected.query));
  again.suggestions = std::move(result.suggestions);
  return again;
}

}  // namespace sagasu
