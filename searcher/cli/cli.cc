#include "cli.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>

#include "cli_support.h"
#include "fallback.h"
#include "mcp.h"
#include "open.h"
#include "printer.h"
#include "sagasu/error.h"
#include "sagasu/index_location.h"
#include "sagasu/schema.h"
#include "sagasu/searcher.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace po = boost::program_options;

namespace sagasu::searcher_cli {
namespace {

// The commands' names as this one was started (cli_support.h): messages begin with ours.
cli::CommandNames g_names;

constexpr int EXIT_HITS = 0;
constexpr int EXIT_NO_HITS = 1;

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
  std::string open;
  std::string backlinks;
  std::string related;
  std::size_t facet_limit = 10;
  std::size_t width = 0;
  std::vector<std::string> facet;
  std::string facets;
  std::string list;
  bool fields = false;
  bool mcp = false;
  bool help = false;
  bool no_bridge = false;
  std::vector<std::string> positional;  // query words, "-word" exclusions marked
  po::variables_map vm;
};

// "-word" excludes a word: an argument with one dash and more than one letter
// is query text (short options stand alone: -n 5, not -n5). It goes to the
// option parser marked as a positional argument, so order is kept.
constexpr char DASH_WORD = '\x01';

// The option table: --help, the man page, the README usage and completion come from it.
po::options_description options(Args& a) {
  po::options_description d("Usage: " + g_names.searcher +
                                " [options] QUERY...\n\n"
                                "QUERY: words (all must match), \"phrases\", -word to exclude, and filters\n"
                                "venue:OSDI year:2025 year:2024..2026 person:\"Xin Liu\" org:ByteDance\n"
                                "(values of one facet are OR-ed, different facets AND-ed)\n\nOptions",
                            80, 40);
  const std::string facet_list = schema::field_names(true);
  // clang-format off
  d.add_options()
      ("index,i", po::value(&a.index)->value_name("DIR"),
       "index folder (default: $SAGASU_INDEX, else $XDG_DATA_HOME/sagasu/index); repeat it, or give "
       "tcp://HOST:PORT (xapian-tcpsrv) or a stub file, to search shards as one index")
      ("allow-partial", po::bool_switch(&a.allow_partial),
       "search the shards that answer when some do not; the result says which are missing")
      ("filter,f", po::value(&a.req.filters)->value_name("F:V"), "add a facet filter FIELD:VALUE (repeatable)")
      ("limit,n", cli::count_option(a.req.limit, "--limit"), "show at most N hits (default: 10; all with --paths, --vimgrep, --jsonl)")
      ("offset", cli::count_option(a.req.offset, "--offset"), "skip the first N hits")
      ("snippets", cli::count_option(a.req.snippets, "--snippets"), "snippet fragments per hit (default: 1, 0 for none)")
      ("facet", po::value(&a.facet)->value_name("NAME"), ("count this facet (repeatable): " + facet_list).c_str())
      ("facets", po::value(&a.facets)->value_name("LIST"), "facets to count: all (default), none, or a comma-separated list")
      ("facet-limit", cli::count_option(a.facet_limit, "--facet-limit"), "facet values shown per facet (default: 10, 0: all)")
      ("list", po::value(&a.list)->value_name("FACET"),
       ("print every value of FACET in the index with its note count: " + facet_list + " or tag").c_str())
      ("fields", po::bool_switch(&a.fields), "print the query fields (name, kind, facet or filter, values) and exit")
      ("mcp", po::bool_switch(&a.mcp),
       "serve the Model Context Protocol on standard input and output, for agents (tools: search, read_note, "
       "facet_values, backlinks, related_notes, index_status)")
      ("json", po::bool_switch(&a.json), "print one JSON object (schema in README)")
      ("jsonl", po::bool_switch(&a.jsonl), "print JSON Lines: one object per hit, then a summary object")
      ("paths", po::bool_switch(&a.paths), "print only the hits' paths, one per line (blanks escaped for xargs)")
      ("null,0", po::bool_switch(&a.null), "with --paths: end each path with NUL, unescaped (xargs -0); with --vimgrep: the path unescaped, then NUL, then line:column:text")
      ("vimgrep", po::bool_switch(&a.vimgrep), "print path:line:column:text for every match (editors, fzf)")
      ("sort", po::value(&a.sort)->value_name("relevance|year|title"), "relevance (default), year (newest first) or title")
      ("exact", po::bool_switch(&a.req.exact), "no folding: each query word must occur as typed (no bridges either)")
      ("no-bridge", po::bool_switch(&a.no_bridge),
       "no bridge tier: a word does not also find the notes that say it in the other language "
       "(強化学習 → reinforcement learning, プリフィル → prefill)")
      ("loose", po::bool_switch(&a.req.loose),
       "also notes where the pieces of a word typed as one (文字列型: 文字列 + 型) are apart")
      ("explain", po::bool_switch(&a.req.explain), "show the query's tokens per tier and each hit's score parts")
      ("color", po::value(&a.color)->value_name("auto|always|never"), "when to colour: auto (default), always or never (NO_COLOR is respected)")
      ("width", cli::count_option(a.width, "--width"),
       "text: no line wider than N columns (default on a terminal: its width, or $COLUMNS; in a pipe: 0, lines as they are)")
      ("open", po::value(&a.open)->value_name("N"),
       "open the Nth hit in $VISUAL or $EDITOR at its first matching line (+LINE for vi, Emacs, nano …); "
       "FILE:LINE opens that file at that line")
      ("backlinks", po::value(&a.backlinks)->value_name("PATH"),
       "list the notes that link to the note PATH ([[name]], [[alias]], a citation), ranked: path:line:text for each "
       "link, or --paths, --json")
      ("related", po::value(&a.related)->value_name("PATH"),
       "list the notes most related to the note PATH (links either way, shared sources, people, organizations, "
       "tags, distinctive words), each with why; --limit, --paths, --json")
      ("analyze", po::value(&a.analyze)->value_name("TEXT"),
       "print the analyzer's tokens of TEXT (position, bytes, kind, token) and exit")
      ("help,h", po::bool_switch(&a.help), "show this help");
  // clang-format on
  return d;
}

// Parses argv into a; returns the option table for --help.
po::options_description parse(int argc, char** argv, Args& a) {
  auto desc = options(a);
  po::options_description hidden;
  hidden.add_options()("query", po::value(&a.positional));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("query", -1);
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    args.push_back(arg.size() > 2 && arg[0] == '-' && arg[1] != '-' ? DASH_WORD + arg : arg);
  }
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), a.vm);
    po::notify(a.vm);
  } catch (const po::error& e) {
    std::string what = e.what();  // the mark is no part of what the user typed
    what.erase(std::remove(what.begin(), what.end(), DASH_WORD), what.end());
    throw UsageError(what);
  }
  // An option's value that starts with a dash (-f -kind:person, --analyze -x)
  // was marked as a word too: its value is what was typed.
  auto unmark = [](std::string& v) {
    if (!v.empty() && v.front() == DASH_WORD) v.erase(0, 1);
  };
  for (auto* list : {&a.index, &a.req.filters, &a.facet}) std::for_each(list->begin(), list->end(), unmark);
  for (auto* value : {&a.facets, &a.list, &a.sort, &a.color, &a.open, &a.analyze, &a.backlinks, &a.related})
    unmark(*value);
  a.req.bridge = !a.no_bridge;
  return desc;
}

