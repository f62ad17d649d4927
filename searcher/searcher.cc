#include "sagasu/searcher.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include "collector.h"
#include "hit_builder.h"
#include "index_set.h"
#include "query_builder.h"
#include "sagasu/error.h"
#include "sagasu/index_error.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"
#include "suggest.h"
#include "synonyms.h"
#include "unweighted.h"
#include "verifier.h"

namespace fs = std::filesystem;

namespace sagasu {

const char* to_string(Tier tier) {
  static constexpr const char* NAMES[] = {"word", "bridge", "scattered", "substring", "variant", "related"};
  static_assert(std::size(NAMES) == static_cast<std::size_t>(Tier::Related) + 1);
  return NAMES[static_cast<std::size_t>(tier)];
}

namespace {

// Bounds on what one query may ask (README: "Limits"): a search that long is
// a mistake or an attack, and its cost grows with its pieces (a 100,000-character
// query took minutes).
constexpr std::size_t MAX_QUERY_BYTES = 4096;
constexpr std::size_t MAX_QUERY_PIECES = 256;

void check_size(const SearchRequest& req) {
  std::size_t bytes = req.query.size();
  for (const auto& f : req.filters) bytes += f.size();
  if (bytes > MAX_QUERY_BYTES)
    throw UsageError(
        fmt::format("query: {} bytes; at most {} (with --filter values)", bytes, MAX_QUERY_BYTES));
}

void check_pieces(const CompiledQuery& q) {
  std::size_t pieces = q.chunks.size() + q.must_not.size();
  for (const auto& [field, alts] : q.filters) pieces += alts.size();
  if (pieces > MAX_QUERY_PIECES)
    throw UsageError(
        fmt::format("query: {} pieces (words, phrases, filters); at most {}", pieces, MAX_QUERY_PIECES));
}

void check_utf8(const SearchRequest& req) {
  if (const auto bad = unicode::find_invalid_utf8(req.query); bad != std::string::npos)
    throw UsageError(fmt::format("query: invalid UTF-8 at byte {}", bad));
  for (const auto& f : req.filters)
    if (const auto bad = unicode::find_invalid_utf8(f); bad != std::string::npos)
      throw UsageError(fmt::format("--filter: invalid UTF-8 at byte {}", bad));
}

// The facets asked for, and those counted in the main match: a facet the
// query filters on is counted sideways instead, without its own filter.
struct FacetPlan {
  std::vector<const schema::Field*> wanted, in_main;
};

FacetPlan plan_facets(const SearchRequest& req, const CompiledQuery& q) {
  FacetPlan plan;
  for (const auto& name : req.facets) {
    const schema::Field* f = schema::find_facet(name);
    if (!f) throw UsageError(fmt::format("--facet {}: expected {}", name, schema::field_names(true, " or ")));
    if (std::find(plan.wanted.begin(), plan.wanted.end(), f) == plan.wanted.end()) plan.wanted.push_back(f);
  }
  for (const auto* f : plan.wanted)
    if (!q.filters.count(std::string(f->name))) plan.in_main.push_back(f);
  return plan;
}

// One facet's counts by count, then value; the values the query filters on are marked.
FacetCounts counts_of(const schema::Field& f, const std::map<std::string, std::size_t>& counts,
                      const CompiledQuery& q) {
  FacetCounts fc;
  fc.name = std::string(f.name);
  const auto sel = q.selected.find(fc.name);
  for (const auto& [value, n] : counts) {
    const bool selected = sel != q.selected.end() && sel->second.count(schema::filter_term(f, value)) > 0;
    fc.values.push_back({value, n, selected});
  }
  std::stable_sort(fc.values.begin(), fc.values.end(),
                   [](const FacetValue& a, const FacetValue& b) { return a.count > b.count; });
  return fc;
}

// Every facet asked for: those of the main match, and the filtered ones
// drill-sideways (as Lucene's DrillSideways): counted without their own
// filter, so the other values show what widening gives.
std::vector<FacetCounts> count_facets(const FacetPlan& plan, Collected& main, Collector& collector,
                                      const CompiledQuery& q) {
  std::vector<FacetCounts> out;
  for (const auto* f : plan.wanted) {
    if (std::find(plan.in_main.begin(), plan.in_main.end(), f) != plan.in_main.end()) {
      out.push_back(counts_of(*f, main.counts[f], q));
      continue;
    }
    Collected side = collector.collect(q.assemble(f->name), 0, 0, {f}, {});
    out.push_back(counts_of(*f, side.counts[f], q));
    out.back().sideways = true;
  }
  return out;
}

}  // namespace

std::string LooseReasons::text() const {
  std::vector<std::string> by;
  if (words_apart) by.emplace_back("the words apart");
  if (inside_words) by.emplace_back("the word inside longer words");
  if (weaker_equivalents) by.emplace_back("weaker equivalents");
  return fmt::format("{}", fmt::join(by, " or "));
}

Searcher::Searcher(const std::string& index_path) : Searcher(IndexSet{{index_path}, false}) {}

Searcher::Searcher(const IndexSet& indexes)
    : m_index(std::make_unique<OpenIndex>(
          open_index(indexes.locations, indexes.allow_partial, indexes.indexer_command))) {}

Searcher::~Searcher() = default;

std::optional<Hit> Searcher::note(const std::string& path) {
  const std::string id = schema::unique_id_term(path);
  for (auto it = m_index->all.postlist_begin(id); it != m_index->all.postlist_end(id); ++it) {
    const Xapian::Document doc = m_index->all.get_document(*it);
    const auto meta = NoteMeta::decode(doc.get_value(schema::SLOT_META));
    if (meta && meta->path == path) return note_hit(*meta, doc, vault());
  }
  return std::nullopt;
}

std::string read_hit_file(const Hit& hit, std::uint64_t limit) {
  // The vault is the file's path without the note's (Hit::file is vault + "/" + path).
  const std::string_view file = hit.file;
  if (file.size() <= hit.path.size() + 1 || file.substr(file.size() - hit.path.size()) != hit.path)
    throw Error(fmt::format("{}: no file in the vault", hit.path));
  std::error_code ec;
  const std::string root = fs::canonical(file.substr(0, file.size() - hit.path.size() - 1), ec).string();
  if (ec) throw Error(fmt::format("{}: cannot read: the vault: {}", hit.path, ec.message()));
  return read_vault_file(root, hit.file, hit.path, limit);
}

namespace {

// Link targets compare ASCII case aside (as Obsidian resolves them).
std::string ascii_lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The lines of a hit's file that link to a note by one of its names (lower-cased ASCII).
std::vector<LinkLine> link_lines(const Hit& hit, const std::vector<std::string>& names) {
  std::vector<LinkLine> out;
  std::string text;
  try {
    text = read_hit_file(hit);
  } catch (const Error&) {
    return out;  // moved since indexing, or no longer a file: nothing to point at
  }
  std::size_t number = 1;
  for (std::size_t at = 0; at < text.size(); ++number) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, nl - at), folded = ascii_lower(line);
    std::size_t link = std::string::npos;
    for (const auto& name : names) {
      for (std::size_t pos = folded.find("[[" + name); pos != std::string::npos && link == std::string::npos;
           pos = folded.find("[[" + name, pos + 1)) {
        const std::size_t end = pos + 2 + name.size();
        // (in a Markdown table the | of [[name\|text]] is escaped)
        if (end < folded.size() && (folded[end] == ']' || folded[end] == '|' || folded[end] == '#' ||
                                    folded.compare(end, 2, "\\|") == 0))
          link = pos;
      }
      if (link != std::string::npos) break;
    }
    if (link != std::string::npos) {
      // A long line (a flattened note) is shown around its link: 400 bytes from 100 before it.
      const std::size_t from = link > 100 ? unicode::char_start(line, link - 100) : 0;
      std::size_t to = std::min(line.size(), from + 400);
      if (to < line.size()) to = unicode::char_start(line, to);
      out.push_back(
          {number, (from > 0 ? "…" : "") + line.substr(from, to - from) + (to < line.size() ? "…" : "")});
    }
    at = nl + 1;
  }
  return out;
}

}  // namespace

