// sagasu-eval: runs the judged dev queries and the literal-substring check
// against an index through the searcher library, prints recall@10, nDCG@10
// and MRR per query, per category and overall, and fails below the thresholds
// of the thresholds file (tests/eval/thresholds.tsv), which must name every
// category and overall.
#include <fmt/format.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <xapian.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "fallback.h"
#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/searcher.h"
#include "sagasu/stored_note.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace po = boost::program_options;
using namespace sagasu;

namespace {

struct Judged {
  std::string id, category, query, filters;
  std::map<std::string, int> relevant;  // path → grade
};

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + sep.size();
  }
  return out;
}

std::vector<Judged> read_queries(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot read", path));
  std::vector<Judged> out;
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 || line.empty()) continue;  // header
    const auto f = split(line, "\t");
    if (f.size() != 5) throw Error(fmt::format("{}:{}: expected 5 tab-separated fields", path, line_no));
    Judged j{f[0], f[1], f[2], f[3], {}};
    for (const auto& entry : split(f[4], " | ")) {
      const auto colon = entry.find(':');
      if (colon == std::string::npos)
        throw Error(fmt::format("{}:{}: bad relevant entry '{}'", path, line_no, entry));
      j.relevant[entry.substr(colon + 1)] = std::stoi(entry.substr(0, colon));
    }
    out.push_back(std::move(j));
  }
  return out;
}

struct Scores {
  double recall = 0, ndcg = 0, mrr = 0;
};

// The name of every query's category together, in the output and the thresholds file.
const std::string OVERALL = "overall";

Scores score(const Judged& j, const std::vector<std::string>& ranked) {
  Scores s;
  std::size_t found = 0;
  double dcg = 0;
  for (std::size_t i = 0; i < ranked.size() && i < 10; ++i) {
    auto it = j.relevant.find(ranked[i]);
    if (it == j.relevant.end()) continue;
    ++found;
    dcg += (std::pow(2.0, it->second) - 1) / std::log2(static_cast<double>(i) + 2);
    if (s.mrr == 0) s.mrr = 1.0 / static_cast<double>(i + 1);
  }
  std::vector<int> grades;
  for (const auto& [p, g] : j.relevant) grades.push_back(g);
  std::sort(grades.rbegin(), grades.rend());
  double idcg = 0;
  for (std::size_t i = 0; i < grades.size() && i < 10; ++i)
    idcg += (std::pow(2.0, grades[i]) - 1) / std::log2(static_cast<double>(i) + 2);
  s.recall = j.relevant.empty() ? 1
                                : static_cast<double>(found) /
                                      static_cast<double>(std::min<std::size_t>(10, j.relevant.size()));
  s.ndcg = idcg > 0 ? dcg / idcg : 1;
  return s;
}

// The three metrics, named as in the thresholds file.
constexpr std::array<const char*, 3> METRICS{"recall@10", "ndcg@10", "mrr"};

double metric(const Scores& s, std::string_view name) {
  if (name == "recall@10") return s.recall;
  if (name == "ndcg@10") return s.ndcg;
  return s.mrr;
}

// category → metric → minimum, from lines "category<TAB>metric<TAB>min" ('#'
// starts a comment). Every category of the queries and "overall" must have every
// metric, and nothing else may appear: a misspelt or forgotten line would
// otherwise switch a check off without a word.
using Thresholds = std::map<std::string, std::map<std::string, double>>;

