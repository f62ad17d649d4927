#include "cli.h"

#include <fmt/format.h>
#include <unistd.h>
#include <xapian.h>

#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>

#include "printer.h"
#include "sagasu/error.h"
#include "sagasu/index_location.h"
#include "sagasu/searcher.h"

namespace po = boost::program_options;

namespace sagasu::searcher_cli {
namespace {

constexpr int EXIT_HITS = 0;
constexpr int EXIT_NO_HITS = 1;
constexpr int EXIT_ERROR = 2;

struct Args {
  std::vector<std::string> index;
  bool allow_partial = false;
  SearchRequest req;
  bool json = false;
  bool jsonl = false;
  bool paths = false;
  bool null = false;
  bool vimgrep = false;
  std::string sort = "relevance";
  std::string color = "auto";
  std::string analyze;
  bool analyze_set = false;
  std::size_t facet_limit = 10;
  std::vector<std::string> facet;
  std::string facets;
  std::string list;
  bool help = false;
};

// The option table: --help and the README usage come from it.
po::options_description options(Args& a) {
  po::options_description d(
      "Usage: searcher [options] QUERY...\n\n"
      "QUERY: words (all must match), \"phrases\", -word to exclude, and filters\n"
      "venue:OSDI year:2025 year:2024..2026 person:\"Xin Liu\" org:ByteDance kind:person\n"
      "(values of one facet are OR-ed, different facets AND-ed)\n\nOptions",
      110, 60);
  d.add_options()
      ("index,i", po::value(&a.index)->value_name("DIR"),
       "index folder (default: $SAGASU_INDEX, else $XDG_DATA_HOME/sagasu/index); repeat it, or give "
       "tcp://HOST:PORT (xapian-tcpsrv) or a stub file, to search shards as one index")
      ("allow-partial", po::bool_switch(&a.allow_partial),
       "search the shards that answer when some do not; the result says which are missing")
      ("filter,f", po::value(&a.req.filters)->value_name("F:V"), "add a facet filter FIELD:VALUE (repeatable)")
      ("limit,n", po::value(&a.req.limit)->value_name("N"), "show at most N hits (default: 10; all with --paths, --vimgrep, --jsonl)")
      ("offset", po::value(&a.req.offset)->value_name("N"), "skip the first N hits")
      ("snippets", po::value(&a.req.snippets)->value_name("N"), "snippet fragments per hit (default: 1, 0 for none)")
      ("facet", po::value(&a.facet)->value_name("NAME"), "count this facet (repeatable): venue, year, person, org, kind")
      ("facets", po::value(&a.facets)->value_name("LIST"), "facets to count: all (default), none, or a comma-separated list")
      ("facet-limit", po::value(&a.facet_limit)->value_name("N"), "facet values shown per facet (default: 10, 0: all)")
      ("list", po::value(&a.list)->value_name("FACET"), "print every value of FACET in the index with its note count")
      ("json", po::bool_switch(&a.json), "print one JSON object (schema in README)")
      ("jsonl", po::bool_switch(&a.jsonl), "print JSON Lines: one object per hit, then a summary object")
      ("paths", po::bool_switch(&a.paths), "print only the hits' paths, one per line (blanks escaped for xargs)")
      ("null,0", po::bool_switch(&a.null), "with --paths: end each path with NUL, unescaped (xargs -0)")
      ("vimgrep", po::bool_switch(&a.vimgrep), "print path:line:column:text for every match (editors, fzf)")
      ("sort", po::value(&a.sort)->value_name("ORDER"), "relevance (default), year (newest first) or title")
      ("exact", po::bool_switch(&a.req.exact), "no folding: each query word must occur as typed")
      ("explain", po::bool_switch(&a.req.explain), "show the query's tokens per tier and each hit's score parts")
      ("color", po::value(&a.color)->value_name("WHEN"), "auto, always or never (NO_COLOR is respected)")
      ("analyze", po::value(&a.analyze)->value_name("TEXT"),
       "print the analyzer's tokens of TEXT (position, bytes, kind, token) and exit")
      ("help,h", po::bool_switch(&a.help), "show this help");
  return d;
}

// Writes everything at once; a closed pipe (| head) is not an error.
void write_out(const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, s.data() + done, s.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // EPIPE and friends: the reader went away
    }
    done += static_cast<std::size_t>(n);
  }
}

