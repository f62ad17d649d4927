#include "cli.h"

#include <fmt/format.h>
#include <unistd.h>
#include <xapian.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "cli_support.h"
#include "sagasu/error.h"
#include "sagasu/index_location.h"
#include "sagasu/indexer.h"
#include "sagasu/schema.h"
#include "sagasu/unicode.h"

namespace po = boost::program_options;

namespace sagasu::indexer_cli {
namespace {

// The commands' names as this one was started (cli_support.h): messages begin with ours.
cli::CommandNames g_names;

constexpr int EXIT_OK = 0;
constexpr int EXIT_SKIPPED = 1;

struct Args {
  IndexOptions opts;
  std::string index;
  std::string extensions;
  std::string report;
  bool verbose = false;
  bool quiet = false;
  bool watch = false;
  bool check = false;
  bool help = false;
};

// The option table: --help and the README usage come from it.
po::options_description options(Args& a) {
  po::options_description d(
      fmt::format("Usage: {} --vault DIR [--index DIR] [options]\n\nOptions", g_names.indexer), 80, 40);
  // clang-format off
  d.add_options()
      ("vault,v", po::value(&a.opts.vault)->value_name("DIR"), "vault folder to index (default: the index's)")
      ("index,i", po::value(&a.index)->value_name("DIR"),
       "index folder (default: $SAGASU_INDEX, else $XDG_DATA_HOME/sagasu/index)")
      ("rebuild", po::bool_switch(&a.opts.rebuild),
       "build a new index beside the live one and switch to it atomically (also replaces an index of another vault)")
      ("jobs,j", cli::count_option(a.opts.jobs, "--jobs", 0, 1024), "threads parsing and analysing notes (default: one per core)")
      ("shards", cli::count_option(a.opts.shards, "--shards", 1, 1024),
       "split the notes by path hash into N shard indexes DIR/shard-0 … (each servable by xapian-tcpsrv); "
       "default: the index's count, 1 for a new index; another count rebuilds")
      ("wait", po::bool_switch(&a.opts.wait), "wait for another indexer to finish instead of stopping")
      ("watch", po::bool_switch(&a.watch),
       "after the run, keep watching the vault (Linux inotify) and index changes as they settle, one line "
       "per batch, holding the index's lock; SIGINT or SIGTERM ends it")
      ("check", po::bool_switch(&a.check),
       "read every table of the index, as xapian-check does, and say whether it is damaged (an update reads only "
       "what it changes); nothing is written")
      ("dry-run,n", po::bool_switch(&a.opts.dry_run), "list what would be added, updated, renamed and deleted; write nothing")
      ("strict", po::bool_switch(&a.opts.strict), "any skipped file is an error, and nothing is written")
      ("config", po::value(&a.opts.config)->value_name("FILE"),
       "vault config file: metadata keys, path patterns, kinds, name lists (default: the index's, else "
       "VAULT/.sagasu/config.yaml when it exists)")
      ("ext", po::value(&a.extensions)->value_name("LIST"),
       "comma-separated file name endings to index, '*' for every file (default: the index's, else md)")
      ("max-file-size", cli::count_option(a.opts.max_file_bytes, "--max-file-size", 1),
       "skip files larger than N bytes (default: the index's, else 8388608)")
      ("report", po::value(&a.report)->value_name("entities|facets|glossary"),
       "after indexing, print to stdout every linked entity (name, kind, evidence, notes; unresolved and ambiguous "
       "ones first), or each facet's coverage (notes with a value, from which sources) and the property keys no facet "
       "reads, or the glossary: each pair of equivalents the notes state (the searcher's bridges) and the notes stating it")
      ("verbose", po::bool_switch(&a.verbose), "list skipped files, warnings and unresolved entities")
      ("quiet,q", po::bool_switch(&a.quiet), "print nothing but errors")
      ("help,h", po::bool_switch(&a.help), "show this help");
  // clang-format on
  return d;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',') {
      while (!cur.empty() && cur.front() == '.') cur.erase(0, 1);
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return out;
}

std::string join_notes(const std::set<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? "" : ", ") + cli::visible(n);
  return out;
}

// The entity report: what needs the user's attention first.
void print_entity_report(const IndexReport& r) {
  std::string out = fmt::format(
      "unresolved entities ({}): nothing tells their kind; add a page, a list label "
      "or a line in .sagasu/entities.tsv\n",
      r.unresolved.size());
  for (const auto& u : r.unresolved)
    out += fmt::format("  {}\t{} notes: {}\n", u.name, u.notes.size(), join_notes(u.notes));
  out += fmt::format("ambiguous aliases ({}): one alias, several pages\n", r.ambiguous.size());
  for (const auto& [alias, pages] : r.ambiguous) out += fmt::format("  {}\t{}\n", alias, join_notes(pages));
  out += fmt::format("entities ({}): name, kind, evidence, notes linking to it\n", r.entities.size());
  for (const auto& e : r.entities)
    out += fmt::format("  {}\t{}\t{}\t{}\n", e.name, e.kind.value_or("?"), e.evidence, e.notes.size());
  cli::write_out(cli::visible(out, true));  // names from notes: never raw to the terminal
}

// The facets report: how many notes have a value of each facet and where the
// values came from, the kinds, and the property keys no facet reads, so a user
// sees why a facet is empty and what to map in the config.
void print_facet_report(const IndexReport& r) {
  std::string out =
      fmt::format("facets of {} notes: notes with a value, and where the values came from\n", r.indexed);
  for (const auto& c : r.coverage) {
    std::vector<std::pair<std::string, std::size_t>> sources(c.sources.begin(), c.sources.end());
    std::stable_sort(sources.begin(), sources.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    std::string from;
    for (const auto& [source, n] : sources)
      from += fmt::format("{}{} {}", from.empty() ? "  " : ", ", source, n);
    out += fmt::format(
        "  {:<8}{:>6} of {} ({:.0f}%){}\n", c.facet, c.notes, r.indexed,
        r.indexed ? 100.0 * static_cast<double>(c.notes) / static_cast<double>(r.indexed) : 0.0, from);
  }
  std::vector<std::string> kinds;
  for (const auto& [kind, n] : r.kinds) kinds.push_back(fmt::format("{} {}", kind, n));
  out += fmt::format("kinds: {}\n", fmt::join(kinds, ", "));
  out += fmt::format(
      "property keys no facet reads ({}), commonest first; map one in .sagasu/config.yaml (keys: FACET: "
      "[KEY]):\n",
      r.unmapped_keys.size());
  for (std::size_t i = 0; i < r.unmapped_keys.size() && i < 20; ++i)
    out += fmt::format("  {}\t{}\n", r.unmapped_keys[i].first, r.unmapped_keys[i].second);
  cli::write_out(cli::visible(out, true));
}

// The glossary report: each pair of equivalents the notes state, how they
// state it, and which notes, so a user can check what the searcher bridges.
void print_glossary_report(const IndexReport& r) {
  std::string out = fmt::format(
      "glossary ({} pairs): name, equivalent, how the notes state it (gloss: X(Y); abbreviation; link: "
      "[[X|Y]]; definition: the equivalent is a kind of the name), notes\n",
      r.glossary.size());
  for (const auto& [g, notes] : r.glossary)
    out += fmt::format("  {}\t{}\t{}\t{}\n", g.a, g.b, to_string(g.how), join_notes(notes));
  cli::write_out(cli::visible(out, true));  // words from notes: never raw to the terminal
}

// "years: 0 of 530 notes" for every facet that almost no note has (fewer than
// one in twenty, in a vault of twenty notes or more), as a line of the summary.
std::string empty_facets(const IndexReport& r) {
  std::vector<std::string> few;
  if (r.indexed < 20) return {};
  for (const auto& c : r.coverage)
    if (c.notes * 20 < r.indexed) {
      const schema::Field* f = schema::find_facet(c.facet);
      few.push_back(fmt::format("{}: {} of {} notes", f ? f->hit_key : c.facet, c.notes, r.indexed));
    }
  if (few.empty()) return {};
  return fmt::format("{0}: {1} ({0} --report facets says where values come from)\n", g_names.indexer,
                     fmt::join(few, ", "));
}

// Parses argv into a; returns the option table for --help. Checks the values.
po::options_description parse(int argc, char** argv, Args& a) {
  auto desc = options(a);
  // Words that are no option's value (a stray word, a pattern the shell
  // expanded: --ext * gives the first file name, then the rest) are an error.
  std::vector<std::string> stray;
  po::options_description all;
  all.add(desc).add_options()("stray", po::value(&stray));
  po::positional_options_description pos;
  pos.add("stray", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (!stray.empty())
    throw UsageError(fmt::format("unexpected argument '{}': every value follows its option (quote a pattern: "
                                 "--ext '*')",
                                 cli::visible(stray.front())));
  if (a.help) return desc;
  a.opts.index = resolve_index_path(a.index, std::getenv("SAGASU_INDEX"), std::getenv("XDG_DATA_HOME"),
                                    std::getenv("HOME"));
  if (vm.count("ext")) {
    a.opts.extensions = split_list(a.extensions);
    if (a.opts.extensions.empty()) throw UsageError("--ext needs at least one file name ending");
  }
  if (!a.report.empty() && a.report != "entities" && a.report != "facets" && a.report != "glossary")
    throw UsageError(fmt::format("--report {}: expected 'entities', 'facets' or 'glossary'", a.report));
  a.opts.entity_notes = a.report == "entities";
  a.opts.glossary = a.report == "glossary";
  if (a.watch && a.opts.dry_run) throw UsageError("--watch writes the index: it cannot be a --dry-run");
  if (a.check && (a.watch || a.opts.dry_run || a.opts.rebuild || !a.report.empty()))
    throw UsageError(
        "--check only reads the index: give it without --watch, --dry-run, --rebuild or --report");
  return desc;
}

// Progress on a terminal: one bar per named phase (scan, entities, index,
// merge, commit), each with its own count, rate and time left. The rate and
// the time left are the phase's own, from its start (a second phase starting
// at 0 cannot inherit the first one's clock), and are shown only once the
// phase has run a second and done a fiftieth of its work, so the first
// noisy seconds do not promise hours.
class ProgressBar {
 public:
  void phase(std::string_view name) {
    std::lock_guard<std::mutex> lock(m_mutex);
    const auto now = std::chrono::steady_clock::now();
    // The index phase goes on after a shard's merge (a sharded fresh build): its clock too.
    m_phase = m_started.try_emplace(std::string(name), now).first->first;
    m_done = m_total = 0;
    draw(now);
  }
  void operator()(std::size_t done, std::size_t total) {
    std::lock_guard<std::mutex> lock(m_mutex);
    const auto now = std::chrono::steady_clock::now();
    if (m_phase == "merge" && done < total) m_phase = "index";  // the next shard's notes
    m_done = done;
    m_total = total;
    if (done != total && now - m_last < std::chrono::milliseconds(100)) return;
    draw(now);
  }
  ~ProgressBar() { fmt::print(stderr, "\r\x1b[K"); }

 private:
  void draw(std::chrono::steady_clock::time_point now) {
    m_last = now;
    const auto started = m_started.count(m_phase) ? m_started[m_phase] : now;
    const double secs = std::chrono::duration<double>(now - started).count();
    if (m_total == 0) {
      fmt::print(stderr, "\r{:<8} {:.0f} s\x1b[K", m_phase, secs);
      return;
    }
    const double rate = secs > 0 ? static_cast<double>(m_done) / secs : 0;
    std::string left;
    if (m_done == m_total)
      left = "done";
    else if (secs >= 1 && m_done * 50 >= m_total && rate > 0)
      left = fmt::format("{:.0f} s left", static_cast<double>(m_total - m_done) / rate);
    else
      left = "…";
    const std::size_t width = 30, filled = width * m_done / m_total;
    fmt::print(stderr, "\r{:<8} [{}{}] {}/{} {}, {:.0f}/s, {}\x1b[K", m_phase, std::string(filled, '#'),
               std::string(width - filled, '.'), m_done, m_total, m_phase == "scan" ? "files" : "notes", rate,
               left);
  }

  std::mutex m_mutex;
  std::map<std::string, std::chrono::steady_clock::time_point> m_started;
  std::string m_phase = "scan";
  std::size_t m_done = 0, m_total = 0;
  std::chrono::steady_clock::time_point m_last{};
};

// The bar, when standard error is a terminal and not --quiet: phases and progress go to it.
void attach(ProgressBar& bar, IndexOptions& opts) {
  opts.phase = [&bar](std::string_view name) { bar.phase(name); };
  opts.progress = std::ref(bar);
}

// --dry-run: what would be added, updated, renamed and deleted, one line each.
void print_dry_run(const IndexReport& r) {
  std::string out;
  for (const auto& p : r.added_paths) out += "add\t" + p + "\n";
  for (const auto& p : r.updated_paths) out += "update\t" + p + "\n";
  for (const auto& [from, to] : r.renamed_paths) out += "rename\t" + from + "\t" + to + "\n";
  for (const auto& p : r.deleted_paths) out += "delete\t" + p + "\n";
  cli::write_out(cli::visible(out, true));
}

// "unresolved entities 70, " when the count says something: it changed
// since the last run ("(was 68)"), a new index has some, or --verbose.
// The same names run after run are not news (--verbose and --report
// entities list them).
std::string unresolved_count(const Args& a, const IndexReport& r, std::string_view sep) {
  const std::size_t n = r.unresolved.size();
  const bool changed = r.unresolved_before ? n != *r.unresolved_before : n > 0;
  if (!a.verbose && !changed) return {};
  const std::string was =
      r.unresolved_before && n != *r.unresolved_before ? fmt::format(" (was {})", *r.unresolved_before) : "";
  return fmt::format("unresolved entities {}{}{}", n, was, sep);
}

// Skipped files, warnings (all with --verbose, else broken front matter), the summary line.
void print_summary(const Args& a, const IndexReport& r) {
  if (!r.dictionary_problem.empty())
    fmt::print(stderr, "{}: warning: {} (the bridge tier goes on without the dictionaries)\n",
               g_names.indexer, cli::visible(r.dictionary_problem));
  if (!r.lock_taken_over.empty())
    fmt::print(stderr, "{}: {}: took over the lock left by {}: that indexer ended without releasing it\n",
               g_names.indexer, cli::visible(a.opts.index), cli::visible(r.lock_taken_over));
  for (const auto& s : r.skipped)
    fmt::print(stderr, "{}: {}: skipped: {}\n", g_names.indexer, cli::visible(s.path), s.reason);
  for (const auto& w : r.warnings)
    if (a.verbose || w.reason.rfind("front matter", 0) == 0)
      fmt::print(stderr, "{}: {}: warning: {}\n", g_names.indexer, cli::visible(w.path), w.reason);
  if (a.verbose) {
    for (const auto& u : r.unresolved)
      fmt::print(stderr, "{}: unresolved entity '{}' in {}\n", g_names.indexer, cli::visible(u.name),
                 join_notes(u.notes));
    for (const auto& [alias, pages] : r.ambiguous)
      fmt::print(stderr, "{}: ambiguous alias '{}' claimed by {}\n", g_names.indexer, cli::visible(alias),
                 join_notes(pages));
  }
  fmt::print(
      stderr,
      "{}: {}{} notes in {}{}: added {}, updated {}, deleted {}, renamed {}, unchanged {}, skipped {}, "
      "{}{:.2f} s\n{}",
      g_names.indexer, a.opts.dry_run ? "dry run, nothing written: " : "", r.notes(), a.opts.index,
      r.shards > 1 ? fmt::format(" ({} shards)", r.shards) : "", r.added, r.updated, r.deleted, r.renamed,
      r.unchanged, r.skipped.size(), unresolved_count(a, r, ", "), r.seconds, empty_facets(r));
}

// The first run's output: the dry-run list, the reports, the summary.
void print_run(const Args& a, const IndexReport& r) {
  if (a.opts.dry_run) print_dry_run(r);
  if (a.report == "entities") print_entity_report(r);
  if (a.report == "facets") print_facet_report(r);
  if (a.report == "glossary") print_glossary_report(r);
  if (!a.quiet) print_summary(a, r);
}

// The one line of a watch batch: "updated 2, deleted 1 in 35 ms" (what
// changed, nothing for what did not), after the files it skipped; with
// --verbose, each path.
void print_batch(const Args& a, const IndexReport& r) {
  for (const auto& s : r.skipped)
    fmt::print(stderr, "{}: {}: skipped: {}\n", g_names.indexer, cli::visible(s.path), s.reason);
  if (a.quiet) return;
  std::vector<std::string> parts;
  for (const auto& [n, what] :
       {std::pair{r.added, "added"}, {r.updated, "updated"}, {r.renamed, "renamed"}, {r.deleted, "deleted"}})
    if (n) parts.push_back(fmt::format("{} {}", what, n));
  if (std::string u = unresolved_count(a, r, ""); !u.empty() && r.unresolved_before)
    parts.push_back(std::move(u));
  const long ms = std::lround(r.seconds * 1000);
  fmt::print(stderr, "{}: {} in {} ms\n", g_names.indexer,
             parts.empty() ? "no note changed" : fmt::format("{}", fmt::join(parts, ", ")), ms);
  if (a.verbose) {
    for (const auto& p : r.added_paths) fmt::print(stderr, "  added {}\n", cli::visible(p));
    for (const auto& p : r.updated_paths) fmt::print(stderr, "  updated {}\n", cli::visible(p));
    for (const auto& [from, to] : r.renamed_paths)
      fmt::print(stderr, "  renamed {} -> {}\n", cli::visible(from), cli::visible(to));
    for (const auto& p : r.deleted_paths) fmt::print(stderr, "  deleted {}\n", cli::visible(p));
  }
}

std::atomic<VaultWatch*> g_watch{nullptr};

extern "C" void stop_watching(int) {
  if (VaultWatch* w = g_watch.load()) w->stop();
}

// --watch: the run as without it, then a batch each time the vault's changes
// settle, until SIGINT or SIGTERM. A batch that fails (a config being edited,
// a Xapian error) is one line; the next change tries again.
int watch(Args& a) {
  // The first run's progress bar: the watch copies the options, so it is
  // attached before, and the watch drops it after that run (vault_watch.cc).
  std::optional<ProgressBar> bar;
  if (isatty(STDERR_FILENO) && !a.quiet) attach(bar.emplace(), a.opts);
  VaultWatch w(a.opts);
  const IndexReport first = w.index();
  bar.reset();
  print_run(a, first);
  struct sigaction sa {};
  sa.sa_handler = stop_watching;
  sigemptyset(&sa.sa_mask);
  g_watch = &w;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  if (!a.quiet)
    fmt::print(stderr, "{}: watching {} ({} folders) for changes; Ctrl-C ends\n", g_names.indexer,
               a.opts.vault, w.folders());
  while (w.wait()) {
    try {
      print_batch(a, w.index());
    } catch (const Error& e) {
      fmt::print(stderr, "{}: {}\n", g_names.indexer, cli::visible(e.what()));
    } catch (const Xapian::Error& e) {
      fmt::print(stderr, "{}: index error: {}\n", g_names.indexer, e.get_description());
    }
  }
  g_watch = nullptr;
  if (!a.quiet) fmt::print(stderr, "{}: stopped watching {}\n", g_names.indexer, a.opts.vault);
  return EXIT_OK;
}

int run_checked(int argc, char** argv) {
  Args a;
  const auto desc = parse(argc, argv, a);
  if (a.help) {
    std::ostringstream s;
    s << desc
      << "\nExit status: 0 every note indexed, 1 some files skipped (their last indexed\n"
         "version is kept), 2 error (nothing written: no vault, index locked, --strict).\n";
    cli::write_out(s.str());
    return EXIT_OK;
  }
  if (a.check) {
    const CheckReport r = check_index(a.opts);
    if (!a.quiet)
      fmt::print(stderr, "{}: {}: no damage found in {} notes{}; every table read in {:.2f} s\n",
                 g_names.indexer, cli::visible(a.opts.index), r.notes,
                 r.generations > 1 ? fmt::format(" in {} shards", r.generations) : "", r.seconds);
    return EXIT_OK;
  }
  // What is not given is what the index was built with; a setting given
  // otherwise is said (one that would drop notes stops the run: run_index).
  for (const std::string& change : settle_options(a.opts))
    if (!a.quiet) fmt::print(stderr, "{}: {}\n", g_names.indexer, cli::visible(change));
  if (a.watch) return watch(a);
  std::optional<ProgressBar> bar;
  if (isatty(STDERR_FILENO) && !a.quiet) attach(bar.emplace(), a.opts);
  const IndexReport r = run_index(a.opts);
  bar.reset();
  print_run(a, r);
  return r.skipped.empty() ? EXIT_OK : EXIT_SKIPPED;
}

}  // namespace

int run(int argc, char** argv) {
  g_names = cli::command_names(argc > 0 ? argv[0] : nullptr);
  return cli::run_command(g_names.indexer, true, [&] { return run_checked(argc, argv); });
}

}  // namespace sagasu::indexer_cli