Backlinks Searcher::backlinks(const std::string& path, std::size_t offset, std::size_t limit) {
  Backlinks out;
  const auto target = note(path);
  if (!target) throw Error(fmt::format("{}: the index holds no such note", path));
  out.target = *target;
  // Its names: the file name (a source note's is its citation key), the title,
  // and the other names the vault gives it (aliases).
  const std::string stem = fs::path(path).stem().string();
  // A link may also name its path ([[sub/Deep]]) or its file ([[Deep.md]]).
  const std::string no_ext = fs::path(path).replace_extension().generic_string();
  std::vector<std::string> names{stem, target->title, no_ext, stem + fs::path(path).extension().string(),
                                 path};
  const Synonyms synonyms(m_index->all);
  for (auto& n : synonyms.of(m_analyzer.key(stem))) names.push_back(std::move(n));
  for (auto& n : synonyms.of(m_analyzer.key(target->title))) names.push_back(std::move(n));
  for (auto& n : names) n = ascii_lower(std::move(n));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  // The index's candidates (links: also takes a page's works and list mates), each confirmed in its file.
  auto quoted = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
    return "\"" + s + "\"";
  };
  SearchRequest req;
  req.query =
      fmt::format("links:{} OR links:{} OR cites:{}", quoted(stem), quoted(target->title), quoted(stem));
  req.limit = note_count();
  req.snippets = 0;
  req.facets.clear();
  for (Hit& h : search(req).hits) {
    if (h.path == path) continue;  // (not its own backlink)
    auto lines = link_lines(h, names);
    if (lines.empty()) continue;
    if (out.total >= offset && out.notes.size() < limit)
      out.notes.push_back({std::move(h), std::move(lines)});
    ++out.total;
  }
  return out;
}