Thresholds read_thresholds(const std::string& path, const std::set<std::string>& categories) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot read", path));
  Thresholds out;
  std::string line;
  for (std::size_t line_no = 1; std::getline(in, line); ++line_no) {
    const std::string_view content = strings::trim(std::string_view(line).substr(0, line.find('#')), " \t\r");
    if (content.empty()) continue;
    const auto f = strings::split(content, '\t');
    const auto where = fmt::format("{}:{}", path, line_no);
    if (f.size() != 3)
      throw Error(fmt::format("{}: expected category, metric and minimum, tab-separated", where));
    if (!categories.count(f[0])) throw Error(fmt::format("{}: no category '{}' in the queries", where, f[0]));
    if (std::find(METRICS.begin(), METRICS.end(), f[1]) == METRICS.end())
      throw Error(fmt::format("{}: unknown metric '{}' (recall@10, ndcg@10 or mrr)", where, f[1]));
    char* end = nullptr;
    const double min = std::strtod(f[2].c_str(), &end);
    if (f[2].empty() || *end != '\0' || min < 0 || min > 1)
      throw Error(fmt::format("{}: '{}' is not a minimum between 0 and 1", where, f[2]));
    if (!out[f[0]].emplace(f[1], min).second)
      throw Error(fmt::format("{}: a second minimum for {} {}", where, f[0], f[1]));
  }
  for (const auto& c : categories)
    for (const char* m : METRICS)
      if (!out[c].count(m)) throw Error(fmt::format("{}: no minimum for {} {}", path, c, m));
  return out;
}

// The literal-substring check's reference for what the substring tier must
// always find (README "Matching"): a string of one or more characters in the
// note's text after NFKC_Casefold (width, case, compatibility forms). Kana
// variants (hiragana = katakana, small kana) are found only where they name
// the same word, so they are not part of what every drawn string must find.
// Written for the test, sharing no code with the engine's fold_text (ICU's
// normalizer called directly), so that a bug in the engine's folding cannot
// hide itself by folding the expected notes too.
class ReferenceFold {
 public:
  ReferenceFold() {
    UErrorCode status = U_ZERO_ERROR;
    m_nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
    if (U_FAILURE(status)) throw std::runtime_error("ICU: no NFKC_Casefold normalizer");
  }

  std::string operator()(std::string_view text) const {
    UErrorCode status = U_ZERO_ERROR;
    const icu::UnicodeString normalized = m_nfkc_cf->normalize(
        icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size()))),
        status);
    if (U_FAILURE(status))
      throw std::runtime_error(fmt::format("ICU: cannot normalize: {}", u_errorName(status)));
    std::string out;
    return normalized.toUTF8String(out);
  }

 private:
  const icu::Normalizer2* m_nfkc_cf = nullptr;
};

// Why a drawn string is not a query a user could type as one word, or nullptr
// when it is one: the query language reads blanks, quotes, parentheses, a
// leading '-', a leading "field:" and the bare operators OR, AND and NOT as
// syntax, and a string that folds to blanks (U+3000 and the no-break spaces
// fold to ' ') or to nothing has nothing to search for. Only ASCII blanks
// separate query words, so other blanks inside a string stay in the check.
const char* not_one_word(std::string_view needle, std::string_view folded) {
  if (needle.find_first_of(" \t\r\n") != std::string_view::npos) return "a blank (space, tab, line break)";
  if (needle.find_first_of("\"()") != std::string_view::npos) return "a quote or parenthesis";
  if (needle.front() == '-') return "a leading '-'";
  if (needle == "OR" || needle == "AND" || needle == "NOT") return "an operator";
  const auto colon = needle.find(':');
  if (colon != std::string_view::npos) {
    std::string field(needle.substr(0, colon));
    std::transform(field.begin(), field.end(), field.begin(), [](char c) { return std::tolower(c); });
    const schema::Field* f = schema::find_field(field);
    if (f && f->kind != schema::FieldKind::Internal) return "a field prefix";
  }
  if (folded.find_first_not_of(" \t\r\n") == std::string_view::npos) return "nothing but blanks once folded";
  return nullptr;
}

struct SubstringCounts {
  std::size_t checked = 0, failed = 0;
  std::size_t exact_failed = 0;  // --exact hits other than the notes holding the string as drawn
  std::map<std::string, std::size_t> not_words;  // drawn strings left out, by reason
};

// The notes' text: path → title, other names and body, as stored and folded by the reference.
struct ReferenceText {
  std::string raw, folded;
};
std::map<std::string, ReferenceText> reference_texts(const Xapian::Database& db, const ReferenceFold& fold) {
  std::map<std::string, ReferenceText> out;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document doc = db.get_document(*it);
    const NoteMeta meta = NoteMeta::of(doc);
    std::string all = meta.title + "\n";
    for (const auto& a : meta.names) all += a + "\n";
    all += doc.get_data();
    out[meta.path] = {all, fold(all)};
  }
  return out;
}