// The request from the options: sort, output limits, facets, query words.
void complete_request(Args& a) {
  if (a.sort == "year")
    a.req.sort = SearchRequest::Sort::Year;
  else if (a.sort == "title")
    a.req.sort = SearchRequest::Sort::Title;
  else if (a.sort != "relevance")
    throw UsageError(fmt::format("--sort {}: expected relevance, year or title", a.sort));
  if (static_cast<int>(a.json) + a.jsonl + a.paths + a.vimgrep > 1)
    throw UsageError("choose one of --json, --jsonl, --paths, --vimgrep");
  // Output for pipes lists every hit unless --limit says otherwise.
  if ((a.paths || a.vimgrep || a.jsonl) && !a.vm.count("limit"))
    a.req.limit = std::numeric_limits<std::size_t>::max() / 2;
  if (a.paths || a.vimgrep) {
    a.req.snippets = 0;  // not shown: not computed
    if (!a.vm.count("facets") && !a.vm.count("facet")) a.facets = "none";
  }
  if (a.color != "auto" && a.color != "always" && a.color != "never")
    throw UsageError(fmt::format("--color {}: expected auto, always or never", a.color));
  // Which facets to count: only what is shown costs time.
  if (!a.facets.empty() || !a.facet.empty()) {
    a.req.facets.clear();
    if (a.facets == "all")
      a.req.facets = SearchRequest().facets;
    else if (a.facets != "none")
      a.req.facets = strings::split_nonempty(a.facets, ',');
    for (const auto& f : a.facet) a.req.facets.push_back(f);
  }
  // Query words in the order given, "-word" exclusions included.
  for (std::string w : a.positional) {
    if (!w.empty() && w.front() == DASH_WORD) w.erase(0, 1);
    a.req.query += (a.req.query.empty() ? "" : " ") + w;
  }
}

// --fields: the field table, for people and for shell completion.
std::string field_table() {
  std::string out;
  for (const schema::Field& f : schema::FIELDS) {
    if (f.kind == schema::FieldKind::Internal) continue;
    const char* role = f.is_facet() ? "facet" : f.is_filter() ? "filter" : "text";
    out += fmt::format("{}\t{}\t{}\n", f.name, role, f.values);
  }
  return out;
}

