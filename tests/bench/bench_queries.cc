// sagasu-bench-queries: in-process query latency for scripts/bench.
//
// Opens the index once, runs every query of a query file a few times to warm
// the caches (Xapian blocks, the OS page cache, ICU's dictionaries), then runs
// the whole mix K times round-robin and prints latency percentiles per query
// and over all samples. The default facets are counted and snippets are on, so
// each sample is the full cost of one search as the CLI sees it, minus
// process start and printing.
//
// --index may be given more than once (shard folders, tcp://HOST:PORT of
// xapian-tcpsrv servers): the searcher searches them as one index, so the
// same mix measures local against remote shards.
//
// --export-facets FILE writes every note's facet values as JSON Lines
// ({"_key": path, "venue": [...], "year": [...], ...}) and exits: bench.py
// loads them into Groonga's facet columns, so its drilldown counts the same
// values ours does.
//
// The query file has one query per line, in the searcher's query language;
// blank lines and lines starting with '#' are ignored. Queries are numbered
// from 0 in file order (the bench script numbers them the same way).
#include <fmt/format.h>
#include <xapian.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fallback.h"
#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/searcher.h"

namespace po = boost::program_options;

namespace {

struct Options {
  std::vector<std::string> index;
  std::string queries, raw, export_facets;
  int runs = 20;
  int warmup = 2;
  std::size_t limit = 10;
  std::size_t snippets = 1;
  bool no_facets = false;
};

std::vector<std::string> read_queries(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw sagasu::Error(fmt::format("{}: cannot read", path));
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    out.push_back(line);
  }
  if (out.empty()) throw sagasu::Error(fmt::format("{}: no queries", path));
  return out;
}

// Nearest-rank percentile: the smallest sample with at least p % of the
// samples at or below it; no interpolation, so the figure is a real sample.
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  rank = std::clamp<std::size_t>(rank, 1, v.size());
  return v[rank - 1];
}

struct Outcome {
  double ms = 0;
  std::size_t total = 0;
  bool error = false;
};

Outcome run_one(sagasu::Searcher& searcher, const sagasu::SearchRequest& req) {
  Outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const auto result = sagasu::search_for_people(searcher, req).result;  // as the command shows a person
    o.total = result.total;
  } catch (const sagasu::UsageError&) {
    o.error = true;  // a malformed query still costs its parse; keep the sample
  }
  o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

// Every note with its values of each facet, read through the library (a
// match-all search), one JSON object per line.
int export_facets(const Options& opt) {
  sagasu::IndexSet indexes;
  indexes.locations = opt.index;
  sagasu::Searcher searcher(indexes);
  sagasu::SearchRequest req;
  req.match_all = true;
  req.limit = std::numeric_limits<std::size_t>::max() / 2;
  req.snippets = 0;
  req.facets.clear();
  const sagasu::SearchResult result = searcher.search(req);
  std::ofstream out(opt.export_facets);
  if (!out) throw sagasu::Error(fmt::format("{}: cannot write", opt.export_facets));
  for (const auto& hit : result.hits) {
    nlohmann::json row{{"_key", hit.path}};
    for (const auto& field : sagasu::schema::FIELDS) {
      if (!field.is_facet()) continue;
      if (&field == &sagasu::schema::KIND) {
        row[std::string(field.name)] = std::vector<std::string>{hit.kind};
        continue;
      }
      auto it = hit.values.find(std::string(field.name));
      row[std::string(field.name)] = it == hit.values.end() ? std::vector<std::string>{} : it->second;
    }
    out << row.dump() << "\n";
  }
  if (!out) throw sagasu::Error(fmt::format("{}: cannot write", opt.export_facets));
  std::cerr << fmt::format("sagasu-bench-queries: {} notes' facet values in {}\n", result.hits.size(),
                           opt.export_facets);
  return 0;
}