namespace {

// What a related note may share with the target: terms of each kind.
struct RelatedEvidence {
  std::set<std::string> to_it, from_it;  ///< id terms of the notes linking to it, and it links to
  std::set<std::string> linked, tags, words;
};

// Why a note is related to the target: a link either way, links or cites
// what the target does (linked), names its people or organizations, shares
// its tags or its words.
std::vector<std::string> related_why(const Xapian::Database& db, Xapian::docid doc, const Hit& hit,
                                     const Hit& target, const RelatedEvidence& e) {
  std::vector<std::string> why, shared_words, shared_tags;
  std::size_t shared_links = 0;
  bool links_to_it = false, linked_from_it = false;
  for (auto t = db.termlist_begin(doc); t != db.termlist_end(doc); ++t) {
    const std::string term = *t;
    if (e.to_it.count(term)) links_to_it = true;
    if (e.from_it.count(term)) linked_from_it = true;
    if (e.linked.count(term)) ++shared_links;
    if (e.tags.count(term)) shared_tags.push_back(term.substr(schema::TAG.prefix.size()));
    if (e.words.count(term)) shared_words.push_back(term);
  }
  if (links_to_it) why.push_back("links to it");
  if (linked_from_it) why.push_back("linked from it");
  if (shared_links > 0) why.push_back(fmt::format("links or cites {} of the same", shared_links));
  if (!shared_tags.empty()) why.push_back(fmt::format("tags: {}", fmt::join(shared_tags, ", ")));
  for (const char* facet : {"person", "org"}) {
    const auto theirs = hit.values.find(facet), mine = target.values.find(facet);
    if (theirs == hit.values.end() || mine == target.values.end()) continue;
    for (const auto& v : theirs->second)
      if (std::find(mine->second.begin(), mine->second.end(), v) != mine->second.end())
        why.push_back(fmt::format("{}: {}", facet, v));
  }
  if (!shared_words.empty()) why.push_back(fmt::format("words: {}", fmt::join(shared_words, ", ")));
  return why;
}

// A note's evidence, by kind: what it links or cites, who and what it
// names, its rarer tags, and its distinctive words.
struct NoteEvidence {
  std::vector<std::string> linked, named, tags, distinctive;
};

NoteEvidence evidence_of(const Xapian::Database& db, Xapian::docid self, const std::string& id) {
  NoteEvidence e;
  // Its own words worth sharing: said at least twice, of two characters or
  // more (four letters for a Latin word: no "is", "run"), in at most a tenth
  // of the notes.
  std::set<std::string> repeated;
  for (auto t = db.termlist_begin(self); t != db.termlist_end(self); ++t) {
    const std::string term = *t;
    // (Not a tag or word a tenth of the notes have: person, research; する, https.)
    const bool rare = t.get_termfreq() * 10 <= db.get_doccount();
    if (strings::starts_with(term, schema::LINK.prefix) || strings::starts_with(term, schema::CITE.prefix))
      e.linked.push_back(term);
    else if (strings::starts_with(term, schema::PERSON.prefix) ||
             strings::starts_with(term, schema::ORG.prefix))
      e.named.push_back(term);
    else if (strings::starts_with(term, schema::TAG.prefix) && rare)
      e.tags.push_back(term);
    else if (schema::is_word_term(term) && t.get_wdf() >= 2 && rare &&
             unicode::length(term) >= (static_cast<unsigned char>(term[0]) < 0x80 ? 4u : 2u))
      repeated.insert(term);
  }
  // Its distinctive words: the expansion set of a relevance set of one note.
  Xapian::Enquire enquire(db);
  Xapian::RSet rset;
  rset.add_document(self);
  struct Words : Xapian::ExpandDecider {
    const std::set<std::string>& allowed;
    explicit Words(const std::set<std::string>& a) : allowed(a) {}
    bool operator()(const std::string& term) const override { return allowed.count(term) > 0; }
  } words(repeated);
  enquire.set_query(Xapian::Query(id));
  const Xapian::ESet eset = enquire.get_eset(20, rset, &words);
  e.distinctive.assign(eset.begin(), eset.end());
  return e;
}

}  // namespace

