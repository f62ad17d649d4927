// Printers of search results: text for people, JSON for programs. Both
// append to a string; the CLI writes it out once.
#pragma once

#include <string>
#include <vector>

#include "sagasu/searcher.h"
#include "sagasu/token.h"

namespace sagasu {

/// How text output looks.
struct TextStyle {
  bool color = false;         ///< ANSI colours (a TTY); else plain markers
  std::size_t facet_limit = 10;  ///< values shown per facet (0: all)
};

/// Results for people: rank, title, path, kind, years/venues, snippet, facets.
void print_text(std::string& out, const SearchRequest& req, const SearchResult& res, const TextStyle& style);
/// The --explain preamble: the query's pieces in every tier and the Xapian query.
void print_explain(std::string& out, const SearchResult& res);
/// The documented JSON object (README "JSON output"), one line.
void print_json(std::string& out, const SearchRequest& req, const SearchResult& res);
/// JSON Lines: one {"type":"hit"} object per hit, then one {"type":"summary"} with totals and facets.
void print_jsonl(std::string& out, const SearchRequest& req, const SearchResult& res);
/// One path per hit, relative to the current folder: newline-terminated with blanks
/// and quotes backslash-escaped (for xargs), or NUL-terminated and raw.
void print_paths(std::string& out, const SearchResult& res, bool null_separated);
/// path:line:column:text for each match in each hit's file (editors, fzf).
void print_vimgrep(std::string& out, Analyzer& analyzer, const SearchResult& res);
/// Every value of a facet with its note count: "value<TAB>count" lines, or one JSON object.
void print_list(std::string& out, const FacetCounts& facet, bool json);
/// The token dump: "position bytes kind token" per line.
void print_tokens(std::string& out, const std::string& text, const std::vector<Token>& tokens);

/// The JSON schema version printed as "version".
inline constexpr int JSON_VERSION = 1;

}  // namespace sagasu