int run(const Options& opt) {
  if (!opt.export_facets.empty()) return export_facets(opt);
  const auto queries = read_queries(opt.queries);
  sagasu::IndexSet indexes;
  indexes.locations = opt.index;
  sagasu::Searcher searcher(indexes);

  std::vector<sagasu::SearchRequest> requests;
  for (const auto& q : queries) {
    sagasu::SearchRequest r;
    r.query = q;
    r.limit = opt.limit;
    r.snippets = opt.snippets;
    if (opt.no_facets) r.facets.clear();
    requests.push_back(r);
  }

  std::vector<std::size_t> totals(queries.size());
  std::vector<bool> errors(queries.size());
  for (int w = 0; w < opt.warmup; ++w)
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const Outcome o = run_one(searcher, requests[i]);
      totals[i] = o.total;
      errors[i] = o.error;
    }

  // Round-robin rather than K runs of one query in a row, so no query is
  // measured only on caches it has just warmed for itself.
  std::vector<std::vector<double>> samples(queries.size());
  std::ofstream raw;
  if (!opt.raw.empty()) {
    raw.open(opt.raw);
    if (!raw) throw sagasu::Error(fmt::format("{}: cannot write", opt.raw));
    raw << "query_no\trun\tms\ttotal\n";
  }
  for (int k = 0; k < opt.runs; ++k)
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const Outcome o = run_one(searcher, requests[i]);
      samples[i].push_back(o.ms);
      totals[i] = o.total;
      errors[i] = o.error;
      if (raw) raw << fmt::format("{}\t{}\t{:.4f}\t{}\n", i, k, o.ms, o.total);
    }

  std::cout << "query_no\tquery\ttotal\tp50_ms\tp95_ms\tp99_ms\tmax_ms\n";
  std::vector<double> all;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto& s = samples[i];
    all.insert(all.end(), s.begin(), s.end());
    std::cout << fmt::format("{}\t{}\t{}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\n", i, queries[i],
                             errors[i] ? std::string("error") : std::to_string(totals[i]), percentile(s, 50),
                             percentile(s, 95), percentile(s, 99), percentile(s, 100));
  }
  std::cout << fmt::format("ALL\t{} queries x {} runs\t-\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\n", queries.size(),
                           opt.runs, percentile(all, 50), percentile(all, 95), percentile(all, 99),
                           percentile(all, 100));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  po::options_description desc(
      "Usage: sagasu-bench-queries --index DIR... --queries FILE [options]\n\nOptions");
  desc.add_options()("index,i", po::value<std::vector<std::string>>(&opt.index)->required(),
                     "index folder, shard folder or tcp://HOST:PORT (repeatable: searched as one index)")(
      "queries,q", po::value(&opt.queries), "query file, one query per line ('#' comments)")(
      "runs,k", po::value(&opt.runs)->default_value(20), "measured runs of each query")(
      "warmup,w", po::value(&opt.warmup)->default_value(2), "unmeasured runs of each query first")(
      "limit,n", po::value(&opt.limit)->default_value(10), "hits per query")(
      "snippets", po::value(&opt.snippets)->default_value(1), "snippet fragments per hit")(
      "no-facets", po::bool_switch(&opt.no_facets), "count no facets (to measure what facet counting costs)")(
      "raw", po::value(&opt.raw), "also write every sample (query_no, run, ms, total) as TSV here")(
      "export-facets", po::value(&opt.export_facets),
      "write every note's facet values as JSON Lines to this file and exit (no queries)")("help,h",
                                                                                          "show this help");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    po::notify(vm);
    if (opt.queries.empty() && opt.export_facets.empty())
      throw sagasu::UsageError("--queries FILE (or --export-facets FILE) is required");
    if (opt.runs < 1 || opt.warmup < 0)
      throw sagasu::UsageError("--runs must be at least 1, --warmup at least 0");
    return run(opt);
  } catch (const Xapian::Error& e) {
    std::cerr << "sagasu-bench-queries: " << e.get_description() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sagasu-bench-queries: " << e.what() << "\n";
    return 2;
  }
}
