// Printers of search results behind one interface (notmuch's sprinter): text
// for people, JSON and JSON Lines for programs, paths for xargs, vimgrep lines
// for editors and fzf. Each appends to a string; the command writes it once.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sagasu/analyzer.h"
#include "sagasu/dictionary.h"
#include "sagasu/searcher.h"
#include "sagasu/token.h"

namespace sagasu {

/// The JSON schema version printed as "version".
inline constexpr int JSON_VERSION = 1;

/// The output formats.
enum class OutputFormat { Text, Json, JsonLines, Paths, Vimgrep };

/// The object `--json` prints for a result (README "JSON output").
nlohmann::json result_json(const SearchRequest& req, const SearchResult& res);
/// What links to a note as JSON: {path, title, total, backlinks: [{path,
/// title, kind, lines: [{line, text}]}]} (the MCP tool and --backlinks --json).
nlohmann::json backlinks_json(const Backlinks& b);
/// --backlinks for people and editors ("path:line:text", one line per link)
/// or for xargs (paths, NUL-terminated with `null`).
std::string backlinks_text(const Backlinks& b, OutputFormat format, bool null_separated);
/// Related notes as JSON: {path, title, related: [{path, title, kind, score, why}]}
/// (the MCP tool and --related --json).
nlohmann::json related_json(const Related& r);
/// --related for people ("N. title [kind]", its path, why) or for xargs (paths).
std::string related_text(const Related& r, OutputFormat format, bool null_separated);
/// JSON as one line; bytes that are not UTF-8 become U+FFFD.
std::string dump(const nlohmann::json& j);

/// How output looks.
struct PrintOptions {
  bool color = false;            ///< text: ANSI colours (a TTY); else plain ** markers
  std::size_t facet_limit = 10;  ///< text: values shown per facet (0: all)
  bool null_separated = false;   ///< paths and vimgrep: each path raw and NUL-terminated, not escaped
  /// Text: the terminal's width in columns; no line is wider (titles, paths
  /// and snippets cut at a character boundary with …, a snippet's sources
  /// shortened to venue and year, the years as a histogram). 0: lines as they
  /// are (a pipe), nothing cut.
  std::size_t width = 0;
};

class Printer {
 public:
  virtual ~Printer() = default;
  /// The result of a search (and the request it answers).
  virtual void result(std::string& out, const SearchRequest& req, const SearchResult& res) = 0;
  /// Every value of a facet with its note count (--list): "value<TAB>count" lines.
  virtual void facet_list(std::string& out, const FacetCounts& facet);
};

/// A line of a hit's file where the query matches.
struct LineMatch {
  std::size_t line = 0;                                    ///< 1-based
  std::string text;                                        ///< the line, without its newline
  std::vector<std::pair<std::size_t, std::size_t>> spans;  ///< matched byte spans in text, ascending
};

/// Every line of the hit's file (h.file, as it is now) where the query
/// matches, found with the analyzer as the snippets are; empty when the file
/// is gone or nothing in it matches (a hit by title or link target only).
std::vector<LineMatch> line_matches(const Hit& h, Analyzer& analyzer);

/// The printer of a format. Vimgrep re-reads the hits' files and finds the
/// matches with the analyzer.
std::unique_ptr<Printer> make_printer(OutputFormat format, const PrintOptions& options, Analyzer& analyzer);

/// Cuts each line of text to at most width terminal columns (ANSI colour
/// codes take none), at a character boundary, ending a cut line with "…".
std::string fit_lines(std::string_view text, std::size_t width);

/// The token dump (--analyze): "position bytes kind token" per line.
void print_tokens(std::string& out, const std::string& text, const std::vector<Token>& tokens,
                  const Dictionary& dictionary, Analyzer& analyzer);

}  // namespace sagasu