OutputFormat format_of(const Args& a) {
  if (a.json) return OutputFormat::Json;
  if (a.jsonl) return OutputFormat::JsonLines;
  if (a.paths) return OutputFormat::Paths;
  if (a.vimgrep) return OutputFormat::Vimgrep;
  return OutputFormat::Text;
}

// Notices go to standard error, so standard output stays the result: what
// the query as typed lacked, then what to know of the hits shown.
void report_notices(const SearchRequest& req, const PeopleSearch& shown) {
  for (const auto& m : zero_hit_messages(req, shown.heading.empty() ? shown.result : shown.typed))
    fmt::print(stderr, "{}: {}\n", g_names.searcher, cli::visible(m));
  for (const auto& n : shown.result.notices)
    fmt::print(stderr, "{}: {}\n", g_names.searcher, cli::visible(n));
}

// The columns text output must fit: --width, else on a terminal $COLUMNS or
// the terminal's own width; in a pipe nothing is cut.
std::size_t output_width(const Args& a) {
  if (a.vm.count("width")) return a.width;
  if (!isatty(STDOUT_FILENO)) return 0;
  if (const char* c = std::getenv("COLUMNS"); c && *c) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(c, &end, 10);
    if (*end == '\0' && n > 0) return n;
  }
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

// --open: the editor started on a file at a line; its exit status.
int open_in_editor(const std::string& file, std::size_t line, std::size_t column) {
  const auto editor = editor_from_environment();
  if (!editor) throw Error("--open: set VISUAL or EDITOR to your editor (export EDITOR=vi)");
  const int status = run_editor(*editor, editor_arguments(*editor, file, line, column));
  if (status != 0) throw Error(fmt::format("editor '{}' exited with status {}", *editor, status));
  return EXIT_HITS;
}

// --open N QUERY: the Nth hit of the query as typed (after --offset), at the
// first line where the query matches (the first line when only its title or
// a link target matched).
int open_hit(Searcher& searcher, Args& a, std::size_t rank) {
  SearchRequest req = a.req;
  req.offset += rank - 1;
  req.limit = 1;
  req.snippets = 0;
  req.facets.clear();
  const SearchResult res = searcher.search(req);
  for (const auto& m : zero_hit_messages(a.req, res))
    fmt::print(stderr, "{}: {}\n", g_names.searcher, cli::visible(m));
  if (res.total == 0) {
    fmt::print(stderr, "{}: --open {}: no hits, nothing to open\n", g_names.searcher, rank);
    return EXIT_NO_HITS;
  }
  if (res.hits.empty())
    throw Error(
        fmt::format("--open {}: the query has {} {}", rank, res.total, res.total == 1 ? "hit" : "hits"));
  const Hit& h = res.hits.front();
  const auto lines = line_matches(h, searcher.analyzer());
  if (lines.empty()) return open_in_editor(h.file, 1, 1);
  const LineMatch& m = lines.front();
  return open_in_editor(h.file, m.line,
                        unicode::length(std::string_view(m.text).substr(0, m.spans.front().first)) + 1);
}

// A note's vault path from a path typed: a file's path from here when it is
// in the vault ("vault/Xin Liu.md" from data/), else as typed ("Xin Liu.md").
std::string vault_path(const std::string& typed, const std::string& vault) {
  std::error_code ec;
  if (vault.empty() || !std::filesystem::is_regular_file(typed, ec)) return typed;
  const auto root = std::filesystem::canonical(vault, ec);
  const auto file = std::filesystem::weakly_canonical(typed, ec);
  const std::string rel = ec ? "" : file.lexically_relative(root).generic_string();
  return rel.empty() || rel.rfind("..", 0) == 0 ? typed : rel;
}

// The indexes --index names, else the default index.
IndexSet index_set(const Args& a) {
  IndexSet indexes{a.index, a.allow_partial, g_names.indexer};
  if (indexes.locations.empty())
    indexes.locations.push_back(resolve_index_path("", std::getenv("SAGASU_INDEX"),
                                                   std::getenv("XDG_DATA_HOME"), std::getenv("HOME")));
  return indexes;
}