std::vector<std::string> Searcher::linked_pages(const std::vector<std::string>& link_terms) {
  constexpr Xapian::doccount MAX_TITLED = 20;  // notes whose title holds a target's words, looked at
  std::vector<std::string> out;
  const std::string px(schema::LINK.prefix);
  Xapian::Enquire enquire(m_index->all);
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  for (const std::string& term : link_terms) {
    if (!strings::starts_with(term, px)) continue;
    std::vector<Xapian::Query> words;
    for (const std::string& w : m_analyzer.words(std::string_view(term).substr(px.size())))
      words.emplace_back(std::string(schema::TITLE.prefix) + w);
    if (words.empty()) continue;
    enquire.set_query(Xapian::Query(Xapian::Query::OP_PHRASE, words.begin(), words.end()));
    const Xapian::MSet titled = enquire.get_mset(0, MAX_TITLED);
    for (auto m = titled.begin(); m != titled.end(); ++m) {
      const NoteMeta meta = NoteMeta::of(m.get_document());
      if (schema::filter_term(schema::LINK, meta.title) == term ||
          schema::filter_term(schema::LINK, fs::path(meta.path).stem().string()) == term)
        out.push_back(schema::unique_id_term(meta.path));
    }
  }
  return out;
}

Related Searcher::related(const std::string& path, std::size_t limit) {
  Related out;
  const auto target = note(path);
  if (!target) throw Error(fmt::format("{}: the index holds no such note", path));
  out.target = *target;
  Xapian::Database& db = m_index->all;
  const std::string id = schema::unique_id_term(path);
  Xapian::PostingIterator p = db.postlist_begin(id);
  if (p == db.postlist_end(id)) return out;
  const Xapian::docid self = *p;
  const auto [linked, named, tags, distinctive] = evidence_of(db, self, id);
  // Those that link to it: its backlinks, each confirmed in its file; and
  // those it links to.
  std::vector<std::string> to_it, from_it = linked_pages(linked);
  for (const auto& n : backlinks(path, 0, note_count()).notes)
    to_it.push_back(schema::unique_id_term(n.note.path));
  Xapian::Enquire enquire(db);
  auto any = [](const std::vector<std::string>& terms) {
    return Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
  };
  // A link either way weighs most; then each link, citation, person,
  // organization and tag the two share, by its rarity (these terms have no
  // wdf, so BM25 gives them nothing: a fixed weight of its idf each); then
  // the distinctive words (BM25).
  constexpr double LINK_WEIGHT = 8.0, SHARED_LINK = 0.5, SHARED_NAME = 0.35, SHARED_TAG = 0.35;
  const auto fixed = [](double weight, Xapian::Query filter) {
    return Xapian::Query(Xapian::Query::OP_FILTER,
                         Xapian::Query((new Xapian::FixedWeightPostingSource(weight))->release()),
                         std::move(filter));
  };
  std::vector<std::string> either = to_it;
  either.insert(either.end(), from_it.begin(), from_it.end());
  std::vector<Xapian::Query> parts{fixed(LINK_WEIGHT, any(either)),
                                   Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, any(distinctive), 1.0)};
  // (Each weight a multiple of 1/1024, so that their sums are exact in any
  // order: a shard's matcher adds them in another, and equal sums must tie.)
  const double notes = db.get_doccount();
  for (const auto& [terms, factor] :
       {std::pair{&linked, SHARED_LINK}, {&named, SHARED_NAME}, {&tags, SHARED_TAG}})
    for (const std::string& term : *terms)
      if (const double df = db.get_termfreq(term); df > 1)
        parts.push_back(fixed(std::round(factor * std::log(notes / df) * 1024) / 1024, Xapian::Query(term)));
  const Xapian::Query query(Xapian::Query::OP_OR, parts.begin(), parts.end());
  enquire.set_query(Xapian::Query(Xapian::Query::OP_AND_NOT, query, Xapian::Query(id)));
  // Equal weights (a link each) in title order, as a search's: the same on one index or many shards.
  enquire.set_sort_by_relevance_then_value(schema::SLOT_TITLE, false);
  const Xapian::MSet mset = enquire.get_mset(0, static_cast<Xapian::doccount>(limit));
  const RelatedEvidence evidence{{to_it.begin(), to_it.end()},
                                 {from_it.begin(), from_it.end()},
                                 {linked.begin(), linked.end()},
                                 {tags.begin(), tags.end()},
                                 {distinctive.begin(), distinctive.end()}};
  for (auto m = mset.begin(); m != mset.end(); ++m) {
    const Xapian::Document doc = m.get_document();
    Hit hit = note_hit(NoteMeta::of(doc), doc, vault());
    hit.rank = out.notes.size() + 1;
    hit.score = m.get_weight();
    std::vector<std::string> why = related_why(db, *m, hit, *target, evidence);
    out.notes.push_back({std::move(hit), std::move(why)});
  }
  return out;
}

