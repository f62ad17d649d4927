#include "fallback.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace sagasu {
namespace {

std::string quoted_list(const std::vector<std::string>& words) {
  std::vector<std::string> q;
  for (const auto& w : words) q.push_back("'" + w + "'");
  return fmt::format("{}", fmt::join(q, ", "));
}

// Only a compound's pieces apart: the message says "together".
bool apart_only(const LooseReasons& by) {
  return by.words_apart && !by.inside_words && !by.weaker_equivalents;
}

}  // namespace

std::vector<std::string> zero_hit_messages(const SearchRequest& req, const SearchResult& typed) {
  std::vector<std::string> out;
  if (typed.total > 0) return out;
  if (typed.loose_more > 0 && apart_only(typed.loose_by))
    out.push_back(fmt::format("no note has the words of '{}' together; {} {} them apart (--loose lists them)",
                              req.query, typed.loose_more, typed.loose_more == 1 ? "has" : "have"));
  else if (typed.loose_more > 0)
    out.push_back(fmt::format("no note matches '{}' as typed; {} {} {} (--loose lists them)", req.query,
                              typed.loose_more, typed.loose_more == 1 ? "has" : "have",
                              typed.loose_by.text()));
  if (!typed.correction.empty())
    out.push_back(fmt::format("no hits for '{}'; did you mean '{}'?", req.query, typed.correction));
  else if (!typed.suggestions.empty())
    out.push_back(
        fmt::format("no hits for '{}'; did you mean {}?", req.query, quoted_list(typed.suggestions)));
  return out;
}

PeopleSearch search_for_people(Searcher& searcher, const SearchRequest& req) {
  PeopleSearch out;
  out.result = searcher.search(req);
  out.typed_total = out.result.total;
  if (out.result.total > 0) return out;
  out.typed = out.result;
  const SearchResult& typed = out.typed;
  auto show = [&](SearchRequest again, std::string heading) {
    SearchResult r = searcher.search(again);
    if (r.total == 0) return false;
    r.suggestions = typed.suggestions;
    r.correction = typed.correction;
    out.result = std::move(r);
    out.heading = std::move(heading);
    return true;
  };
  SearchRequest loose = req;
  loose.loose = true;
  const std::string notes = typed.loose_more == 1 ? "1 note" : fmt::format("{} notes", typed.loose_more);
  if (typed.loose_more > 0 &&
      show(loose,
           apart_only(typed.loose_by)
               ? fmt::format("No note has the words of '{}' together; {} with them apart:", req.query, notes)
               : fmt::format("No note matches '{}' as typed; {} with {}:", req.query, notes,
                             typed.loose_by.text())))
    return out;
  SearchRequest widened = req;
  widened.widen = true;
  if (!req.widen && typed.widenable &&  // one piece: widening would search the same again
      show(widened, fmt::format("No note has every word of '{}'; notes with some of them:", req.query)))
    return out;
  SearchRequest corrected = req;
  corrected.query = typed.correction;
  if (!typed.correction.empty() &&
      show(corrected, fmt::format("No hits for '{}'; hits for '{}':", req.query, typed.correction)))
    return out;
  return out;
}

}  // namespace sagasu