int search(Args& a) {
  const IndexSet indexes = index_set(a);
  Searcher searcher(indexes);
  for (const auto& m : searcher.missing_shards())
    fmt::print(stderr,
               "{}: warning: {} not searched (down, or not given): results and counts leave its notes out\n",
               g_names.searcher, m);
  const char* no_color = std::getenv("NO_COLOR");
  const bool color =
      a.color == "always" || (a.color == "auto" && isatty(STDOUT_FILENO) && !(no_color && *no_color));
  if (!a.open.empty()) return open_hit(searcher, a, parse_open_target(a.open).rank);
  const std::size_t width = output_width(a);
  const auto printer = make_printer(format_of(a), {color, a.facet_limit, a.null, width}, searcher.analyzer());
  std::string out;
  if (!a.backlinks.empty()) {
    const Backlinks b =
        searcher.backlinks(vault_path(a.backlinks, searcher.vault()), a.req.offset, a.req.limit);
    cli::write_out(backlinks_text(b, format_of(a), a.null));
    return b.total > 0 ? EXIT_HITS : EXIT_NO_HITS;
  }
  if (!a.related.empty()) {
    const Related r = searcher.related(vault_path(a.related, searcher.vault()), a.req.limit);
    cli::write_out(related_text(r, format_of(a), a.null));
    return r.notes.empty() ? EXIT_NO_HITS : EXIT_HITS;
  }
  if (!a.list.empty()) {
    const FacetCounts counts = searcher.list(a.list);
    printer->facet_list(out, counts);
    cli::write_out(out);
    return counts.values.empty() ? EXIT_NO_HITS : EXIT_HITS;
  }
  // People see what the closest search finds when the query finds nothing,
  // under a heading; pipelines get the query as typed (fallback.h).
  PeopleSearch shown;
  // A ranked list for a reader goes on past the hits (SearchRequest::go_on).
  a.req.go_on = format_of(a) == OutputFormat::Text || format_of(a) == OutputFormat::Json;
  if (format_of(a) == OutputFormat::Text) {
    shown = search_for_people(searcher, a.req);
  } else {
    shown.result = searcher.search(a.req);
    shown.typed_total = shown.result.total;
  }
  report_notices(a.req, shown);
  if (!shown.heading.empty())
    out += (width ? fit_lines(cli::visible(shown.heading, true), width) : cli::visible(shown.heading, true)) +
           "\n\n";
  printer->result(out, a.req, shown.result);
  cli::write_out(out);
  return shown.typed_total > 0 ? EXIT_HITS : EXIT_NO_HITS;
}

int run_checked(int argc, char** argv) {
  Args a;
  const auto desc = parse(argc, argv, a);
  if (a.help) {
    std::ostringstream s;
    s << desc << "\nExit status: 0 hits found, 1 no hits, 2 error.\n";
    cli::write_out(s.str());
    return EXIT_HITS;
  }
  complete_request(a);
  if (a.vm.count("analyze")) {
    Analyzer analyzer;
    std::string out;
    print_tokens(out, a.analyze, analyzer.analyze(a.analyze), Dictionary::system(), analyzer);
    cli::write_out(out);
    return EXIT_HITS;
  }
  if (a.fields) {
    cli::write_out(field_table());
    return EXIT_HITS;
  }
  if (!a.open.empty()) {
    const OpenTarget target = parse_open_target(a.open);
    if (!target.file.empty()) {
      if (!a.req.query.empty() || !a.req.filters.empty())
        throw UsageError("--open FILE:LINE opens a file: it takes no query");
      return open_in_editor(target.file, target.line, 1);
    }
    if (format_of(a) != OutputFormat::Text || !a.list.empty())
      throw UsageError(
          "--open opens a hit: it prints nothing (no --json, --jsonl, --paths, --vimgrep, --list)");
  }
  if (a.mcp) {
    if (!a.req.query.empty() || format_of(a) != OutputFormat::Text || !a.list.empty() || !a.open.empty())
      throw UsageError("--mcp serves requests on standard input: it takes no query and no output option");
    const IndexSet indexes = index_set(a);
    Searcher check(indexes);  // an index that cannot be opened is an error before serving
    return serve_mcp(indexes, std::cin, std::cout, SAGASU_VERSION);
  }
  if (!a.backlinks.empty() && (!a.req.query.empty() || !a.list.empty() || !a.open.empty()))
    throw UsageError("--backlinks PATH lists the notes linking to PATH: it takes no query, --list or --open");
  if (!a.related.empty() &&
      (!a.req.query.empty() || !a.list.empty() || !a.open.empty() || !a.backlinks.empty()))
    throw UsageError(
        "--related PATH lists the notes related to PATH: it takes no query, --list, --open or --backlinks");
  if (a.req.query.empty() && a.req.filters.empty() && a.list.empty() && a.backlinks.empty() &&
      a.related.empty())
    throw UsageError(fmt::format("no query given (try '{} --help')", g_names.searcher));
  return search(a);
}

}  // namespace

int run(int argc, char** argv) {
  g_names = cli::command_names(argc > 0 ? argv[0] : nullptr);
  return cli::run_command(g_names.searcher, false, [&] { return run_checked(argc, argv); });
}

}  // namespace sagasu::searcher_cli