std::vector<std::pair<std::string, std::size_t>> Searcher::facet_coverage() const {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (const schema::Field& f : schema::FIELDS)
    if (f.is_facet())
      out.emplace_back(f.name, m_index->all.get_value_freq(static_cast<Xapian::valueno>(f.facet_slot)));
  return out;
}

std::vector<std::string> Searcher::unreadable_folders() const {
  return strings::split_nonempty(m_index->all.get_metadata(std::string(schema::META_UNREADABLE)), '\n');
}

std::vector<std::pair<std::string, std::string>> Searcher::skipped_files() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& line :
       strings::split_nonempty(m_index->all.get_metadata(std::string(schema::META_SKIPPED)), '\n')) {
    const auto tab = line.find('\t');
    out.emplace_back(line.substr(0, tab), tab == std::string::npos ? "" : line.substr(tab + 1));
  }
  return out;
}

std::size_t Searcher::note_count() const {
  return m_index->all.get_doccount();
}

std::string Searcher::vault() const {
  return m_index->all.get_metadata(std::string(schema::META_VAULT));
}

const std::vector<std::string>& Searcher::missing_shards() const {
  return m_index->missing;
}

SearchResult Searcher::search(const SearchRequest& req) {
  try {
    SearchResult result = run(req);
    if (req.go_on) go_on(req, result);
    return result;
  } catch (const Xapian::NetworkError& e) {
    // Xapian does not say which shard: name them all.
    throw Error(
        fmt::format("{}: a shard stopped answering during the search: {}", m_index->name, e.get_msg()));
  } catch (const Xapian::DatabaseError& e) {
    throw index_failure(m_index->name, e, m_index->rebuild);
  } catch (const Xapian::DocNotFoundError& e) {  // a posting list that names no document: damage
    throw index_failure(m_index->name, e, m_index->rebuild);
  }
}