// The notes a search returns (every one of them).
std::set<std::string> found(Searcher& searcher, const std::string& query, std::size_t all, bool exact) {
  SearchRequest req;
  req.query = query;
  req.limit = all;
  req.snippets = 0;
  req.exact = exact;
  std::set<std::string> got;
  for (const auto& h : search_for_people(searcher, req).result.hits) got.insert(h.path);
  return got;
}

// Substrings drawn from the notes' stored text: every note whose text holds
// the drawn string, both folded by ReferenceFold, must be returned. A search
// that throws is a failure: the drawn strings that are not one query word
// are left out beforehand.
SubstringCounts substring_check(const std::string& index, Searcher& searcher, std::size_t count,
                                bool verbose) {
  const Xapian::Database db(index);
  const ReferenceFold fold;
  const auto notes = reference_texts(db, fold);
  std::vector<std::string> raw;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it)
    raw.push_back(db.get_document(*it).get_data());
  std::mt19937 rng(20261130);
  SubstringCounts counts;
  std::size_t attempts = 0;
  while (counts.checked < count && attempts++ < count * 50 && !notes.empty()) {
    const std::string& text = raw[rng() % raw.size()];
    if (text.empty()) continue;
    // A start on a character boundary, 1–8 characters long.
    std::size_t start = rng() % text.size();
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    const std::size_t chars = 1 + rng() % 8;
    std::size_t end = start;
    for (std::size_t k = 0; k < chars && end < text.size(); ++k) unicode::next_code_point(text, end);
    const std::string needle = text.substr(start, end - start);
    const std::string folded = fold(needle);
    if (const char* why = not_one_word(needle, folded)) {
      ++counts.not_words[why];
      continue;
    }
    ++counts.checked;
    std::set<std::string> truth, as_typed;
    for (const auto& [path, note] : notes) {
      if (note.folded.find(folded) != std::string::npos) truth.insert(path);
      if (note.raw.find(needle) != std::string::npos) as_typed.insert(path);
    }
    std::set<std::string> got, exact;
    try {
      got = found(searcher, needle, notes.size(), false);
      exact = found(searcher, needle, notes.size(), true);
    } catch (const std::exception& e) {
      ++counts.failed;
      fmt::print("substring ERROR '{}': the search failed: {}\n", needle, e.what());
      continue;
    }
    // --exact: exactly the notes holding the string as drawn (grep -F on the stored text).
    if (exact != as_typed) {
      ++counts.exact_failed;
      fmt::print("exact MISMATCH '{}': {} notes hold it, --exact gives {}\n", needle, as_typed.size(), exact.size());
    }
    std::vector<std::string> missing;
    for (const auto& p : truth)
      if (!got.count(p)) missing.push_back(p);
    if (!missing.empty()) {
      ++counts.failed;
      fmt::print("substring MISS '{}': {} of {} notes missing, e.g. {}\n", needle, missing.size(),
                 truth.size(), missing[0]);
    } else if (verbose) {
      fmt::print("substring ok   '{}' ({} notes)\n", needle, truth.size());
    }
  }
  return counts;
}

// The mean scores of n queries.
struct Mean {
  Scores scores;
  std::size_t n = 0;
};

Mean mean(const std::vector<Scores>& v) {
  Mean m{{}, v.size()};
  for (const auto& s : v) {
    m.scores.recall += s.recall / static_cast<double>(v.size());
    m.scores.ndcg += s.ndcg / static_cast<double>(v.size());
    m.scores.mrr += s.mrr / static_cast<double>(v.size());
  }
  return m;
}