int run_checked(int argc, char** argv) {
  Args a;
  auto desc = options(a);
  po::options_description hidden;
  std::vector<std::string> positional;
  hidden.add_options()("query", po::value(&positional));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("query", -1);
  // "-word" excludes a word: an argument with one dash and more than one
  // letter is query text (short options stand alone: -n 5, not -n5). It goes
  // to the option parser marked as a positional argument, so order is kept.
  constexpr char DASH_WORD = '\x01';
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    args.push_back(arg.size() > 2 && arg[0] == '-' && arg[1] != '-' ? DASH_WORD + arg : arg);
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (a.help) {
    std::ostringstream s;
    s << desc << "\nExit status: 0 hits found, 1 no hits, 2 error.\n";
    write_out(s.str());
    return EXIT_HITS;
  }
  if (a.sort == "year") a.req.sort = SearchRequest::Sort::Year;
  else if (a.sort == "title") a.req.sort = SearchRequest::Sort::Title;
  else if (a.sort != "relevance") throw UsageError(fmt::format("--sort {}: expected relevance, year or title", a.sort));
  if (static_cast<int>(a.json) + a.jsonl + a.paths + a.vimgrep > 1)
    throw UsageError("choose one of --json, --jsonl, --paths, --vimgrep");
  // Output for pipes lists every hit unless --limit says otherwise.
  if ((a.paths || a.vimgrep || a.jsonl) && !vm.count("limit")) a.req.limit = std::numeric_limits<std::size_t>::max() / 2;
  if (a.paths || a.vimgrep) {
    a.req.snippets = 0;  // not shown: not computed
    if (!vm.count("facets") && !vm.count("facet")) a.facets = "none";
  }
  if (a.color != "auto" && a.color != "always" && a.color != "never")
    throw UsageError(fmt::format("--color {}: expected auto, always or never", a.color));
  const char* no_color = std::getenv("NO_COLOR");
  const bool color = a.color == "always" ||
                     (a.color == "auto" && isatty(STDOUT_FILENO) && !(no_color && *no_color));
  std::string out;
  if (vm.count("analyze")) {
    Analyzer analyzer;
    print_tokens(out, a.analyze, analyzer.analyze(a.analyze));
    write_out(out);
    return EXIT_HITS;
  }
  // Query words in the order given, "-word" exclusions included.
  for (std::string w : positional) {
    if (!w.empty() && w.front() == DASH_WORD) w.erase(0, 1);
    a.req.query += (a.req.query.empty() ? "" : " ") + w;
  }
  if (a.req.query.empty() && a.req.filters.empty() && a.list.empty())
    throw UsageError("no query given (try 'searcher --help')");
  IndexSet indexes{a.index, a.allow_partial};
  if (indexes.locations.empty())
    indexes.locations.push_back(
        resolve_index_path("", std::getenv("SAGASU_INDEX"), std::getenv("XDG_DATA_HOME"), std::getenv("HOME")));
  // Which facets to count: only what is shown costs time.
  if (!a.facets.empty() || !a.facet.empty()) {
    a.req.facets.clear();
    if (a.facets == "all") a.req.facets = SearchRequest().facets;
    else if (a.facets != "none")
      for (std::size_t p = 0; p < a.facets.size();) {
        const auto comma = a.facets.find(',', p);
        const std::string name = a.facets.substr(p, comma == std::string::npos ? std::string::npos : comma - p);
        if (!name.empty()) a.req.facets.push_back(name);
        if (comma == std::string::npos) break;
        p = comma + 1;
      }
    for (const auto& f : a.facet) a.req.facets.push_back(f);
  }
  Searcher searcher(indexes);
  for (const auto& m : searcher.missing_shards())
    fmt::print(stderr, "searcher: warning: {} not searched (down, or not given): results and counts leave its notes out\n", m);
  if (!a.list.empty()) {
    const FacetCounts counts = searcher.list(a.list);
    print_list(out, counts, a.json);
    write_out(out);
    return counts.values.empty() ? EXIT_NO_HITS : EXIT_HITS;
  }
  const SearchResult res = searcher.search(a.req);
  for (const auto& n : res.notices) fmt::print(stderr, "searcher: {}\n", n);
  if (!res.suggestions.empty()) {
    std::string s;
    for (const auto& w : res.suggestions) s += (s.empty() ? "" : ", ") + w;
    fmt::print(stderr, "searcher: no hits; did you mean: {}\n", s);
  }
  if (a.json) {
    print_json(out, a.req, res);
  } else if (a.jsonl) {
    print_jsonl(out, a.req, res);
  } else if (a.paths) {
    print_paths(out, res, a.null);
  } else if (a.vimgrep) {
    print_vimgrep(out, searcher.analyzer(), res);
  } else {
    if (a.req.explain) print_explain(out, res);
    print_text(out, a.req, res, {color, a.facet_limit});
  }
  write_out(out);
  return res.total > 0 ? EXIT_HITS : EXIT_NO_HITS;
}

}  // namespace

int run(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return run_checked(argc, argv);
  } catch (const UsageError& e) {
    fmt::print(stderr, "searcher: {}\n", e.what());
  } catch (const Error& e) {
    fmt::print(stderr, "searcher: {}\n", e.what());
  } catch (const Xapian::Error& e) {
    fmt::print(stderr, "searcher: index error: {}\n", e.get_description());
  } catch (const std::exception& e) {
    fmt::print(stderr, "searcher: {}\n", e.what());
  }
  return EXIT_ERROR;
}

}  // namespace sagasu::searcher_cli