SearchResult Searcher::run(const SearchRequest& req) {
  check_utf8(req);
  check_size(req);
  const Synonyms synonyms(m_index->all);
  const Bridges bridges(m_index->all, m_analyzer, Dictionary::system());
  QueryBuilder builder(
      m_index->all, m_analyzer, synonyms, req.exact, req.bridge ? &bridges : nullptr,
      [this]() -> const WordList& { return m_index->word_list(); },
      [this]() -> const KatakanaWords& { return m_index->katakana_words(); });
  CompiledQuery query = builder.build(req);
  check_pieces(query);
  const FacetPlan facets = plan_facets(req, query);
  const Verifier verifier(*m_index, query, req.exact, m_analyzer);
  // Without words every match weighs nothing: by relevance is by title.
  const bool weighed = !query.text.empty();
  const auto collector = make_collector(
      *m_index, verifier,
      !weighed && req.sort == SearchRequest::Sort::Relevance ? SearchRequest::Sort::Title : req.sort);
  // Beyond what a Xapian index can hold, an offset or a limit means "all" (not a wrap to a small number).
  constexpr std::size_t MOST = std::numeric_limits<Xapian::doccount>::max();
  const auto first = static_cast<Xapian::doccount>(std::min(req.offset, MOST)),
             max = static_cast<Xapian::doccount>(std::min(req.limit, MOST));
  Collected main = collector->collect(query.assemble(), first, max, facets.in_main, query.boost());

  SearchResult result;
  result.notices = builder.fields().notices();
  result.widenable = query.widenable;
  if (main.total == 0 && query.widenable && req.widen && !query.widened) {
    // Zero-hit rescue: no note has every piece, so show notes with any piece.
    builder.widen(query);
    main = collector->collect(query.assemble(), first, max, facets.in_main, query.boost());
  }
  for (const auto& c : query.chunks) result.chunks.push_back(c.info);
  // (Only --explain shows it; a synonym of thousands of words makes it long.)
  if (req.explain) result.query_description = query.assemble().get_description();
  result.total = main.total;
  if (!req.loose && (query.has_compound || query.held_back || query.inside_words) && !query.widened) {
    result.loose_more = count_loose(builder, req, verifier) - main.total;
    result.loose_by = {query.has_compound, query.inside_words, query.held_back};
  }
  result.missing_shards = m_index->missing;
  result.facets = count_facets(facets, main, *collector, query);

  const HitBuilder hits(*m_index, m_analyzer, query, req);
  result.hits = hits.build(main.page, req.offset);
  // Widening is visible: say when no hit is a whole-word hit (a title
  // holding an equivalent may come before the notes that say the word).
  if (req.offset == 0 && !result.hits.empty() &&
      std::none_of(result.hits.begin(), result.hits.end(),
                   [](const Hit& h) { return h.tier == Tier::Word; }) &&
      unweighted_enquire(m_index->all, query.words_only()).get_mset(0, 1).empty())
    result.notices.push_back(
        fmt::format("no whole-word match; showing {} matches", to_string(result.hits.front().tier)));
  if (result.total == 0 && !req.exact) {
    Correction c = correct(m_index->all, req.query, query.chunks);
    result.suggestions = std::move(c.suggestions);
    result.correction = std::move(c.query);
  }
  return result;
}