// Runs the judged queries, printing each one's scores; returns the means per category and "overall".
std::map<std::string, Mean> run_judged(Searcher& searcher, const std::vector<Judged>& judged) {
  std::map<std::string, std::vector<Scores>> by_category;
  fmt::print("{:<5} {:<10} {:>6} {:>6} {:>6}  {}\n", "id", "category", "R@10", "nDCG", "MRR", "query");
  for (const auto& j : judged) {
    SearchRequest req;
    req.query = j.query + (j.filters.empty() ? "" : " " + j.filters);
    req.limit = 10;
    req.snippets = 0;
    std::vector<std::string> ranked;
    for (const auto& h : search_for_people(searcher, req).result.hits) ranked.push_back(h.path);
    const Scores s = score(j, ranked);
    by_category[j.category].push_back(s);
    by_category[OVERALL].push_back(s);
    fmt::print("{:<5} {:<10} {:>6.3f} {:>6.3f} {:>6.3f}  {}{}\n", j.id, j.category, s.recall, s.ndcg, s.mrr,
               j.query, j.filters.empty() ? "" : " [" + j.filters + "]");
  }
  std::map<std::string, Mean> out;
  for (const auto& [cat, v] : by_category) out[cat] = mean(v);
  fmt::print("\n{:<16} {:>3} {:>6} {:>6} {:>6}\n", "category", "n", "R@10", "nDCG", "MRR");
  auto row = [](const std::string& cat, const Mean& m) {
    fmt::print("{:<16} {:>3} {:>6.3f} {:>6.3f} {:>6.3f}\n", cat, m.n, m.scores.recall, m.scores.ndcg,
               m.scores.mrr);
  };
  for (const auto& [cat, m] : out)
    if (cat != OVERALL) row(cat, m);
  row(OVERALL, out[OVERALL]);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string index, queries, thresholds_file;
  std::size_t substrings = 300;
  bool verbose = false;
  po::options_description d("Usage: sagasu-eval --index DIR --queries FILE --thresholds FILE\n\nOptions");
  d.add_options()("index", po::value(&index)->required(), "index of data/vault")(
      "queries", po::value(&queries)->required(), "judged queries (data/queries.tsv)")(
      "thresholds", po::value(&thresholds_file)->required(),
      "minimum recall@10, nDCG@10 and MRR per category and overall (tests/eval/thresholds.tsv)")(
      "substrings", po::value(&substrings), "how many literal substrings to check (default 300)")(
      "verbose", po::bool_switch(&verbose), "list every substring checked");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, d), vm);
    po::notify(vm);
    const auto judged = read_queries(queries);
    std::set<std::string> categories{OVERALL};
    for (const auto& j : judged) categories.insert(j.category);
    const Thresholds thresholds = read_thresholds(thresholds_file, categories);
    Searcher searcher(index);
    const auto means = run_judged(searcher, judged);
    fmt::print("\n");
    const SubstringCounts sub = substring_check(index, searcher, substrings, verbose);
    const double substring_recall =
        sub.checked ? 1.0 - static_cast<double>(sub.failed) / static_cast<double>(sub.checked) : 0;
    fmt::print("literal substrings: {} checked, {} with a missed note or an error: recall {:.3f}; "
               "--exact other than the notes holding it: {}\n",
               sub.checked, sub.failed, substring_recall, sub.exact_failed);
    for (const auto& [why, n] : sub.not_words) fmt::print("  {} drawn but left out: {}\n", n, why);
    fmt::print("\n");

    int gates = 0, failures = 0;
    auto gate = [&](const std::string& what, double got, double min) {
      const bool ok = got + 1e-9 >= min;
      fmt::print("{} {}: {:.3f} (threshold {:.2f})\n", ok ? "ok  " : "FAIL", what, got, min);
      ++gates;
      if (!ok) ++failures;
    };
    auto gate_category = [&](const std::string& cat) {
      for (const char* m : METRICS)
        gate(fmt::format("{} {}", cat, m), metric(means.at(cat).scores, m), thresholds.at(cat).at(m));
    };
    for (const auto& [cat, mins] : thresholds)
      if (cat != OVERALL) gate_category(cat);
    gate_category(OVERALL);
    // Not a measured figure but the tier's promise: every note holding the string.
    gate("literal-substring recall", substring_recall, 1.0);
    gate("literal-substring --exact = grep -F", sub.exact_failed == 0 ? 1.0 : 0.0, 1.0);
    fmt::print("{} passed, {} failed\n", gates - failures, failures);
    return failures ? 1 : 0;
  } catch (const po::error& e) {
    fmt::print(stderr, "sagasu-eval: {}\n", e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "sagasu-eval: {}\n", e.what());
  }
  return 2;
}