// A reader's ranked list goes on where the hits end before the page does:
// first the notes the loose search adds (the words apart, weaker
// equivalents), then those tied to the note the query names, then those
// with some of the words (most first), each in its search's order. The
// page's share of them is built; the hits, the total and the facets stay
// the query's.
void Searcher::go_on(const SearchRequest& req, SearchResult& result) {
  constexpr std::size_t MOST = std::numeric_limits<Xapian::doccount>::max();
  const std::size_t end = std::min(req.offset, MOST) + std::min(req.limit, MOST);
  if (result.total == 0 || result.total >= end) return;
  SearchRequest quiet = req;
  quiet.go_on = false;
  quiet.facets.clear();
  quiet.offset = 0;
  // The hits' notes, never listed again; the one titled as the query is typed.
  std::set<std::string> seen;
  std::optional<Hit> topic;
  const std::string typed = m_analyzer.key(req.query);
  const auto saw = [&](const Hit& h) {
    seen.insert(h.path);
    if (!topic && m_analyzer.key(h.title) == typed) topic = h;
  };
  if (req.offset == 0) {
    for (const Hit& h : result.hits) saw(h);
  } else {
    SearchRequest all = quiet;
    all.limit = result.total;
    all.snippets = 0;
    for (const Hit& h : run(all).hits) saw(h);
  }
  std::size_t skip = req.offset > result.total ? req.offset - result.total : 0;
  std::size_t want = end - std::max(req.offset, static_cast<std::size_t>(result.total));
  std::size_t rank = result.total;
  // Of notes found more loosely (each list a superset's first seen + skip + want), the new ones.
  const auto take = [&](std::vector<Hit> found, const std::string& how) {
    for (Hit& h : found) {
      if (want == 0) return;
      if (!seen.insert(h.path).second) continue;
      ++rank;
      if (skip > 0) {
        --skip;
        continue;
      }
      h.rank = rank;
      h.beyond = how;
      result.beyond.push_back(std::move(h));
      --want;
    }
  };
  const auto add = [&](SearchRequest looser, const std::string& how) {
    looser.limit = seen.size() + skip + want;
    take(run(looser).hits, how);
  };
  SearchRequest loose = quiet;
  loose.loose = true;
  if (!req.loose && result.loose_more > 0) add(loose, result.loose_by.text());
  // The notes tied to the note the query names (a hit titled as typed: the
  // note about the topic), what they say or not: its links either way, the
  // pages, people and tags they share, its words (related).
  if (want > 0 && topic) {
    std::vector<Hit> tied;
    for (Related::Note& n : related(topic->path, seen.size() + skip + want).notes) {
      n.note.tier = Tier::Related;
      tied.push_back(std::move(n.note));
    }
    take(std::move(tied), fmt::format("ties to {}", topic->title));
  }
  loose.any_piece = true;
  if (!req.any_piece && want > 0) add(loose, "some of the words");
}

std::size_t Searcher::count_loose(QueryBuilder& builder, const SearchRequest& req, const Verifier& strict) {
  SearchRequest loose = req;
  loose.loose = true;
  const CompiledQuery query = builder.build(loose);
  Verifier verifier(*m_index, query, req.exact, m_analyzer);
  verifier.trust(strict);  // a loose query matches every note its strict form does
  return make_collector(*m_index, verifier, req.sort)->count(query.assemble());
}

FacetCounts Searcher::list(const std::string& facet) {
  if (facet == schema::TAG.name) return list_terms(schema::TAG);
  if (!schema::find_facet(facet))
    throw UsageError(
        fmt::format("--list {}: expected {} or {}", facet, schema::field_names(true), schema::TAG.name));
  SearchRequest req;
  req.facets = {facet};
  req.limit = 0;
  req.snippets = 0;
  req.match_all = true;
  SearchResult r = search(req);
  return r.facets.empty() ? FacetCounts{facet, {}, false} : r.facets.front();
}

// A field without a facet slot (tags): its filter terms and their note counts.
// The values are the terms, folded as filters fold them (#SDC and #sdc are one tag).
FacetCounts Searcher::list_terms(const schema::Field& field) {
  FacetCounts fc{std::string(field.name), {}, false};
  const std::string px(field.prefix);
  const Xapian::Database& db = m_index->all;
  for (auto t = db.allterms_begin(px); t != db.allterms_end(px); ++t)
    fc.values.push_back({(*t).substr(px.size()), static_cast<std::size_t>(t.get_termfreq()), false});
  std::stable_sort(fc.values.begin(), fc.values.end(),
                   [](const FacetValue& a, const FacetValue& b) { return a.count > b.count; });
  return fc;
}

}  // namespace sagasu
