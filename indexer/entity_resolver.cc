#include "entity_resolver.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <functional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "glossary.h"
#include "kind_evidence.h"
#include "sagasu/stored_note.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

using unicode::fold_name;

std::string_view to_string(KindEvidence e) {
  switch (e) {
    case KindEvidence::Override: return "override file";
    case KindEvidence::OwnPage: return "own page";
    case KindEvidence::Bibliographic:
      return "own authors and venue or year";
    case KindEvidence::ListLabel: return "list label";
    case KindEvidence::PageStructure: return "page structure";
    case KindEvidence::FirstSentence:
      return "first sentence";
    case KindEvidence::LinkContext:
      return "words around links";
    case KindEvidence::Heuristic: return "heuristic";
    case KindEvidence::ListMates:
      return "listed with";
    case KindEvidence::Page:
      return "page, no kind stated";
    case KindEvidence::None: return "none";
  }
  return "none";
}

std::optional<Kind> kind_of_label(std::string_view label) {
  static const std::map<std::string, Kind> labels = [] {
    std::map<std::string, Kind> m;
    for (const char* l : {"関連研究者", "研究者", "著者", "共著者", "人物", "関連人物", "メンバー", "責任著者",
                          "主著者", "people", "person", "persons", "researchers", "authors"})
      m[fold_name(l)] = kinds::PERSON;
    for (const char* l : {"親組織", "協力機関", "所属", "所属機関", "組織", "関連組織", "機関", "子組織", "関連機関",
                          "共同研究機関", "organizations", "organization", "affiliation", "affiliations"})
      m[fold_name(l)] = kinds::ORGANIZATION;
    for (const char* l : {"関連プロダクト", "プロダクト", "関連システム", "システム", "ツール", "関連ツール",
                          "products", "systems", "tools"})
      m[fold_name(l)] = kinds::PRODUCT;
    return m;
  }();
  auto it = labels.find(fold_name(label));
  if (it == labels.end()) return std::nullopt;
  return it->second;
}

NoteDigest make_digest(const Note& note, const NoteMetadata& meta) {
  NoteDigest d;
  d.title = note.title;
  d.display_title = note.display_title();
  d.source = note.source.has_value();
  d.aliases = note.aliases;
  d.kind_words = meta.kind_words;
  // Concept pages have the headings 定義 / 未解決の問い / 未編纂の観察. In a
  // flattened note the heading runs on into its paragraph: compare the first word.
  for (const auto& h : note.headings) {
    const std::string first = h.substr(0, h.find(' '));
    if (first == "定義" || first == "未解決の問い" || first == "未編纂の観察")
      d.structure = Kind(kinds::CONCEPT);
  }
  for (const auto& rel : note.relations) {
    if (fold_name(rel.label) == fold_name("親組織")) d.structure = Kind(kinds::ORGANIZATION);
    if (const auto k = kind_of_label(rel.label))
      for (const auto& item : rel.items) d.labelled.emplace_back(item.name, *k);
  }
  for (const auto& p : meta.persons) d.labelled.emplace_back(p.value, kinds::PERSON);
  for (const auto& o : meta.orgs) d.labelled.emplace_back(o.value, kinds::ORGANIZATION);
  d.names = mentioned_names(note, meta);
  for (const auto& v : meta.venues)
    if (std::find(d.venues.begin(), d.venues.end(), v.value) == d.venues.end()) d.venues.push_back(v.value);
  for (const auto& y : meta.years)
    if (std::find(d.years.begin(), d.years.end(), y.value) == d.years.end()) d.years.push_back(y.value);
  d.text_year = meta.text_year.value_or("");
  d.bibliographic = meta.bibliographic();
  if (auto def = defining_sentence(note)) {
    d.defined = std::move(def->first);
    d.defined_by = std::move(def->second);
  }
  LinkContexts contexts = link_contexts(note);
  d.hints = std::move(contexts.hints);
  d.lists = std::move(contexts.lists);
  d.glosses = learn_glosses(note);
  return d;
}

std::vector<std::string> mentioned_names(const Note& note, const NoteMetadata& meta) {
  std::vector<std::string> names;
  auto saw = [&](const std::string& name) {
    if (!name.empty() && name.front() != '@') names.push_back(name);
  };
  // A link to an attachment ([[figure.png]], [[paper.pdf]]) names a file, not an entity.
  for (const auto& l : note.links)
    if (!l.embed && !is_attachment(l.target)) saw(l.target);
  // Plain names count only in lists whose label says what they are.
  for (const auto& r : note.relations)
    for (const auto& i : r.items)
      if (i.linked || kind_of_label(r.label)) saw(i.name);
  for (const auto& p : meta.persons) saw(p.value);
  for (const auto& o : meta.orgs) saw(o.value);
  return names;
}

void EntityResolver::add(const NoteDigest& digest) { m_digests.push_back(std::cref(digest)); }

void EntityResolver::add(NoteDigest&& digest) { m_digests.push_back(std::cref(m_owned.emplace_back(std::move(digest)))); }

void EntityResolver::add_override(std::string_view name, std::string_view kind) {
  // A word the vocabulary does not know is a kind of the user's own.
  m_overrides[std::string(name)] = m_vocabulary.canonical(kind).value_or(std::string(kind));
}

std::vector<std::string> EntityResolver::load_overrides(std::string_view tsv) {
  std::vector<std::string> problems;
  std::size_t line_no = 0;
  while (!tsv.empty()) {
    ++line_no;
    const auto nl = tsv.find('\n');
    std::string_view line = tsv.substr(0, nl);
    tsv = nl == std::string_view::npos ? std::string_view() : tsv.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos) {
      problems.push_back(fmt::format("line {}: expected 'name<TAB>kind'", line_no));
      continue;
    }
    const std::string_view name = strings::trim(line.substr(0, tab)),
                           kind = strings::trim(line.substr(tab + 1));
    if (name.empty() || kind.empty() || kind.find_first_of("\t,") != std::string_view::npos) {
      problems.push_back(fmt::format("line {}: expected 'name<TAB>kind'", line_no));
      continue;
    }
    add_override(name, kind);
  }
  return problems;
}

std::string link_page_name(std::string_view target) {
  std::string_view t = strings::trim(target);
  t = t.substr(0, t.find('^'));  // a block reference: [[Note^abc123]]
  while (strings::starts_with(t, "./") || strings::starts_with(t, "/")) t.remove_prefix(t[0] == '/' ? 1 : 2);
  if (t.size() > 3 && fold_name(t.substr(t.size() - 3)) == ".md") t.remove_suffix(3);
  if (const auto slash = t.rfind('/'); slash != std::string_view::npos) t.remove_prefix(slash + 1);
  return std::string(strings::trim(t));
}

// The page a name or link target means, by its title or an alias; a link in
// the path form Obsidian writes ([[folder/Page]], [[Page.md]], [[Page^block]])
// means the page its last part names.
const std::string* EntityResolver::page_of(const std::string& key, std::string_view name) const {
  if (auto it = m_by_key.find(key); it != m_by_key.end()) return &it->second;
  const std::string page = link_page_name(name);
  if (page.empty() || page.size() == name.size()) return nullptr;
  if (auto it = m_by_key.find(fold_name(page)); it != m_by_key.end()) return &it->second;
  return nullptr;
}

std::string EntityResolver::canonical(std::string_view name) const {
  // Every name of the vault was resolved once in finish(): no folding here.
  if (const std::string_view* known = stored_canonical(name)) return std::string(*known);
  const std::string key = fold_name(name);
  if (const std::string* page = page_of(key, name)) return *page;
  // No page: case and width variants of one name are one value, spelled as first seen.
  auto seen = m_first_spelling.find(key);
  if (seen != m_first_spelling.end()) return seen->second;
  return std::string(name);
}

std::optional<std::pair<Kind, std::string>> EntityResolver::heuristic(std::string_view folded) {
  const auto org = [](const char* word) {
    return std::make_pair(Kind(kinds::ORGANIZATION), std::string(word));
  };
  // Publishers: 左右社, 白澤社, 岩波書店, BNN新社.
  for (const char* end : {"社", "書店", "出版"})
    if (strings::ends_with(folded, end) && unicode::length(folded) > unicode::length(end)) return org(end);
  // The keywords, folded once (a large vault asks about a hundred thousand names).
  struct Keyword {
    const char* word;
    std::string folded;
    bool latin;  // Latin keywords must be whole words
  };
  static const std::vector<Keyword> keywords = [] {
    std::vector<Keyword> k;
    for (const char* word :
         {"university", "大学", "研究所", "institute",   "laboratory", "laboratories", "lab",     "labs",
          "inc.",       "inc",  "corp",   "corporation", "株式会社",   "研究センター", "college", "academy",
          "学院",       "ltd",  "llc",    "gmbh",        "foundation", "機構",         "大學",    "press"}) {
      std::string w = fold_name(word);
      const bool latin = unicode::all_of(w, unicode::is_latin_alpha) || w.back() == '.';
      k.push_back({word, std::move(w), latin});
    }
    return k;
  }();
  for (const Keyword& k : keywords) {
    const std::string& w = k.folded;
    if (k.latin) {
      for (std::size_t p = folded.find(w); p != std::string::npos; p = folded.find(w, p + 1)) {
        const bool left = p == 0 || folded[p - 1] == ' ' || folded[p - 1] == ',';
        const std::size_t e = p + w.size();
        const bool right = e == folded.size() || folded[e] == ' ' || folded[e] == ',' || folded[e] == '.';
        if (left && right) return org(k.word);
      }
    } else if (folded.find(w) != std::string::npos) {
      return org(k.word);
    }
  }
  return std::nullopt;
}

namespace {

// An encoding held as the bytes a resolver's views point into.
std::shared_ptr<const std::string_view> owned(std::string bytes) {
  struct Owned {
    std::string bytes;
    std::string_view view;
  };
  auto o = std::make_shared<Owned>();
  o->bytes = std::move(bytes);
  o->view = o->bytes;
  return std::shared_ptr<const std::string_view>(o, &o->view);
}

}  // namespace

namespace {

// A work's venues and years, as the pages linking to it take them (its opening lines' year when it has no
// other).
WorkFacts work_facts(const NoteDigest& d) {
  return {d.venues,
          d.years.empty() && !d.text_year.empty() ? std::vector<std::string>{d.text_year} : d.years};
}

// A count as an encoding stores it (a field of at most nine digits).
bool get_count(std::string_view& in, std::size_t& n) {
  std::string_view f;
  if (!get_field(in, f) || f.empty() || f.size() > 9 || !std::all_of(f.begin(), f.end(), ::isdigit))
    return false;
  n = std::strtoul(std::string(f).c_str(), nullptr, 10);
  return true;
}

// The fields of a list of strings (its count, then each) from the front of in; false if malformed.
bool get_list(std::string_view& in, std::vector<std::string>* list) {
  std::size_t m = 0;
  if (!get_count(in, m)) return false;
  for (std::size_t i = 0; i < m; ++i) {
    std::string_view f;
    if (!get_field(in, f)) return false;
    if (list) list->emplace_back(f);
  }
  return true;
}

}  // namespace

std::string WorkTable::encode(const WorkFacts& facts) {
  std::string out;
  for (const auto* list : {&facts.venues, &facts.years}) {
    put_field(out, std::to_string(list->size()));
    for (const auto& v : *list) put_field(out, v);
  }
  return out;
}

bool WorkTable::read(std::string_view& in, std::size_t count) {
  auto works = std::make_shared<std::vector<std::pair<std::string_view, std::string_view>>>();
  works->reserve(std::min(count, in.size()));
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view title;
    if (!get_field(in, title) || (!works->empty() && !(works->back().first < title))) return false;
    const std::string_view facts = in;
    if (!get_list(in, nullptr) || !get_list(in, nullptr)) return false;
    works->emplace_back(title, facts.substr(0, facts.size() - in.size()));
  }
  m_read = std::move(works);
  m_edits.clear();
  return true;
}

const std::string_view* WorkTable::read_facts(std::string_view title) const {
  if (!m_read) return nullptr;
  const auto it = std::lower_bound(m_read->begin(), m_read->end(), title,
                                   [](const auto& w, std::string_view t) { return w.first < t; });
  return it != m_read->end() && it->first == title ? &it->second : nullptr;
}

std::optional<WorkFacts> WorkTable::find(std::string_view title) const {
  std::string_view facts;
  if (const auto e = m_edits.find(title); e != m_edits.end()) {
    if (!e->second) return std::nullopt;
    facts = *e->second;
  } else if (const std::string_view* f = read_facts(title)) {
    facts = *f;
  } else {
    return std::nullopt;
  }
  WorkFacts w;
  get_list(facts, &w.venues);
  get_list(facts, &w.years);
  return w;
}

bool WorkTable::contains(std::string_view title) const {
  if (const auto e = m_edits.find(title); e != m_edits.end()) return e->second.has_value();
  return read_facts(title) != nullptr;
}

void WorkTable::set(std::string_view title, const WorkFacts& facts) {
  m_edits.insert_or_assign(std::string(title), encode(facts));
}

void WorkTable::erase(std::string_view title) {
  if (read_facts(title))
    m_edits.insert_or_assign(std::string(title), std::nullopt);
  else if (const auto e = m_edits.find(title); e != m_edits.end())
    m_edits.erase(e);
}

std::vector<std::pair<std::string_view, std::string_view>> WorkTable::entries() const {
  std::vector<std::pair<std::string_view, std::string_view>> all;
  all.reserve((m_read ? m_read->size() : 0) + m_edits.size());
  auto e = m_edits.begin();
  auto take_edits_before = [&](const std::string_view* title) {
    for (; e != m_edits.end() && (!title || e->first < *title); ++e)
      if (e->second) all.emplace_back(e->first, *e->second);
  };
  if (m_read)
    for (const auto& [title, facts] : *m_read) {
      take_edits_before(&title);
      if (e != m_edits.end() && e->first == title) {
        if (e->second) all.emplace_back(e->first, *e->second);
        ++e;
      } else {
        all.emplace_back(title, facts);
      }
    }
  take_edits_before(nullptr);
  return all;
}

std::optional<std::pair<Kind, std::string>> EntityResolver::declared(const NoteDigest& d) const {
  for (const auto& w : d.kind_words) {
    const auto k = m_vocabulary.canonical(w.word);
    // A tag saying "other" (#survey, #question) says nothing about the page's kind.
    if (k && (w.declared || *k != kinds::OTHER)) return std::make_pair(*k, (w.declared ? "" : "#") + w.word);
  }
  return std::nullopt;
}

void EntityResolver::add_name(std::string_view name, std::string_view kind,
                              const std::vector<std::string>& others) {
  add_override(name, kind);
  for (const auto& o : others) m_name_lists[fold_name(o)] = std::string(name);
}

void EntityResolver::finish() {
  // The vault's own words for what its pages are: a declared kind nothing maps is a kind.
  for (const NoteDigest& d : m_digests)
    for (const auto& w : d.kind_words)
      if (w.declared && !m_vocabulary.canonical(w.word)) m_vocabulary.add_kind(w.word);
  index_names();
  resolve_spellings();
  decide_kinds();
  // A work's venues and years, for the pages linking to it (its opening lines' year when it has no other).
  for (const NoteDigest& d : m_digests)
    if (const auto info = m_info.find(d.title);
        info != m_info.end() && info->second.kind && is_work(*info->second.kind)) {
      m_works.set(d.title, work_facts(d));
    }
  // What pass 1 gathered is done with; the resolution is kept as it is stored.
  const bool loaded = load(owned(encode()));
  (void)loaded;  // (an encoding of ours always reads back)
  m_named.clear();
  m_digests.clear();
  m_owned.clear();
  m_folded.clear();
  m_canonical.clear();
  m_info.clear();
  m_mentions = {};
}

// Every page by its title, then by its aliases and the config's other
// spellings (a title always beats an alias); every name by its first spelling.
void EntityResolver::index_names() {
  // A spelling seen before has had its say: only a new one is folded and may be a first.
  for (const NoteDigest& d : m_digests)
    for (const auto& name : d.names) {
      auto [it, first_time] = m_folded.try_emplace(name);
      if (first_time) {
        it->second.folded = fold_name(name);
        m_first_spelling.try_emplace(it->second.folded, name);
      }
      m_named.push_back(&it->second);
    }
  for (const NoteDigest& d : m_digests) m_by_key[fold_once(d.title)] = d.title;
  for (const NoteDigest& d : m_digests)
    for (const auto& alias : d.aliases) {
      const std::string key = fold_name(alias);
      auto it = m_by_key.find(key);
      if (it == m_by_key.end()) {
        m_by_key[key] = d.title;
      } else if (it->second != d.title && fold_name(it->second) != key) {
        m_ambiguous[key].insert(it->second);
        m_ambiguous[key].insert(d.title);
      }
    }
  for (const auto& [key, name] : m_name_lists) {
    const auto page = m_by_key.find(fold_name(name));
    m_by_key.emplace(key, page != m_by_key.end() ? page->second : name);
  }
}

// The canonical name of every spelling the vault uses, resolved once per
// mention and kept in the order the notes mention them (m_mentions): the
// kinds are decided from these, without looking a spelling up again.
void EntityResolver::resolve_spellings() {
  m_mentions = {};
  for (const NoteDigest& d : m_digests) {
    resolved(d.title);
    for (const auto& name : d.names) {
      Spelling& s = *m_named[m_mentions.names.size()];  // found by index_names()
      if (!s.canonical) s.canonical = &resolved(name);
      m_mentions.names.push_back(s.canonical);
    }
    for (const auto& [name, kind] : d.labelled) m_mentions.labelled.push_back(&resolved(name));
    for (const auto& h : d.hints) m_mentions.hints.push_back(&resolved(h.name));
    for (const auto& list : d.lists)
      for (const auto& n : list) m_mentions.listed.push_back(&resolved(n));
  }
  for (const auto& [name, kind] : m_overrides) resolved(name);
}

const std::string& EntityResolver::resolved(const std::string& name) {
  if (auto known = m_canonical.find(name); known != m_canonical.end()) return known->second;
  const std::string& key = fold_once(name);
  if (const std::string* page = page_of(key, name)) return m_canonical.emplace(name, *page).first->second;
  if (auto seen = m_first_spelling.find(key); seen != m_first_spelling.end())
    return m_canonical.emplace(name, seen->second).first->second;
  return m_canonical.emplace(name, name).first->second;
}

namespace {

// The same page mentioning nothing: what a new note is weighed against, and
// what a deleted one is weighed as (its mentions given up).
NoteDigest without_mentions(const NoteDigest& d) {
  NoteDigest page = d;
  page.labelled.clear();
  page.names.clear();
  page.hints.clear();
  page.lists.clear();
  return page;
}

// Do two digests of a note differ in their aliases alone?
bool same_but_aliases(const NoteDigest& a, const NoteDigest& b) {
  NoteDigest x = a, y = b;
  x.aliases.clear(), y.aliases.clear();
  return x == y;
}

// Does a note declare a kind the vocabulary lacks (which a full pass adds as a kind of the vault's own)?
bool declares_kind_outside(const NoteDigest& d, const KindVocabulary& vocabulary) {
  return std::any_of(d.kind_words.begin(), d.kind_words.end(),
                     [&](const auto& w) { return w.declared && !vocabulary.canonical(w.word); });
}

// The kind most list labels give a name (the first of equals, in the order of kinds).
const Kind& most_voted(const std::map<Kind, int>& counts) {
  return std::max_element(counts.begin(), counts.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// One list's names (decide_from_lists): when those of known kind are all
// people (or all organizations), the others get that kind, with the first of
// known kind as the detail. member(i) is the i-th name's canonical name,
// kind_of(name) its kind so far (a pointer or optional, empty if none),
// set(name, kind, first) gives it one.
template <class Member, class KindOf, class Set>
void list_mates(std::size_t size, Member member, KindOf kind_of, Set set) {
  std::set<Kind> kinds_seen;
  std::optional<std::size_t> first;
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < size; ++i) {
    const auto k = kind_of(member(i));
    if (!k) {
      open.push_back(i);
      continue;
    }
    kinds_seen.emplace(*k);
    if (!first) first = i;
  }
  if (kinds_seen.size() != 1 || open.empty()) return;
  const Kind& k = *kinds_seen.begin();
  if (k != kinds::PERSON && k != kinds::ORGANIZATION) return;
  for (const std::size_t i : open) set(member(i), k, member(*first));
}

}  // namespace

std::optional<std::pair<Kind, std::string>> EntityResolver::link_verdict(
    const std::map<Kind, std::map<std::string, int>>& by_kind, const std::function<std::string()>& folded) {
  const Kind* best = nullptr;
  int best_notes = 0;
  std::string marker;  // the chosen kind's commonest marker
  for (const auto& [kind, markers] : by_kind) {
    int notes = 0, top = 0;
    std::string kind_marker;
    for (const auto& [m, n] : markers) {
      notes += n;
      if (n > top) top = n, kind_marker = m;
    }
    if (notes > best_notes) best = &kind, best_notes = notes, marker = kind_marker;
  }
  if (!best) return std::nullopt;
  // Who did something (「[[X]]による」, 「[[X]]が開発」) is a person unless the name is an organization's.
  const auto org = *best == kinds::PERSON ? heuristic(folded()) : std::nullopt;
  return std::make_pair(org ? org->first : *best, fmt::format("{} in {} note(s)", marker, best_notes));
}

// Each name's kind from the most trusted evidence there is.
void EntityResolver::decide_kinds() {
  // (Keyed by views of the canonical names m_canonical keeps: no copies.)
  std::unordered_map<std::string_view, std::map<Kind, int>> votes;
  {
    std::size_t m = 0;
    for (const NoteDigest& d : m_digests)
      for (const auto& [name, kind] : d.labelled) ++votes[*m_mentions.labelled[m++]][kind];
  }
  for (const auto& [name, kind] : m_overrides) set_kind(resolved(name), kind, KindEvidence::Override);
  for (const NoteDigest& d : m_digests) {
    if (const auto k = declared(d)) set_kind(d.title, k->first, KindEvidence::OwnPage, k->second);
    if (d.bibliographic) set_kind(d.title, Kind(kinds::SOURCE), KindEvidence::Bibliographic);
  }
  for (const auto& [name, counts] : votes)
    set_kind(std::string(name), most_voted(counts), KindEvidence::ListLabel);
  for (const NoteDigest& d : m_digests) {
    if (d.structure) set_kind(d.title, *d.structure, KindEvidence::PageStructure);
    if (d.defined) set_kind(d.title, *d.defined, KindEvidence::FirstSentence, d.defined_by);
  }
  decide_from_links();
  auto try_heuristic = [&](const std::string& name) {
    // A name known by better evidence keeps it: its words need not be read.
    if (const auto known = m_info.find(name);
        known != m_info.end() &&
        static_cast<int>(known->second.evidence) <= static_cast<int>(KindEvidence::Heuristic))
      return;
    if (auto k = heuristic(fold_once(name))) set_kind(name, k->first, KindEvidence::Heuristic, k->second);
  };
  std::unordered_set<std::string_view> tried;  // each canonical name once
  std::unordered_set<const std::string*> met;  // each spelling's canonical name once (cheaper to ask)
  std::size_t m = 0;
  for (const NoteDigest& d : m_digests) {
    if (tried.insert(d.title).second) try_heuristic(d.title);
    for (std::size_t end = m + d.names.size(); m < end; ++m) {
      const std::string* canon = m_mentions.names[m];
      if (met.insert(canon).second && tried.insert(*canon).second) try_heuristic(*canon);
    }
  }
  decide_from_lists();
  // A page is a page: what nothing tells about is "other", not unresolved.
  for (const NoteDigest& d : m_digests) set_kind(d.title, Kind(kinds::OTHER), KindEvidence::Page);
}

// The words around the links to a name, in every note that links it: the kind
// most of them give, with the commonest marker as its evidence.
void EntityResolver::decide_from_links() {
  std::unordered_map<std::string_view, std::map<Kind, std::map<std::string, int>>> seen;  // name → kind → marker → notes
  std::size_t at = 0;
  for (const NoteDigest& d : m_digests)
    for (const auto& h : d.hints) ++seen[*m_mentions.hints[at++]][h.kind][h.marker];
  for (const auto& entry : seen) {  // (not a structured binding: a lambda captures it)
    const std::string name(entry.first);
    if (auto k = link_verdict(entry.second, [&] { return fold_once(name); }))
      set_kind(name, k->first, KindEvidence::LinkContext, std::move(k->second));
  }
}

// A name without a page, of no known kind, in a list whose other names are all
// people (or all organizations) is one too: 「[[羽生有希]]・[[藤間公太]]（訳）」.
void EntityResolver::decide_from_lists() {
  std::unordered_set<std::string_view> pages;  // a page says what it is, or is "other": never what its neighbours are
  for (const NoteDigest& d : m_digests) pages.insert(d.title);
  const auto kind_of = [&](const std::string& canon) -> const Kind* {
    const auto info = m_info.find(canon);
    return info == m_info.end() || !info->second.kind ? nullptr : &*info->second.kind;
  };
  const auto set = [&](const std::string& name, const Kind& k, const std::string& first) {
    if (!pages.count(name)) set_kind(name, k, KindEvidence::ListMates, first);
  };
  std::size_t m = 0;
  for (const NoteDigest& d : m_digests)
    for (const auto& list : d.lists) {
      list_mates(
          list.size(), [&](std::size_t i) -> const std::string& { return *m_mentions.listed[m + i]; },
          kind_of, set);
      m += list.size();
    }
}

void EntityResolver::set_kind(const std::string& name, const Kind& k, KindEvidence e, std::string detail) {
  Info& info = m_info[name];
  if (info.evidence == KindEvidence::None || static_cast<int>(e) < static_cast<int>(info.evidence)) {
    info.kind = k;
    info.evidence = e;
    info.detail = std::move(detail);
  }
}

// Each distinct spelling is folded once (a large vault repeats its names a million times).
const std::string& EntityResolver::fold_once(const std::string& name) {
  auto [it, first_time] = m_folded.try_emplace(name);
  if (first_time) it->second.folded = fold_name(name);
  return it->second.folded;
}

namespace {

// Walks two ranges sorted by key side by side: only_a(x) for a key only the
// first has, only_b(y) for one only the second has, both(x, y) for one both have.
template <class A, class B, class Key, class OnlyA, class OnlyB, class Both>
void walk_sorted(const A& a, const B& b, Key key, OnlyA only_a, OnlyB only_b, Both both) {
  auto x = a.begin();
  auto y = b.begin();
  while (x != a.end() || y != b.end()) {
    if (y == b.end() || (x != a.end() && key(*x) < key(*y))) {
      only_a(*x++);
    } else if (x == a.end() || key(*y) < key(*x)) {
      only_b(*y++);
    } else {
      both(*x++, *y++);
    }
  }
}

}  // namespace

std::set<std::string> EntityResolver::changed_names(const EntityResolver& other) const {
  std::set<std::string> changed;
  auto add = [&](std::string_view name) { changed.emplace(name); };
  auto nothing = [](const auto&) {};
  // (Both resolutions are sorted by name: each list is walked once beside the other's.)
  // The spellings both vaults use (every name a note that did not change
  // mentions is one): those that now mean another page. (One that means the
  // same name is compared below, if either knows its kind.)
  using Stored = std::pair<std::string_view, std::string_view>;
  walk_sorted(
      m_spellings, other.m_spellings, [](const Stored& s) { return s.first; }, nothing, nothing,
      [&](const Stored& a, const Stored& b) {
        if (a.second != b.second) add(a.second), add(b.second);
      });
  // The names of known kind in either: those whose kind or evidence changed
  // (a name one resolution does not list has no kind and no evidence there),
  // and the works whose venues or years changed (a linking page takes them).
  const auto known = [](const StoredKind& k) { return !k.kind.empty() || k.evidence != KindEvidence::None; };
  walk_sorted(
      m_kinds, other.m_kinds, [](const StoredKind& k) { return k.name; },
      [&](const StoredKind& a) {
        if (known(a)) add(a.name);
      },
      [&](const StoredKind& b) {
        if (known(b)) add(b.name);
      },
      [&](const StoredKind& a, const StoredKind& b) {
        if (a.kind != b.kind || a.evidence != b.evidence) add(a.name);
      });
  walk_sorted(
      m_works.entries(), other.m_works.entries(), [](const Stored& w) { return w.first; },
      [&](const Stored& a) { add(a.first); }, [&](const Stored& b) { add(b.first); },
      [&](const Stored& a, const Stored& b) {
        if (a.second != b.second) add(a.first);
      });
  return changed;
}

bool EntityResolver::keeps(const NoteDigest& before, const NoteDigest& after,
                           const std::function<bool(std::string_view)>& is_page) const {
  return admits(before, after, is_page, nullptr);
}

bool EntityResolver::admits(const NoteDigest& before, const NoteDigest& after,
                            const std::function<bool(std::string_view)>& is_page, Additions* more) const {
  const NoteDigest &b = before, &a = after;
  auto* fresh = more ? &more->fresh : nullptr;
  // What makes a page and the synonyms; its kind and a work's facts (for
  // extended(), changed when the page's own words decide them); its aliases
  // (for extended(), more of them that nothing the vault knows folds like: no
  // name resolves to the page by them yet, or fewer: extend()); the glossary
  // (for extended(): no name resolves otherwise, the caller builds it again).
  if (!m_stored || a.title != b.title || a.display_title != b.display_title || a.source != b.source)
    return false;
  if (a.glosses != b.glosses) {
    if (!more) return false;
    more->glosses = true;
  }
  if (a.aliases != b.aliases) {
    if (!more) return false;
    const std::set<std::string_view> had(b.aliases.begin(), b.aliases.end());
    // Aliases given up: their keys, unless the page keeps one folding alike
    // (extend() weighs who else gives them and who names the page by them).
    std::set<std::string> keys_kept{fold_name(a.title)};
    for (const std::string& alias : a.aliases) keys_kept.insert(fold_name(alias));
    for (const std::string_view alias : had) {
      if (std::find(a.aliases.begin(), a.aliases.end(), alias) != a.aliases.end()) continue;
      more->aliases_given_up = true;
      std::string key = fold_name(alias);
      if (key.empty()) return false;
      if (!keys_kept.count(key)) more->alias_keys_gone.insert(std::move(key));
    }
    for (const std::string& alias : a.aliases) {
      if (had.count(alias)) continue;
      std::string key = fold_name(alias);
      if (key.empty() || link_page_name(alias).size() != alias.size() || key == fold_name(a.title))
        return false;
      if (known_key(key)) {
        // (Another page's title, which a title beats: it names that page still, and no alias is ambiguous.)
        const std::string_view* titled = stored_canonical(alias);
        if (!titled || *titled != alias || !is_page(alias)) return false;
        more->titled_keys.insert(key);
      }
      more->alias_keys.insert(std::move(key));
    }
  }
  if (a.kind_words != b.kind_words || a.structure != b.structure || a.bibliographic != b.bibliographic ||
      a.defined != b.defined || a.defined_by != b.defined_by || a.venues != b.venues || a.years != b.years ||
      a.text_year != b.text_year)
    if (!more || !(more->page = page_change(b, a, more->can_rekind_pages))) return false;
  // (Its own words no longer declaring its kind: decided again in extend(), like a name whose labels
  // changed.)
  if (more && more->page && more->page->again) more->rekind.insert(a.title);
  const auto spellings = [](const NoteDigest& d) {
    std::set<std::string_view> s(d.names.begin(), d.names.end());
    for (const auto& [name, kind] : d.labelled) s.insert(name);
    for (const auto& h : d.hints) s.insert(h.name);
    for (const auto& list : d.lists) s.insert(list.begin(), list.end());
    return s;
  };
  const std::set<std::string_view> was = spellings(b), is = spellings(a);
  // A spelling given up may have been the vault's last use of it, unless it
  // is a page's title. For extended(), a name no page has may be given up
  // when it is its name's one spelling (so no first spelling changes) and no
  // override names it: other notes still use it, or it goes with its last use.
  std::set<std::string_view> given_up;
  for (const std::string_view spelling : was) {
    if (is.count(spelling)) continue;
    const std::string_view* canonical = stored_canonical(spelling);
    if (!canonical) return false;
    if (is_page(spelling)) continue;
    const StoredKind* k = stored_kind(spelling);
    if (!more || *canonical != spelling || uses(spelling) == 0 || !sole_spelling(spelling) ||
        (k && k->evidence == KindEvidence::Override) || link_page_name(spelling).size() != spelling.size() ||
        is_attachment(spelling))
      return false;
    given_up.insert(spelling);
    if (uses(spelling) == 1) more->gone.push_back(spelling);
  }
  const auto is_gone = [&](std::string_view spelling) {
    return more && std::find(more->gone.begin(), more->gone.end(), spelling) != more->gone.end();
  };
  // Every spelling known, and the page each names, if it names one (a title
  // or an alias decides it, never a first spelling, and it gets no list mates).
  std::map<std::string_view, const StoredKind*> page;   // spelling → its page's kind, or nullptr
  std::map<std::string_view, const StoredKind*> named;  // spelling → its name's kind, if known
  std::set<std::string_view> all = is;
  all.insert(was.begin(), was.end());
  for (const std::string_view spelling : all) {
    const std::string_view* canonical = stored_canonical(spelling);
    if (canonical) {
      // A spelling of a name no page has counts its notes: one that counts
      // none named a page the vault no longer has (deleted in this run).
      if (!is_page(*canonical) && uses(spelling) == 0) return false;
      named[spelling] = stored_kind(*canonical);
      page[spelling] = is_page(*canonical) ? named[spelling] : nullptr;
      continue;
    }
    // Unknown: a name of its own (extended()) when it is no path to a page
    // and nothing the vault knows folds like it.
    if (!fresh || m_keys.empty() || was.count(spelling) || link_page_name(spelling).size() != spelling.size())
      return false;
    std::string key = fold_name(spelling);
    if (known_key(key)) return false;
    fresh->emplace(spelling, std::move(key));
    page[spelling] = nullptr;
  }
  const auto is_fresh = [&](std::string_view spelling) { return fresh && fresh->count(spelling); };
  // The spellings of names no page has are counted by the notes using them:
  // kept only when the note uses the same ones.
  if (!more)
    for (const std::string_view spelling : all)
      if (!page[spelling] && was.count(spelling) != is.count(spelling)) return false;
  // The names no page has: the same ones, each first spelled as it was
  // (a later mention of one counts for nothing but its notes and kinds); for
  // extended(), more of them, each first spelled here as the vault first
  // spells it (then the note cannot be the first to spell it otherwise), or
  // fewer, given up as above. (A name's own words are read, and its first
  // spelling chosen, where some note names it: a note using a spelling names
  // it, but an attachment ([[x.pdf]]), which its links' words and lists may
  // hold though its names do not. So no attachment is mentioned or given up here.)
  const auto firsts = [&](const NoteDigest& d) {
    std::map<std::string, std::string_view> first;  // folded name → its first spelling here
    for (const auto& n : d.names)
      if (!page[n] && !is_fresh(n)) first.try_emplace(fold_name(n), n);
    return first;
  };
  const auto firsts_after = firsts(a), firsts_before = firsts(b);
  for (const auto& [key, spelling] : firsts_before) {
    const auto it = firsts_after.find(key);
    if (it != firsts_after.end() && it->second == spelling) continue;
    if (it != firsts_after.end() || !given_up.count(spelling)) return false;
    more->dropped.push_back(spelling);
  }
  for (const auto& [key, spelling] : firsts_after)
    if (!firsts_before.count(key)) {
      if (!more || *stored_canonical(spelling) != spelling || is_attachment(spelling)) return false;
      more->mentioned.push_back(spelling);
    }
  // (For extended() with the notes naming them: a name decided again in extend().)
  const auto rekind = [&](std::string_view spelling) {
    if (!more || !more->can_rekind) return false;
    const std::string_view* c = stored_canonical(spelling);
    if (!c || (is_page(*c) && !more->can_rekind_pages)) return false;
    more->rekind.insert(std::string(*c));
    return true;
  };
  // Lists added or taken away: of pages only (and of names new or gone,
  // whose kinds extended() decides), or, for extended(), of names no page has
  // whose kinds better evidence than their lists decides (no list can move
  // those; the pages listed with them are counted again), or whose kinds are
  // decided again (from their lists too).
  const auto settled = [&](std::string_view spelling) {
    const StoredKind* k = named[spelling];
    return more && k && !k->kind.empty() && k->evidence != KindEvidence::None &&
           static_cast<int>(k->evidence) < static_cast<int>(KindEvidence::ListMates);
  };
  // (Lists in another order are other lists too: the first list giving a name a kind wins.)
  std::map<std::vector<std::string>, int> lists;
  for (const auto& l : b.lists) --lists[l];
  for (const auto& l : a.lists) ++lists[l];
  const bool reordered = a.lists != b.lists;
  for (const auto& [list, n] : lists)
    if ((n != 0 || reordered) && !std::all_of(list.begin(), list.end(), [&](const std::string& s) {
          return page[s] || is_fresh(s) || is_gone(s) || settled(s) || rekind(s);
        }))
      return false;
  // List labels and link words counted again only for names whose own
  // page's declaration (or the override file) decides their kind.
  const auto declared = [&](std::string_view spelling) {
    const StoredKind* k = named[spelling];
    return k && (k->evidence == KindEvidence::Override || k->evidence == KindEvidence::OwnPage ||
                 k->evidence == KindEvidence::Bibliographic);
  };
  std::map<std::pair<std::string_view, std::string_view>, int> votes;
  for (const auto& [name, kind] : b.labelled) --votes[{name, kind}];
  for (const auto& [name, kind] : a.labelled) ++votes[{name, kind}];
  for (const auto& [vote, n] : votes) {
    if (n == 0 || declared(vote.first) || is_fresh(vote.first) || is_gone(vote.first)) continue;
    // More votes for the kind a name's list labels already give it keep that kind.
    const StoredKind* k = named[vote.first];
    if (n > 0 && k && k->evidence == KindEvidence::ListLabel && k->kind == vote.second) continue;
    if (!rekind(vote.first)) return false;
  }
  std::map<std::tuple<std::string_view, std::string_view, std::string_view>, int> hints;
  for (const auto& h : b.hints) --hints[{h.name, h.kind, h.marker}];
  for (const auto& h : a.hints) ++hints[{h.name, h.kind, h.marker}];
  for (const auto& [hint, n] : hints) {
    const std::string_view name = std::get<0>(hint);
    if (n != 0 && !declared(name) && !is_fresh(name) && !is_gone(name) && !rekind(name)) return false;
  }
  return true;
}

// A page's kind decided anew from its own words: what it declares itself
// (over anything but the override file) or its own authors with a venue or
// year; the same when the override file decides it, or when it says of
// itself what it said; with `again`, when its words declare no kind, one
// extend() decides again from them and the notes naming it. Refused when it declares a kind the vocabulary
// lacks or gives up one the defaults lack (the vault's kinds would change). When the kind the lists see moves
// to or from a person's or an organization's, names listed with the page may get or lose list mates:
// extended() asks that no list but the note's own names it with a name no page has.
std::optional<EntityResolver::PageChange> EntityResolver::page_change(const NoteDigest& b,
                                                                      const NoteDigest& a, bool again) const {
  const StoredKind* stored = stored_kind(a.title);
  if (!stored) return std::nullopt;
  PageChange change{stored->kind.empty() ? std::nullopt : std::optional<Kind>(stored->kind), stored->evidence,
                    std::string(stored->detail)};
  const bool own_words_same = a.kind_words == b.kind_words && a.structure == b.structure &&
                              a.bibliographic == b.bibliographic && a.defined == b.defined &&
                              a.defined_by == b.defined_by;
  if (!own_words_same && stored->evidence != KindEvidence::Override) {
    static const KindVocabulary defaults = KindVocabulary::defaults();
    if (declares_kind_outside(a, m_vocabulary) || declares_kind_outside(b, defaults)) return std::nullopt;
    if (const auto k = declared(a))
      change = {k->first, KindEvidence::OwnPage, k->second};
    else if (a.bibliographic)
      change = {Kind(kinds::SOURCE), KindEvidence::Bibliographic, {}};
    else if (again)
      return PageChange{{}, KindEvidence::None, {}, false, true};
    else
      return std::nullopt;
  }
  const auto listed_as = [](const std::optional<Kind>& k, KindEvidence e) {
    return static_cast<int>(e) < static_cast<int>(KindEvidence::ListMates) ? k : std::nullopt;
  };
  const auto was = listed_as(stored->kind.empty() ? std::nullopt : std::optional<Kind>(stored->kind),
                             stored->evidence),
             is = listed_as(change.kind, change.evidence);
  const auto mates = [](const std::optional<Kind>& k) {
    return !k || *k == kinds::PERSON || *k == kinds::ORGANIZATION;
  };
  change.moves_mates = was != is && (mates(was) || mates(is));
  return change;
}

bool EntityResolver::moves_freely(const NoteDigest& d,
                                  const std::function<bool(std::string_view)>& is_page) const {
  if (!m_stored) return false;
  const std::string_view* own = stored_canonical(d.title);
  if (!own || *own != d.title) return false;  // (another title folding alike took the key)
  // The names no page has that the note spells: each must be its name's one spelling.
  std::set<std::string_view> unpaged;
  for (const std::string& name : d.names) {
    const std::string_view* canonical = stored_canonical(name);
    if (!canonical) return false;
    if (is_page(*canonical)) continue;
    if (*canonical != name) return false;  // (another note spells it first)
    unpaged.insert(*canonical);
  }
  for (const auto& list : d.lists)
    for (const std::string& name : list) {
      const std::string_view* canonical = stored_canonical(name);
      if (!canonical) return false;
      const StoredKind* k = stored_kind(*canonical);
      if (k && k->evidence == KindEvidence::ListMates) return false;
    }
  // One walk of the stored spellings: another spelling of such a name, or another page's title resolving to
  // this page.
  for (const auto& [spelling, name] : m_spellings) {
    if (spelling == name) continue;
    if (unpaged.count(name)) return false;
    if (name == d.title && is_page(spelling)) return false;
  }
  return true;
}

std::optional<EntityResolver> EntityResolver::renamed(const NoteDigest& page,
                                                      const std::string& title) const {
  const std::string& from = page.title;
  const auto plain = [](const std::string& name) {
    return !name.empty() && name.front() != '@' && !is_attachment(name) &&
           link_page_name(name).size() == name.size();
  };
  if (!m_stored || m_keys.empty() || from == title || !plain(from) || !plain(title) || !page.aliases.empty())
    return std::nullopt;
  const std::string key = fold_name(title), old_key = fold_name(from);
  if (key.empty() || known_key(key)) return std::nullopt;
  const std::string_view* own = stored_canonical(from);
  if (!own || *own != from || uses(from) != 0) return std::nullopt;
  // Its kind, where a heuristic on its name may decide it (or move a verdict of link words): the same for
  // both names.
  const StoredKind* k = stored_kind(from);
  // (An override names the old title: it stays with that name, not with the page.)
  if (k && k->evidence == KindEvidence::Override) return std::nullopt;
  if ((!k || static_cast<int>(k->evidence) >= static_cast<int>(KindEvidence::LinkContext)) &&
      heuristic(old_key) != heuristic(key))
    return std::nullopt;
  std::vector<std::pair<std::string_view, std::string_view>> spellings;
  spellings.reserve(m_spellings.size());
  for (const auto& [s, c] : m_spellings) {
    if (c == from && s != from) return std::nullopt;  // (another spelling names it)
    if (s != from) spellings.emplace_back(s, c);
  }
  spellings.insert(std::lower_bound(spellings.begin(), spellings.end(), std::string_view(title),
                                    [](const auto& x, std::string_view t) { return x.first < t; }),
                   {title, title});
  std::vector<StoredKind> kinds;
  kinds.reserve(m_kinds.size());
  for (StoredKind stored : m_kinds) {
    if (stored.name == from) stored.name = title;
    if (stored.evidence == KindEvidence::ListMates && stored.detail == from) stored.detail = title;
    kinds.push_back(stored);
  }
  std::sort(kinds.begin(), kinds.end(),
            [](const StoredKind& x, const StoredKind& y) { return x.name < y.name; });
  WorkTable works = m_works;
  if (const auto facts = works.find(from)) {
    works.erase(from);
    works.set(title, *facts);
  }
  std::vector<std::pair<std::string_view, std::uint32_t>> listed;
  listed.reserve(m_listed.size());
  for (const auto& [p, n] : m_listed) listed.emplace_back(p == from ? std::string_view(title) : p, n);
  std::sort(listed.begin(), listed.end());
  std::vector<std::uint64_t> keys;
  keys.reserve(stored_keys() + 1);
  const std::uint64_t gone = key_hash(old_key);
  for (std::size_t i = 0; i < stored_keys(); ++i)
    if (stored_key(i) != gone) keys.push_back(stored_key(i));
  keys.push_back(key_hash(key));
  return with_keys(spellings, kinds, works, m_uses, listed, std::move(keys));
}

bool EntityResolver::same_page(const NoteDigest& a, const NoteDigest& b) {
  return a.title == b.title && a.display_title == b.display_title && a.source == b.source &&
         a.aliases == b.aliases && a.kind_words == b.kind_words && a.structure == b.structure &&
         a.bibliographic == b.bibliographic && a.defined == b.defined && a.defined_by == b.defined_by &&
         a.venues == b.venues && a.years == b.years && a.text_year == b.text_year;
}

NoteDigest EntityResolver::relinked(NoteDigest d, const std::string& from, const std::string& to) {
  const auto relink = [&](std::string& name) {
    if (name == from) name = to;
  };
  for (auto& n : d.names) relink(n);
  for (auto& l : d.labelled) relink(l.first);
  for (auto& h : d.hints) relink(h.name);
  for (auto& list : d.lists)
    for (auto& n : list) relink(n);
  return d;
}

NoteDigest EntityResolver::unwritten(const NoteDigest& d) {
  NoteDigest page = without_mentions(d);
  page.glosses.clear();
  return page;
}

bool EntityResolver::silent(const NoteDigest& d, const std::function<bool(std::string_view)>& is_page) const {
  const std::string_view* c = stored_canonical(d.title);
  if (!m_stored || !c || *c != d.title || !stored_kind(d.title) || m_works.contains(d.title) || d.source ||
      d.display_title != d.title || !d.aliases.empty() || declared(d) ||
      declares_kind_outside(d, m_vocabulary) || d.structure || d.defined || d.bibliographic)
    return false;
  // (No other title folds like it: the last of them in path order takes their key.)
  for (const auto& [spelling, name] : m_spellings)
    if (name == d.title && spelling != name && is_page(spelling)) return false;
  return true;
}

bool EntityResolver::sole_spelling(std::string_view name) const {
  return std::count_if(m_spellings.begin(), m_spellings.end(),
                       [&](const auto& s) { return s.second == name; }) == 1;
}

std::optional<EntityResolver> EntityResolver::extended(const NoteDigest* before, const NoteDigest& after,
                                                       const std::function<bool(std::string_view)>& is_page,
                                                       Extension* what,
                                                       const std::function<bool(std::string_view)>& gives_key,
                                                       const NamingOf& naming_of,
                                                       const PageOf& page_of) const {
  return extend(before, after, is_page, what, false, gives_key, naming_of, page_of);
}

// A note deleted: a page that goes like a name given up by its last note,
// once its own mentions and aliases are given up (a change to the same page
// mentioning nothing, of no alias). Only when nothing else can name it: no other spelling resolves
// to it, no list counts it, no override types it, it declares no kind of
// the vault's own, and no other note has its title
// (the caller knows the rest: no other note mentions it, no other page's
// alias and no config name folds like it).
std::optional<EntityResolver> EntityResolver::removed(const NoteDigest& before,
                                                      const std::function<bool(std::string_view)>& is_page,
                                                      Extension* what,
                                                      const std::function<bool(std::string_view)>& gives_key,
                                                      bool unnamed, const NamingOf& naming_of,
                                                      const PageOf& page_of) const {
  static const KindVocabulary defaults = KindVocabulary::defaults();
  const std::string& title = before.title;
  const std::string_view* canonical = stored_canonical(title);
  const StoredKind* kind = stored_kind(title);
  // ('@' keys and attachments are named in labels, link words and lists
  // without being names: no posting tells the caller who names them, only
  // reading every note does: `unnamed`.)
  if (!canonical || *canonical != title || !sole_spelling(title) || is_page(title) || listed(title) != 0 ||
      uses(title) != 0 || (kind && kind->evidence == KindEvidence::Override) || title.empty() ||
      ((title.front() == '@' || is_attachment(title)) && !unnamed))
    return std::nullopt;
  if (declares_kind_outside(before, defaults)) return std::nullopt;
  NoteDigest gone = without_mentions(before);
  gone.aliases.clear();
  gone.glosses.clear();
  return extend(&before, gone, is_page, what, true, gives_key, naming_of, page_of);
}

// What the naming notes say of the name whose spellings fold to key.
EntityResolver::Named EntityResolver::named(const std::string& key,
                                            const std::vector<const NoteDigest*>& naming) {
  Named nm;
  std::unordered_map<std::string_view, bool> folds;  // spelling → does it fold to key
  const auto ours = [&](std::string_view s) {
    auto [it, first_time] = folds.try_emplace(s);
    if (first_time) it->second = fold_name(s) == key;
    return it->second;
  };
  for (const NoteDigest* d : naming) {
    std::set<std::string_view> in_note;
    for (const auto& n : d->names)
      if (ours(n)) {
        if (!nm.first) nm.first = n;
        in_note.insert(n);
      }
    for (const auto& [name, kind] : d->labelled)
      if (ours(name)) ++nm.votes[kind], in_note.insert(name);
    for (const auto& h : d->hints)
      if (ours(h.name)) ++nm.seen[h.kind][h.marker], in_note.insert(h.name);
    for (const auto& list : d->lists) {
      bool names_it = false;
      for (const auto& n : list)
        if (ours(n)) names_it = true, in_note.insert(n);
      if (names_it) nm.lists.push_back(&list);
    }
    for (const std::string_view s : in_note) ++nm.uses[s];
  }
  return nm;
}

void EntityResolver::weigh_naming(const Named& nm, const std::string& key, Info& info) {
  if (!nm.votes.empty()) info.offer(most_voted(nm.votes), KindEvidence::ListLabel, {});
  if (auto k = link_verdict(nm.seen, [&] { return key; }))
    info.offer(k->first, KindEvidence::LinkContext, std::move(k->second));
  if (auto k = heuristic(key)) info.offer(k->first, KindEvidence::Heuristic, k->second);
}

void EntityResolver::add_naming(Named& to, const Named& more) {
  for (const auto& [kind, n] : more.votes) to.votes[kind] += n;
  for (const auto& [kind, markers] : more.seen)
    for (const auto& [marker, n] : markers) to.seen[kind][marker] += n;
}

std::vector<std::string_view> EntityResolver::spellings_of(std::string_view name) const {
  std::vector<std::string_view> of;
  for (const auto& [s, c] : m_spellings)
    if (c == name) of.push_back(s);
  return of;
}

std::optional<EntityResolver::Named> EntityResolver::naming_page(
    const std::string& title, const std::vector<std::string_view>& spellings,
    const std::vector<const NoteDigest*>& naming, const std::string& other_key) const {
  std::set<std::string> keys;
  for (const std::string_view s : spellings) keys.insert(fold_name(s));
  keys.erase(other_key);
  Named all;
  for (const std::string& key : keys) {
    const Named part = named(key, naming);
    for (const auto& [s, notes] : part.uses)
      if (const std::string_view* c = stored_canonical(s); !c || *c != std::string_view(title))
        return std::nullopt;
    add_naming(all, part);
  }
  return all;
}

EntityResolver::Info EntityResolver::page_kind(const NoteDigest& page, const StoredKind* was, const Named& nm,
                                               const std::string& key) const {
  Info info;
  const auto set = [&](const Kind& k, KindEvidence e, std::string detail) {
    info.offer(k, e, std::move(detail));
  };
  if (was && was->evidence == KindEvidence::Override)
    set(Kind(was->kind), KindEvidence::Override, std::string(was->detail));
  if (const auto k = declared(page)) set(k->first, KindEvidence::OwnPage, k->second);
  if (page.bibliographic) set(Kind(kinds::SOURCE), KindEvidence::Bibliographic, {});
  if (page.structure) set(*page.structure, KindEvidence::PageStructure, {});
  if (page.defined) set(*page.defined, KindEvidence::FirstSentence, page.defined_by);
  weigh_naming(nm, key, info);
  set(Kind(kinds::OTHER), KindEvidence::Page, {});
  return info;
}

std::string_view EntityResolver::member_of(const Named& nm, std::string_view name,
                                           const std::string& spelling) const {
  if (nm.uses.count(spelling)) return name;
  const std::string_view* c = stored_canonical(spelling);
  return c ? *c : std::string_view();
}

// A deleted page other notes name: first the page giving up its own
// mentions, aliases and glosses (extend(), the page still a page), then its
// name becoming one of its own (unpaged()).
std::optional<EntityResolver> EntityResolver::orphaned(const NoteDigest& before,
                                                       const std::vector<const NoteDigest*>& naming,
                                                       const std::function<bool(std::string_view)>& is_page,
                                                       Extension* what,
                                                       const std::function<bool(std::string_view)>& gives_key,
                                                       const NamingOf& naming_of,
                                                       const PageOf& page_of) const {
  static const KindVocabulary defaults = KindVocabulary::defaults();
  const std::string& title = before.title;
  const std::string_view* canonical = stored_canonical(title);
  const StoredKind* kind = stored_kind(title);
  if (!canonical || *canonical != title || is_page(title) ||
      (kind && kind->evidence == KindEvidence::Override) || title.empty() || title.front() == '@' ||
      is_attachment(title) || declares_kind_outside(before, defaults))
    return std::nullopt;
  NoteDigest gone = without_mentions(before);
  gone.aliases.clear();
  gone.glosses.clear();
  Extension own;
  const auto still_page = [&](std::string_view name) { return name == title || is_page(name); };
  const auto r = extend(&before, gone, still_page, &own, false, gives_key, naming_of, page_of);
  // (Its own kind is the name's, decided by unpaged().)
  if (!r || std::find(own.rekinded.begin(), own.rekinded.end(), title) != own.rekinded.end())
    return std::nullopt;
  auto unpaged = r->unpaged(title, naming, is_page);
  if (!unpaged) return std::nullopt;
  if (what) {
    *what = std::move(own);
    what->page = true;
    what->orphan = std::move(unpaged->second);
  }
  return std::move(unpaged->first);
}

// A page's title no longer a page: every spelling resolving to it is a
// spelling of one name, first spelled as the naming notes (in the vault's
// order) first name it; its kind what decide_kinds() gives a name no page
// has, from the naming notes alone: their list labels, the words around
// their links, its own words, their lists (of pages only: listed() is 0).
std::optional<std::pair<EntityResolver, std::string>> EntityResolver::unpaged(
    const std::string& title, const std::vector<const NoteDigest*>& naming,
    const std::function<bool(std::string_view)>& is_page) const {
  const std::string key = fold_name(title);
  if (listed(title) != 0) return std::nullopt;
  // The spellings resolving to it: each folds like its title (no alias, no
  // path to it), none another page's title (a page of a title folding alike
  // would take them all).
  std::set<std::string_view> of_page;
  for (const auto& [spelling, name] : m_spellings)
    if (name == title) {
      if (fold_name(spelling) != key || link_page_name(spelling).size() != spelling.size() ||
          (spelling != title && is_page(spelling)))
        return std::nullopt;
      of_page.insert(spelling);
    }
  const Named nm = named(key, naming);
  if (!nm.first || (*nm.first != title && stored_kind(*nm.first))) return std::nullopt;
  const auto& uses_of = nm.uses;
  // The naming notes are all there are: they use every spelling resolving to it (but the title's own).
  for (const auto& [s, notes] : uses_of)
    if (!of_page.count(s)) return std::nullopt;
  for (const std::string_view s : of_page)
    if (s != title && !uses_of.count(s)) return std::nullopt;
  const std::string_view name = *nm.first;
  // The pages listed with it (listed() said its lists hold no other name): each list counts them once.
  std::map<std::string_view, int> listed_change;
  for (const auto* list : nm.lists) {
    std::vector<std::string_view> pages;
    for (const std::string& n : *list) {
      const std::string_view m = member_of(nm, name, n);
      if (m == name) continue;
      if (m.empty() || !is_page(m)) return std::nullopt;
      if (std::find(pages.begin(), pages.end(), m) == pages.end()) pages.push_back(m);
    }
    for (const std::string_view page : pages) ++listed_change[page];
  }
  // Its kind, as decide_kinds() gives a name no page has.
  auto decided = decided_again(name, key, nullptr, nullptr, nm, {}, is_page);
  if (!decided) return std::nullopt;
  const Info& info = *decided;
  // The resolution with it: its spellings now of the name, the page's kind and work gone, the name's
  // kind, its spellings' uses, the pages listed with it.
  std::vector<std::pair<std::string_view, std::string_view>> spellings;
  spellings.reserve(m_spellings.size());
  for (const auto& [s, c] : m_spellings) {
    if (c != title) {
      spellings.emplace_back(s, c);
    } else if (s != title || uses_of.count(s)) {
      spellings.emplace_back(s, name);
    }
  }
  std::vector<StoredKind> kinds;
  kinds.reserve(m_kinds.size() + 1);
  for (const StoredKind& k : m_kinds)
    if (k.name != title) kinds.push_back(k);
  if (info.kind) {
    const StoredKind added{name, *info.kind, info.detail, info.evidence};
    kinds.insert(std::lower_bound(kinds.begin(), kinds.end(), added,
                                  [](const StoredKind& x, const StoredKind& y) { return x.name < y.name; }),
                 added);
  }
  WorkTable works = m_works;
  works.erase(title);
  std::vector<std::pair<std::string_view, std::uint32_t>> counted(m_uses.begin(), m_uses.end());
  counted.insert(counted.end(), uses_of.begin(), uses_of.end());
  std::sort(counted.begin(), counted.end());
  const auto bound = relisted(listed_change);
  if (!bound) return std::nullopt;
  auto r = with_keys(spellings, kinds, works, counted, *bound);
  if (!r) return std::nullopt;
  return std::make_pair(std::move(*r), std::string(name));
}

std::optional<std::map<std::string_view, int>> EntityResolver::lists_of_pages(
    const Named& nm, const std::function<bool(std::string_view)>& is_page) const {
  std::map<std::string_view, int> pages_listed;
  for (const auto* list : nm.lists) {
    std::set<std::string_view> pages;
    for (const auto& n : *list) {
      if (nm.uses.count(n)) continue;
      const std::string_view* c = stored_canonical(n);
      if (!c || !is_page(*c) || uses(n) != 0) return std::nullopt;
      pages.insert(*c);
    }
    for (const std::string_view p : pages) ++pages_listed[p];
  }
  return pages_listed;
}

std::optional<std::vector<std::pair<std::string_view, std::uint32_t>>> EntityResolver::relisted(
    const std::map<std::string_view, int>& change) const {
  std::vector<std::pair<std::string_view, std::uint32_t>> listed;
  listed.reserve(m_listed.size() + change.size());
  auto d = change.begin();
  const auto add = [&](std::string_view page, std::int64_t total) {
    if (total < 0) return false;
    if (total > 0) listed.emplace_back(page, static_cast<std::uint32_t>(total));
    return true;
  };
  for (const auto& [page, n] : m_listed) {
    for (; d != change.end() && d->first < page; ++d)
      if (!add(d->first, d->second)) return std::nullopt;
    std::int64_t total = n;
    if (d != change.end() && d->first == page) total += (d++)->second;
    if (!add(page, total)) return std::nullopt;
  }
  for (; d != change.end(); ++d)
    if (!add(d->first, d->second)) return std::nullopt;
  return listed;
}

std::optional<EntityResolver> EntityResolver::rest(const NoteDigest& page, const NoteDigest& after,
                                                   const std::function<bool(std::string_view)>& is_page,
                                                   Extension& what,
                                                   const std::function<bool(std::string_view)>& gives_key,
                                                   const NamingOf& naming_of, const PageOf& page_of) && {
  if (page == after) return std::move(*this);
  return extend(&page, after, is_page, &what, false, gives_key, naming_of, page_of);
}

void EntityResolver::set_stored_kind(std::vector<StoredKind>& kinds, std::string_view name,
                                     const Info& info) {
  const auto at = std::lower_bound(kinds.begin(), kinds.end(), name,
                                   [](const StoredKind& k, std::string_view n) { return k.name < n; });
  const bool there = at != kinds.end() && at->name == name;
  if (!info.kind) {
    if (there) kinds.erase(at);
  } else if (there) {
    *at = {at->name, *info.kind, info.detail, info.evidence};
  } else {
    kinds.insert(at, {name, *info.kind, info.detail, info.evidence});
  }
}

std::optional<EntityResolver> EntityResolver::with_keys(
    const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
    const std::vector<StoredKind>& kinds, const WorkTable& works,
    const std::vector<std::pair<std::string_view, std::uint32_t>>& uses,
    const std::vector<std::pair<std::string_view, std::uint32_t>>& listed) const {
  std::vector<std::uint64_t> keys;
  keys.reserve(stored_keys());
  for (std::size_t k = 0; k < stored_keys(); ++k) keys.push_back(stored_key(k));
  return with_keys(spellings, kinds, works, uses, listed, std::move(keys));
}

std::optional<EntityResolver> EntityResolver::with_keys(
    const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
    const std::vector<StoredKind>& kinds, const WorkTable& works,
    const std::vector<std::pair<std::string_view, std::uint32_t>>& uses,
    const std::vector<std::pair<std::string_view, std::uint32_t>>& listed,
    std::vector<std::uint64_t> keys) const {
  EntityResolver r(m_vocabulary);
  if (!r.load(
          owned(encode(spellings, kinds, works, uses, listed, std::move(keys), stored_encoding().size()))))
    return std::nullopt;
  return r;
}

std::optional<EntityResolver::Info> EntityResolver::decided_again(
    std::string_view name, const std::string& key, const Kind* override, const NoteDigest* page,
    const Named& nm, const std::set<std::string_view>& deciding,
    const std::function<bool(std::string_view)>& is_page) const {
  if (name.empty() || name.front() == '@' || is_attachment(name)) return std::nullopt;
  if (page && listed(name) != 0) return std::nullopt;
  // (named() reads the spellings folding to its key: one resolving to it
  // otherwise, an alias, a path or a config name's other spelling, whose
  // labels, link words and lists count too, is refused.)
  for (const auto& [spelling, canonical] : m_spellings)
    if (canonical == name && fold_name(spelling) != key) return std::nullopt;
  if (!page && !nm.first) return std::nullopt;  // (its words are read where a note names it)
  // (... nor, for a page, one folding alike that resolves to another page: NOVA.md, nova.md.)
  if (page)
    for (const auto& [spelling, notes] : nm.uses)
      if (const std::string_view* c = stored_canonical(spelling); c && *c != name) return std::nullopt;
  Info info;
  const auto set = [&](const Kind& k, KindEvidence e, std::string detail) {
    info.offer(k, e, std::move(detail));
  };
  if (override) set(*override, KindEvidence::Override, {});
  if (page) {
    if (const auto k = declared(*page)) set(k->first, KindEvidence::OwnPage, k->second);
    if (page->bibliographic) set(Kind(kinds::SOURCE), KindEvidence::Bibliographic, {});
    if (page->structure) set(*page->structure, KindEvidence::PageStructure, {});
    if (page->defined) set(*page->defined, KindEvidence::FirstSentence, page->defined_by);
  }
  weigh_naming(nm, key, info);
  // Its lists: of pages and names their own evidence decides only (then its
  // kind moves no list mate; a name no page has may take one from them).
  for (const auto* list : nm.lists) {
    const auto member = [&](std::size_t i) { return member_of(nm, name, (*list)[i]); };
    const auto kind_of = [&](std::string_view m) -> std::optional<std::string_view> {
      if (m == name) return info.kind ? std::optional<std::string_view>(*info.kind) : std::nullopt;
      const StoredKind* k = stored_kind(m);
      if (!k || k->kind.empty() || static_cast<int>(k->evidence) >= static_cast<int>(KindEvidence::ListMates))
        return std::nullopt;
      return k->kind;
    };
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string_view m = member(i);
      if (m == name) continue;
      // (A mate decided again here has no stored kind to go by.)
      if (m.empty() || (!is_page(m) && (deciding.count(m) || !kind_of(m)))) return std::nullopt;
    }
    if (!page)
      list_mates(list->size(), member, kind_of, [&](std::string_view m, const Kind& k, std::string_view by) {
        if (m == name) set(k, KindEvidence::ListMates, std::string(by));
      });
  }
  if (page) set(Kind(kinds::OTHER), KindEvidence::Page, {});
  return info;
}

std::optional<EntityResolver> EntityResolver::overridden(const Overrides& before, const Overrides& after,
                                                         const PageOf& page_of, const NamingOf& naming_of,
                                                         const std::function<bool(std::string_view)>& is_page,
                                                         Extension* what) const {
  if (!m_stored) return std::nullopt;
  // The names whose overrides changed, each a spelling the vault keeps.
  std::set<std::string_view> names;  // their canonical names
  const auto changed = [&](const std::string& raw) {
    const std::string_view* c = stored_canonical(raw);
    if (!c) return false;  // (a name no note spells: a spelling of its own)
    const bool kept = (raw == *c && is_page(raw)) || uses(raw) > 0;
    if (!kept) return false;  // (a spelling only the override may hold)
    names.insert(*c);
    return true;
  };
  for (const auto& [raw, kind] : before)
    if (const auto a = after.find(raw); (a == after.end() || a->second != kind) && !changed(raw))
      return std::nullopt;
  for (const auto& [raw, kind] : after)
    if (!before.count(raw) && !changed(raw)) return std::nullopt;
  if (names.empty()) return std::nullopt;
  std::vector<StoredKind> kinds(m_kinds.begin(), m_kinds.end());
  WorkTable works = m_works;
  std::vector<std::pair<std::string, Info>> decided;  // (kept alive for the encoding)
  decided.reserve(names.size());
  for (const std::string_view name : names) {
    if (name.empty() || name.front() == '@' || is_attachment(name)) return std::nullopt;
    const std::string key = fold_name(name);
    const NoteDigest* page = is_page(name) ? page_of(name) : nullptr;
    if (is_page(name) && !page) return std::nullopt;
    const auto naming = naming_of(name);
    if (!naming) return std::nullopt;
    const Kind* override = nullptr;  // (the first, in the file's name order, that names it)
    for (const auto& [raw, kind] : after)
      if (const std::string_view* c = stored_canonical(raw); c && *c == name) {
        override = &kind;
        break;
      }
    auto again = decided_again(name, key, override, page, named(key, *naming), names, is_page);
    if (!again) return std::nullopt;
    Info info = std::move(*again);
    // A work's facts follow its kind.
    if (page && info.kind && is_work(*info.kind)) {
      works.set(name, work_facts(*page));
    } else {
      works.erase(name);
    }
    decided.emplace_back(std::string(name), std::move(info));
  }
  for (const auto& [name, info] : decided) set_stored_kind(kinds, name, info);
  auto r = with_keys(m_spellings, kinds, works, m_uses, m_listed);
  if (r && what) what->page = true;
  return r;
}

// A new page for a name notes use: first the page, mentioning nothing, taking
// the name (paged()), then its own mentions and glosses (extend(): a change
// from that page to the note).
std::optional<EntityResolver> EntityResolver::adopted(const NoteDigest& after,
                                                      const std::vector<const NoteDigest*>& naming,
                                                      const std::function<bool(std::string_view)>& is_page,
                                                      Extension* what,
                                                      const std::function<bool(std::string_view)>& gives_key,
                                                      const NamingOf& naming_of,
                                                      const PageOf& page_of) const {
  NoteDigest page = without_mentions(after);
  page.glosses.clear();
  auto paged_name = paged(page, fold_name(page.title), naming, nullptr, is_page);
  if (!paged_name) return std::nullopt;
  Extension own;
  auto r = paged_name->first.extend(&page, after, is_page, &own, false, gives_key, naming_of, page_of);
  if (!r) return std::nullopt;
  if (what) {
    *what = std::move(own);
    what->page = true;
    what->adopted = std::move(paged_name->second);
  }
  return r;
}

// A name no page has, which notes use, taken by a page: a new one of its
// title (mentioning nothing), or one there already that gives a new alias
// folding like the name (`page_named`: what the notes naming it say). Every
// spelling of the name is the page's; its kind what decide_kinds() gives a
// page, from the page's own words and what the notes naming it (and the
// name) say; the lists naming the name (of pages only, so nothing else
// moves) count it no more.
std::optional<std::pair<EntityResolver, std::string>> EntityResolver::paged(
    const NoteDigest& page, const std::string& key, const std::vector<const NoteDigest*>& naming,
    const Named* page_named, const std::function<bool(std::string_view)>& is_page) const {
  const std::string& title = page.title;
  const bool new_page = !page_named;
  if (!m_stored || m_keys.empty() || !known_key(key) || title.empty() || title.front() == '@' ||
      is_attachment(title) || link_page_name(title).size() != title.size())
    return std::nullopt;
  if (new_page && (!page.aliases.empty() || declares_kind_outside(page, m_vocabulary))) return std::nullopt;
  const StoredKind* was = new_page ? nullptr : stored_kind(title);
  if (!new_page && !was) return std::nullopt;
  const Named nm = named(key, naming);
  if (!nm.first) return std::nullopt;
  const std::string_view* canonical = stored_canonical(*nm.first);
  if (!canonical) return std::nullopt;
  const std::string_view name = *canonical;  // the name no page had
  const StoredKind* had = stored_kind(name);
  if (had && had->evidence == KindEvidence::Override) return std::nullopt;
  // Its spellings: all of them the naming notes', counted as the stored uses count them (then the
  // notes are all there are, and the name is no page's: a page's spellings have no uses).
  std::size_t spellings_of_name = 0;
  for (const auto& [s, c] : m_spellings)
    if (c == name) ++spellings_of_name;
  if (spellings_of_name != nm.uses.size()) return std::nullopt;
  for (const auto& [s, notes] : nm.uses) {
    const std::string_view* c = stored_canonical(s);
    if (!c || *c != name || uses(s) != notes) return std::nullopt;
  }
  // No path to a page of its name ([[notes/Title]]) means another name now.
  for (const auto& [spelling, c] : m_spellings) {
    if (spelling.find_first_of("/^.") == std::string_view::npos &&
        strings::trim(spelling).size() == spelling.size())
      continue;
    const std::string p = link_page_name(spelling);
    if (p.size() != spelling.size() && fold_name(p) == key && c != name) return std::nullopt;
  }
  // Its kind as a page's (an override naming the page stays).
  Info info;
  if (new_page) {
    info = page_kind(page, nullptr, nm, key);
  } else {
    // (What the notes say of it by any of its names, weighed as its title's words.)
    Named all = *page_named;
    add_naming(all, nm);
    info = page_kind(page, was, all, fold_name(title));
  }
  // The lists naming it: of pages only (no name's list mates move); each counted its pages once.
  const auto lists = lists_of_pages(nm, is_page);
  if (!lists) return std::nullopt;
  std::map<std::string_view, int> listed_change;
  for (const auto& [p, n] : *lists) listed_change[p] = -n;
  const auto bound = relisted(listed_change);
  if (!bound) return std::nullopt;
  // A page there already whose kind the lists see moves: no list names it with a name no page has.
  if (was && was->kind != *info.kind) {
    const auto d = listed_change.find(title);
    if (listed(title) + (d != listed_change.end() ? d->second : 0) != 0) return std::nullopt;
  }
  // The resolution with it.
  std::vector<std::pair<std::string_view, std::string_view>> spellings;
  spellings.reserve(m_spellings.size() + 1);
  bool titled = !new_page;
  for (const auto& [s, c] : m_spellings) {
    if (!titled && s >= std::string_view(title)) {
      if (s != title) spellings.emplace_back(title, title);
      titled = true;
    }
    spellings.emplace_back(s, c == name ? std::string_view(title) : c);
  }
  if (!titled) spellings.emplace_back(title, title);
  std::vector<StoredKind> kinds;
  kinds.reserve(m_kinds.size() + 1);
  for (const StoredKind& k : m_kinds)
    if (k.name != name) kinds.push_back(k);
  set_stored_kind(kinds, title, info);
  WorkTable works = m_works;
  if (is_work(*info.kind)) {
    works.set(title, work_facts(page));
  } else if (!new_page) {
    works.erase(title);
  }
  std::vector<std::pair<std::string_view, std::uint32_t>> counted;
  counted.reserve(m_uses.size());
  for (const auto& u : m_uses)
    if (!nm.uses.count(u.first)) counted.push_back(u);
  auto r = with_keys(spellings, kinds, works, counted, *bound);
  if (!r) return std::nullopt;
  return std::make_pair(std::move(*r), std::string(name));
}

// A page giving a new alias that names a name no page has, which notes use:
// first the page as it was, with that alias, taking the name (paged()), then
// its other new aliases (extend(): a change from that page to the note).
std::optional<EntityResolver> EntityResolver::aliased(const NoteDigest& before, const NoteDigest& after,
                                                      const std::function<bool(std::string_view)>& is_page,
                                                      Extension* what,
                                                      const std::function<bool(std::string_view)>& gives_key,
                                                      const NamingOf& naming_of,
                                                      const PageOf& page_of) const {
  const std::string& title = after.title;
  if (!m_stored || !naming_of || before.title != title || !is_page(title)) return std::nullopt;
  // The one new alias the vault knows a name by.
  const std::string* claim = nullptr;
  for (const std::string& alias : after.aliases) {
    if (std::find(before.aliases.begin(), before.aliases.end(), alias) != before.aliases.end()) continue;
    const std::string key = fold_name(alias);
    if (key.empty() || !known_key(key)) continue;
    if (claim) return std::nullopt;
    claim = &alias;
  }
  if (!claim || link_page_name(*claim).size() != claim->size() || claim->front() == '@' ||
      is_attachment(*claim))
    return std::nullopt;
  const std::string key = fold_name(*claim);
  // The note as it was, giving that alias: nothing else of it changed but more aliases.
  NoteDigest page = before;
  page.aliases.push_back(*claim);
  if (!same_but_aliases(page, after)) return std::nullopt;
  // (A note naming the name it takes names itself: weighed by a full pass.)
  if (!named(key, {&after}).uses.empty()) return std::nullopt;
  const std::string_view* name = stored_canonical(*claim);
  if (!name || is_page(*name)) return std::nullopt;
  const auto naming = naming_of(*name);
  const auto page_naming = naming_of(title);
  if (!naming || !page_naming) return std::nullopt;
  const std::vector<std::string_view> spelled = spellings_of(title);  // (none folds like the alias)
  if (std::any_of(spelled.begin(), spelled.end(), [&](std::string_view s) { return fold_name(s) == key; }))
    return std::nullopt;
  const auto page_named = naming_page(title, spelled, *page_naming, key);
  if (!page_named) return std::nullopt;
  auto paged_name = paged(page, key, *naming, &*page_named, is_page);
  if (!paged_name) return std::nullopt;
  Extension own;
  auto r = std::move(paged_name->first).rest(page, after, is_page, own, gives_key, naming_of, page_of);
  if (!r) return std::nullopt;
  if (what) {
    *what = std::move(own);
    what->page = true;
    what->aliases = true;
    what->adopted = std::move(paged_name->second);
  }
  return r;
}

// A page giving up an alias notes name it by: first the page as it was,
// without that alias, giving up the name (its spellings one name of their
// own, first spelled as the notes naming the page first spell it, of the kind
// they give it), then its other aliases (extend(): a change from that page to the note).
std::optional<EntityResolver> EntityResolver::unaliased(
    const NoteDigest& before, const NoteDigest& after, const std::function<bool(std::string_view)>& is_page,
    Extension* what, const std::function<bool(std::string_view)>& gives_key, const NamingOf& naming_of,
    const PageOf& page_of) const {
  const std::string& title = after.title;
  if (!m_stored || !naming_of || !gives_key || before.title != title || !is_page(title) || title.empty() ||
      title.front() == '@' || is_attachment(title))
    return std::nullopt;
  // The key of the aliases given up that notes name the page by (no alias kept folds alike).
  std::set<std::string> kept{fold_name(title)};
  for (const std::string& alias : after.aliases) kept.insert(fold_name(alias));
  const std::vector<std::string_view> spelled = spellings_of(title);  // (the spellings resolving to it)
  std::set<std::string> spelled_keys;
  for (const std::string_view s : spelled) spelled_keys.insert(fold_name(s));
  std::optional<std::string> key;
  for (const std::string& alias : before.aliases) {
    const std::string k = fold_name(alias);
    if (k.empty() || kept.count(k) || !spelled_keys.count(k)) continue;
    if (key && *key != k) return std::nullopt;
    key = k;
  }
  if (!key || gives_key(*key)) return std::nullopt;
  // The note as it was without them: nothing else of it changed but other aliases.
  NoteDigest page = before;
  page.aliases.erase(std::remove_if(page.aliases.begin(), page.aliases.end(),
                                    [&](const std::string& a) { return fold_name(a) == *key; }),
                     page.aliases.end());
  if (!same_but_aliases(page, after) || !named(*key, {&after}).uses.empty()) return std::nullopt;
  const StoredKind* was = stored_kind(title);
  if (!was || was->evidence == KindEvidence::Override) return std::nullopt;
  const auto naming = naming_of(title);
  if (!naming) return std::nullopt;
  const Named nm = named(*key, *naming);
  if (!nm.first || is_page(*nm.first) || stored_kind(*nm.first)) return std::nullopt;
  const std::string name(*nm.first);  // the name its spellings become
  // Every spelling resolving to the page by it is the naming notes' (none a path to it by it).
  for (const std::string_view s : spelled) {
    if (fold_name(s) == *key) {
      if (!nm.uses.count(s)) return std::nullopt;
    } else if (const std::string p = link_page_name(s); p.size() != s.size() && fold_name(p) == *key) {
      return std::nullopt;
    }
  }
  for (const auto& [s, notes] : nm.uses)
    if (const std::string_view* c = stored_canonical(s); !c || *c != std::string_view(title))
      return std::nullopt;
  // The page's kind from what the notes say by its other names; the name's from what they say by it.
  const auto page_named = naming_page(title, spelled, *naming, *key);
  if (!page_named) return std::nullopt;
  const Info page_info = page_kind(page, was, *page_named, fold_name(title));
  // The lists naming it: of pages only (no name's list mates move), each counting its pages once
  // more; the page's own kind moving, none of them names it, nor a list with a name no page has.
  const auto lists = lists_of_pages(nm, is_page);
  if (!lists) return std::nullopt;
  const std::map<std::string_view, int>& listed_change = *lists;
  if (was->kind != *page_info.kind && (listed(title) != 0 || listed_change.count(title))) return std::nullopt;
  const auto decided = decided_again(name, *key, nullptr, nullptr, nm, {}, is_page);
  if (!decided) return std::nullopt;
  // The resolution with it.
  std::vector<std::pair<std::string_view, std::string_view>> spellings;
  spellings.reserve(m_spellings.size());
  for (const auto& [s, c] : m_spellings)
    spellings.emplace_back(s, c == std::string_view(title) && nm.uses.count(s) ? std::string_view(name) : c);
  std::vector<StoredKind> kinds(m_kinds.begin(), m_kinds.end());
  set_stored_kind(kinds, title, page_info);
  set_stored_kind(kinds, name, *decided);
  WorkTable works = m_works;
  if (is_work(*page_info.kind)) {
    works.set(title, work_facts(page));
  } else {
    works.erase(title);
  }
  std::vector<std::pair<std::string_view, std::uint32_t>> counted(m_uses.begin(), m_uses.end());
  counted.insert(counted.end(), nm.uses.begin(), nm.uses.end());
  std::sort(counted.begin(), counted.end());
  const auto bound = relisted(listed_change);
  if (!bound) return std::nullopt;
  auto with = with_keys(spellings, kinds, works, counted, *bound);
  if (!with) return std::nullopt;
  Extension own;
  auto r = std::move(*with).rest(page, after, is_page, own, gives_key, naming_of, page_of);
  if (!r) return std::nullopt;
  if (what) {
    *what = std::move(own);
    what->page = true;
    what->aliases_given_up = true;
    what->alias_keys_gone.push_back(*key);
    what->orphan = name;
  }
  return r;
}

std::optional<EntityResolver> EntityResolver::extend(const NoteDigest* before, const NoteDigest& after,
                                                     const std::function<bool(std::string_view)>& is_page,
                                                     Extension* what, bool deleted,
                                                     const std::function<bool(std::string_view)>& gives_key,
                                                     const NamingOf& naming_of, const PageOf& page_of) const {
  // A new note is a new page: extended when nothing the vault knows folds
  // like its title (then no note names it), it brings no alias or kind word
  // of its own (the synonyms and kinds stay), and it does not name itself.
  // It is then weighed as a change from the same page mentioning nothing
  // (its glosses: the caller builds the glossary again).
  NoteDigest unwritten;
  std::string title_key;
  if (!before) {
    title_key = fold_name(after.title);
    if (m_keys.empty() || known_key(title_key) || link_page_name(after.title).size() != after.title.size() ||
        !after.aliases.empty() || declares_kind_outside(after, m_vocabulary))
      return std::nullopt;
    unwritten = EntityResolver::unwritten(after);
    before = &unwritten;
  }
  Additions more;
  more.can_rekind = static_cast<bool>(naming_of);
  more.can_rekind_pages = more.can_rekind && static_cast<bool>(page_of);
  if (!admits(*before, after, is_page, &more)) return std::nullopt;
  if (deleted) more.gone.push_back(after.title);  // (its spelling, kind and key)
  // An alias that is another page's title: that page is still there when the run ends (gives_key
  // says so of the vault after it; a review's counterexample: the page deleted in the same run).
  for (const std::string& key : more.titled_keys)
    if (!gives_key || !gives_key(key)) return std::nullopt;
  for (const auto& [spelling, key] : more.fresh)  // (a name by its new alias is the page: resolved again)
    if (more.alias_keys.count(key)) return std::nullopt;
  // Aliases given up: no spelling may resolve to the page by one (it would
  // name another page or a name of its own now); a key nothing else gives goes.
  std::set<std::string> alias_keys_gone;
  if (!more.alias_keys_gone.empty()) {
    if (!gives_key) return std::nullopt;
    for (const auto& [spelling, name] : m_spellings) {
      if (name != after.title) continue;
      const std::string page = link_page_name(spelling);
      if (more.alias_keys_gone.count(fold_name(spelling)) ||
          (page.size() != spelling.size() && more.alias_keys_gone.count(fold_name(page))))
        return std::nullopt;
    }
    for (const std::string& key : more.alias_keys_gone)
      if (!gives_key(key)) alias_keys_gone.insert(key);
  }
  // A key goes with the names gone only if no other spelling gives it: a path
  // to a page of that name ([[notes/Solo Name]]), an attachment or an '@' key
  // spelled otherwise (the only spellings of another name that can fold
  // alike: never names, they have no first spelling).
  if (!more.gone.empty() || !alias_keys_gone.empty()) {
    std::set<std::string> keys_gone = alias_keys_gone;
    for (const std::string_view name : more.gone) keys_gone.insert(fold_name(name));
    for (const auto& [spelling, name] : m_spellings) {
      if (spelling.find_first_of("/^.@") == std::string_view::npos &&
          strings::trim(spelling).size() == spelling.size())
        continue;
      if (std::find(more.gone.begin(), more.gone.end(), spelling) != more.gone.end()) continue;
      const std::string page = link_page_name(spelling);
      if (keys_gone.count(fold_name(spelling)) ||
          (page.size() != spelling.size() && keys_gone.count(fold_name(page))))
        return std::nullopt;
    }
  }
  const Fresh& fresh = more.fresh;  // each spelling no note had → its key
  if (!title_key.empty())
    for (const auto& [spelling, key] : fresh)
      if (key == title_key) return std::nullopt;
  // Only this note mentions the new keys: each names one new name, spelled as
  // the note's names first spell it (a key only its lists or link words spell: resolved again).
  std::map<std::string_view, std::string_view> name_of_key;
  for (const auto& n : after.names)
    if (const auto f = fresh.find(n); f != fresh.end()) name_of_key.try_emplace(f->second, n);
  std::map<std::string_view, std::string_view> canonical;  // new spelling → its name
  for (const auto& [spelling, key] : fresh) {
    const auto name = name_of_key.find(key);
    if (name == name_of_key.end()) return std::nullopt;
    canonical.emplace(spelling, name->second);
  }
  // Names whose labels or link words changed here (and the note's own page
  // when its words no longer declare its kind): each kind decided again from
  // every note naming it, in the vault's order (this one in its place, as it
  // is now), and its page's words, moving no list mate: no list names a page
  // decided again with a name no page has, and a name no page has (which may
  // take its kind from its lists, or be left with none) is listed only with
  // pages and names of kinds better evidence than lists decides.
  std::vector<std::pair<std::string, Info>> rekinded;  // (kept alive for the encoding)
  rekinded.reserve(more.rekind.size());
  std::map<std::string_view, const NoteDigest*> rekinded_pages;  // (those that are pages)
  {
    const std::set<std::string_view> deciding(more.rekind.begin(), more.rekind.end());
    const auto unpaged = [&](const std::string& n) {
      return fresh.count(n) || !is_page(*stored_canonical(n));
    };
    for (const std::string& name : more.rekind) {
      if (std::find(more.gone.begin(), more.gone.end(), name) != more.gone.end()) continue;
      const NoteDigest* page = nullptr;
      if (is_page(name)) {
        page = name == after.title ? &after : page_of(name);
        if (!page || page->title != name) return std::nullopt;
        for (const auto* lists : {&before->lists, &after.lists})
          for (const auto& list : *lists)
            if (std::any_of(
                    list.begin(), list.end(),
                    [&](const std::string& n) { return !fresh.count(n) && *stored_canonical(n) == name; }) &&
                std::any_of(list.begin(), list.end(), unpaged))
              return std::nullopt;
      }
      const auto naming = naming_of(name);  // (this note among them, as it is now)
      if (!naming) return std::nullopt;
      const std::string key = fold_name(name);
      auto again = decided_again(name, key, nullptr, page, named(key, *naming), deciding, is_page);
      if (!again) return std::nullopt;
      if (more.page && name == after.title) {
        // (The note's own kind: set below, with its facts as a work.)
        more.page->kind = again->kind;
        more.page->evidence = again->evidence;
        more.page->detail = std::move(again->detail);
        more.page->again = false;
        continue;
      }
      if (page) rekinded_pages.emplace(name, page);
      rekinded.emplace_back(name, std::move(*again));
    }
    if (more.page && more.page->again) return std::nullopt;
  }
  // Their kinds, from the evidence decide_kinds() weighs, all of it in this
  // note: its list labels, the words around its links, the names' own words,
  // then the lists they stand in (with pages, which get no list mates).
  std::map<std::string_view, Info> info;
  const auto set = [&](std::string_view name, const Kind& k, KindEvidence e, std::string detail) {
    Info& i = info[name];
    if (i.evidence == KindEvidence::None || static_cast<int>(e) < static_cast<int>(i.evidence))
      i = {k, e, std::move(detail)};
  };
  std::map<std::string_view, std::map<Kind, int>> votes;
  for (const auto& [name, kind] : after.labelled)
    if (const auto c = canonical.find(name); c != canonical.end()) ++votes[c->second][kind];
  for (const auto& [name, counts] : votes) set(name, most_voted(counts), KindEvidence::ListLabel, {});
  std::map<std::string_view, std::map<Kind, std::map<std::string, int>>> seen;
  for (const auto& h : after.hints)
    if (const auto c = canonical.find(h.name); c != canonical.end()) ++seen[c->second][h.kind][h.marker];
  for (const auto& entry : seen) {  // (not a structured binding: a lambda captures it)
    const std::string_view name = entry.first;
    if (auto k = link_verdict(entry.second, [&] { return fresh.at(name); }))
      set(name, k->first, KindEvidence::LinkContext, std::move(k->second));
  }
  for (const auto& [key, name] : name_of_key)
    if (auto k = heuristic(key)) set(name, k->first, KindEvidence::Heuristic, k->second);
  for (const auto& list : after.lists) {
    if (std::none_of(list.begin(), list.end(), [&](const std::string& s) { return fresh.count(s); }))
      continue;
    const auto member = [&](std::size_t i) -> std::string_view {
      const auto c = canonical.find(list[i]);
      return c != canonical.end() ? c->second : *stored_canonical(list[i]);  // (a page: admits())
    };
    const auto kind_of = [&](std::string_view name) -> std::optional<std::string_view> {
      if (const auto i = info.find(name); i != info.end()) return std::string_view(*i->second.kind);
      // The note's own kind decided anew (as the lists find it: not by list mates).
      if (more.page && name == after.title)
        return more.page->kind ? std::optional<std::string_view>(*more.page->kind) : std::nullopt;
      const StoredKind* k = stored_kind(name);  // a page's kind, as the lists found it
      if (!k || k->kind.empty() || static_cast<int>(k->evidence) >= static_cast<int>(KindEvidence::ListMates))
        return std::nullopt;
      return k->kind;
    };
    list_mates(list.size(), member, kind_of,
               [&](std::string_view name, const Kind& k, std::string_view first) {
                 if (fresh.count(name))
                   set(name, k, KindEvidence::ListMates, std::string(first));  // (not a page)
               });
  }
  // The new page's kind, from what it says of itself (decide_kinds()), and its facts if it is a work.
  WorkTable new_work;
  const WorkTable* works = &m_works;
  if (!title_key.empty()) {
    const std::string_view t = after.title;
    if (const auto k = declared(after)) set(t, k->first, KindEvidence::OwnPage, k->second);
    if (after.bibliographic) set(t, Kind(kinds::SOURCE), KindEvidence::Bibliographic, {});
    if (after.structure) set(t, *after.structure, KindEvidence::PageStructure, {});
    if (after.defined) set(t, *after.defined, KindEvidence::FirstSentence, after.defined_by);
    if (auto k = heuristic(title_key)) set(t, k->first, KindEvidence::Heuristic, k->second);
    set(t, Kind(kinds::OTHER), KindEvidence::Page, {});
    canonical.emplace(t, t);
    name_of_key.emplace(title_key, t);
    if (is_work(*info[t].kind)) {
      new_work = m_works;
      new_work.set(after.title, work_facts(after));
      works = &new_work;
    }
  }
  // The resolution with them, and without the names gone: the spellings,
  // kinds, uses and keys merged in order.
  const std::set<std::string_view> gone(more.gone.begin(), more.gone.end());
  std::vector<std::pair<std::string_view, std::string_view>> spellings;
  spellings.reserve(m_spellings.size() + canonical.size());
  std::merge(m_spellings.begin(), m_spellings.end(), canonical.begin(), canonical.end(),
             std::back_inserter(spellings), [](const auto& x, const auto& y) { return x.first < y.first; });
  spellings.erase(std::remove_if(spellings.begin(), spellings.end(),
                                 [&](const auto& s) { return gone.count(s.first) > 0; }),
                  spellings.end());
  std::vector<StoredKind> added_kinds;
  for (const auto& [name, i] : info) added_kinds.push_back({name, *i.kind, i.detail, i.evidence});
  std::vector<StoredKind> kinds;
  kinds.reserve(m_kinds.size() + added_kinds.size());
  std::merge(m_kinds.begin(), m_kinds.end(), added_kinds.begin(), added_kinds.end(),
             std::back_inserter(kinds),
             [](const StoredKind& x, const StoredKind& y) { return x.name < y.name; });
  kinds.erase(
      std::remove_if(kinds.begin(), kinds.end(), [&](const StoredKind& k) { return gone.count(k.name) > 0; }),
      kinds.end());
  // The note's own kind decided anew, and its facts as a work (or none).
  if (more.page) {
    const auto at = std::lower_bound(kinds.begin(), kinds.end(), after.title,
                                     [](const StoredKind& k, const std::string& t) { return k.name < t; });
    if (at == kinds.end() || at->name != after.title) return std::nullopt;  // (page_change() found it)
    at->kind = more.page->kind ? std::string_view(*more.page->kind) : std::string_view();
    at->evidence = more.page->evidence;
    at->detail = more.page->detail;
    new_work = m_works;
    if (more.page->kind && is_work(*more.page->kind)) {
      new_work.set(after.title, work_facts(after));
    } else {
      new_work.erase(after.title);
    }
    works = &new_work;
  }
  if (deleted && m_works.contains(after.title)) {
    new_work = m_works;
    new_work.erase(after.title);
    works = &new_work;
  }
  // The names decided again above (a name no page has may be left without a
  // kind), and a page's facts as a work (or none).
  for (const auto& [name, decided] : rekinded) {
    if (rekinded_pages.count(name) &&
        (is_work(*decided.kind) || works->contains(name))) {  // (a page has a kind)
      if (works != &new_work) {
        new_work = *works;
        works = &new_work;
      }
      if (is_work(*decided.kind)) {
        new_work.set(name, work_facts(*rekinded_pages.at(name)));
      } else {
        new_work.erase(name);
      }
    }
    set_stored_kind(kinds, name, decided);
  }
  // A spelling of a name no page has counts this note once more when the
  // note now uses it, once less when it no longer does.
  std::map<std::string_view, int> change;
  for (const auto& [spelling, key] : fresh) change[spelling] = 1;
  {
    const auto unpaged = [&](const NoteDigest& d) {  // the spellings of names no page has
      std::set<std::string_view> s;
      const auto add = [&](std::string_view n) {
        if (fresh.count(n)) return;
        const std::string_view* c = stored_canonical(n);
        if (c && !is_page(*c)) s.insert(n);
      };
      for (const auto& n : d.names) add(n);
      for (const auto& l : d.labelled) add(l.first);
      for (const auto& h : d.hints) add(h.name);
      for (const auto& list : d.lists)
        for (const auto& n : list) add(n);
      return s;
    };
    const auto was = unpaged(*before), is = unpaged(after);
    for (const std::string_view s : is)
      if (!was.count(s)) ++change[s];
    for (const std::string_view s : was)
      if (!is.count(s)) --change[s];
  }
  std::vector<std::pair<std::string_view, std::uint32_t>> counted;
  counted.reserve(m_uses.size() + fresh.size());
  auto c = change.begin();
  for (const auto& [spelling, notes] : m_uses) {
    for (; c != change.end() && c->first < spelling; ++c) counted.emplace_back(c->first, c->second);
    std::int64_t n = notes;
    if (c != change.end() && c->first == spelling) n += (c++)->second;
    if (n > 0) counted.emplace_back(spelling, static_cast<std::uint32_t>(n));
  }
  for (; c != change.end(); ++c) counted.emplace_back(c->first, c->second);
  // The pages listed with names no page has: the note's lists counted again.
  std::map<std::string_view, int> listed_change;
  const auto bind = [&](const std::vector<std::vector<std::string>>& lists, int by) {
    for (const auto& list : lists) {
      std::set<std::string_view> pages;
      bool unpaged = false;
      for (const auto& n : list) {
        const std::string_view* name = fresh.count(n) ? nullptr : stored_canonical(n);
        if (name && is_page(*name))
          pages.insert(*name);
        else
          unpaged = true;
      }
      if (unpaged)
        for (const std::string_view page : pages) listed_change[page] += by;
    }
  };
  bind(before->lists, -1);
  bind(after.lists, +1);
  // A page whose kind the lists see moved to or from a person's or an
  // organization's: no list but the note's own may name it with a name no
  // page has, and the note's only with new names (whose kinds this decides).
  if (more.page && more.page->moves_mates) {
    const auto names_page = [&](const std::vector<std::string>& list) {
      return std::any_of(list.begin(), list.end(), [&](const std::string& n) {
        return !fresh.count(n) && *stored_canonical(n) == after.title;
      });
    };
    const auto unpaged = [&](const std::string& n) {
      return fresh.count(n) || !is_page(*stored_canonical(n));
    };
    std::uint32_t mine = 0;  // the note's lists that named it with such a name
    for (const auto& list : before->lists)
      if (names_page(list) && std::any_of(list.begin(), list.end(), unpaged)) ++mine;
    if (listed(after.title) != mine) return std::nullopt;
    for (const auto& list : after.lists)
      if (names_page(list))
        for (const auto& n : list)
          if (unpaged(n) && !fresh.count(n)) return std::nullopt;
  }
  std::vector<std::pair<std::string_view, std::uint32_t>> bound;
  {
    auto d = listed_change.begin();
    for (const auto& [page, lists] : m_listed) {
      for (; d != listed_change.end() && d->first < page; ++d)
        if (d->second > 0) bound.emplace_back(d->first, d->second);
      std::int64_t n = lists;
      if (d != listed_change.end() && d->first == page) n += (d++)->second;
      if (n > 0) bound.emplace_back(page, static_cast<std::uint32_t>(n));
    }
    for (; d != listed_change.end(); ++d)
      if (d->second > 0) bound.emplace_back(d->first, d->second);
  }
  std::set<std::uint64_t> gone_keys;
  for (const std::string_view name : gone) gone_keys.insert(key_hash(fold_name(name)));
  for (const std::string& key : alias_keys_gone) gone_keys.insert(key_hash(key));
  std::vector<std::uint64_t> keys;
  keys.reserve(stored_keys() + name_of_key.size());
  for (std::size_t k = 0; k < stored_keys(); ++k)
    if (!gone_keys.count(stored_key(k))) keys.push_back(stored_key(k));
  for (const auto& [key, name] : name_of_key) keys.push_back(key_hash(key));
  for (const std::string& key : more.alias_keys) keys.push_back(key_hash(key));
  auto r = with_keys(spellings, kinds, *works, counted, bound, std::move(keys));
  if (!r) return std::nullopt;
  if (what) {
    for (const auto& [key, name] : name_of_key)
      if (key != title_key) what->added.emplace_back(name);
    what->added.insert(what->added.end(), more.mentioned.begin(), more.mentioned.end());
    what->dropped.assign(more.dropped.begin(), more.dropped.end());
    what->page = more.page.has_value();
    what->aliases = !more.alias_keys.empty();
    what->glosses = more.glosses;
    what->alias_keys_gone.assign(more.alias_keys_gone.begin(), more.alias_keys_gone.end());
    what->aliases_given_up = more.aliases_given_up;
    for (const auto& entry : rekinded) what->rekinded.push_back(entry.first);
    what->page = what->page || !rekinded.empty();
  }
  return r;
}

std::string EntityResolver::serialize() const {
  return m_stored ? std::string(*m_stored) : encode();
}

std::string EntityResolver::encode() const {
  // Sorted, so one resolution always has one encoding.
  std::vector<std::pair<std::string_view, std::string_view>> spellings(m_canonical.begin(),
                                                                       m_canonical.end());
  std::sort(spellings.begin(), spellings.end());
  std::vector<StoredKind> kinds;
  kinds.reserve(m_info.size());
  for (const auto& [name, info] : m_info)
    kinds.push_back(
        {name, info.kind ? std::string_view(*info.kind) : std::string_view(), info.detail, info.evidence});
  std::sort(kinds.begin(), kinds.end(),
            [](const StoredKind& a, const StoredKind& b) { return a.name < b.name; });
  // Every key a spelling of the vault folds to, and every page's and alias's.
  std::vector<std::uint64_t> keys;
  keys.reserve(m_folded.size() + m_by_key.size());
  for (const auto& [spelling, s] : m_folded) {
    keys.push_back(key_hash(s.folded));
    // A link in a page's path form ([[folder/Page]]) would mean a new page of that name.
    if (spelling.find_first_of("/^.") != std::string::npos ||
        strings::trim(spelling).size() != spelling.size())
      if (const std::string page = link_page_name(spelling); page.size() != spelling.size())
        keys.push_back(key_hash(fold_name(page)));
  }
  for (const auto& [key, page] : m_by_key) keys.push_back(key_hash(key));
  const Counts counts = count();
  return encode(spellings, kinds, m_works, counts.uses, counts.listed, keys);
}

// The counts extended() keeps up to date: in how many notes each spelling
// of a name no page has stands (in any of their names, labels, link words or
// lists: when its last note gives it up, it is no spelling of the vault any
// more), and in how many lists each page stands with a name no page has
// (list mates may follow its kind). Each mention is known by its spelling's
// entry in m_canonical (what m_mentions points to): no string is hashed per mention.
EntityResolver::Counts EntityResolver::count() const {
  std::unordered_set<std::string_view> titles;
  for (const NoteDigest& d : m_digests) titles.insert(d.title);
  struct Use {
    std::uint32_t notes = 0;
    std::size_t last = 0;  // the last note counted, from 1
    int page = -1;         // does its canonical name have a page (-1: not asked yet)
  };
  std::unordered_map<const std::string*, Use> uses;  // by the spelling's canonical name in m_canonical
  uses.reserve(m_canonical.size());
  const auto is_page = [&](const std::string* canonical, Use& u) {
    if (u.page < 0) u.page = titles.count(*canonical) ? 1 : 0;
    return u.page == 1;
  };
  std::unordered_map<std::string_view, std::uint32_t> listed;
  std::vector<std::string_view> pages;
  std::size_t note = 0, names = 0, labelled = 0, hints = 0, lists = 0;
  for (const NoteDigest& d : m_digests) {
    ++note;
    const auto use = [&](const std::string* canonical) -> Use& {
      Use& u = uses[canonical];
      if (u.last != note) u.last = note, ++u.notes;
      return u;
    };
    for (std::size_t end = names + d.names.size(); names < end; ++names) use(m_mentions.names[names]);
    for (std::size_t end = labelled + d.labelled.size(); labelled < end; ++labelled)
      use(m_mentions.labelled[labelled]);
    for (std::size_t end = hints + d.hints.size(); hints < end; ++hints) use(m_mentions.hints[hints]);
    for (const auto& list : d.lists) {
      pages.clear();
      bool unpaged = false;
      for (std::size_t end = lists + list.size(); lists < end; ++lists) {
        const std::string* canonical = m_mentions.listed[lists];
        if (!is_page(canonical, use(canonical))) {
          unpaged = true;
        } else if (std::find(pages.begin(), pages.end(), *canonical) == pages.end()) {
          pages.push_back(*canonical);
        }
      }
      if (unpaged)
        for (const std::string_view page : pages) ++listed[page];
    }
  }
  Counts counts;
  for (const auto& [spelling, canonical] : m_canonical)
    if (const auto u = uses.find(&canonical); u != uses.end() && !is_page(&canonical, u->second))
      counts.uses.emplace_back(spelling, u->second.notes);
  std::sort(counts.uses.begin(), counts.uses.end());
  counts.listed.assign(listed.begin(), listed.end());
  std::sort(counts.listed.begin(), counts.listed.end());
  return counts;
}

std::string EntityResolver::encode(
    const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
    const std::vector<StoredKind>& kinds, const WorkTable& works,
    const std::vector<std::pair<std::string_view, std::uint32_t>>& uses,
    const std::vector<std::pair<std::string_view, std::uint32_t>>& listed, std::vector<std::uint64_t> keys,
    std::size_t size_hint) {
  std::string out;
  // (Room for it at once: a large vault's encoding, grown by doubling, would be copied and its memory touched
  // twice.)
  if (size_hint) out.reserve(size_hint + size_hint / 8);
  out = "r7";
  put_field(out, std::to_string(spellings.size()));
  for (const auto& [spelling, canonical] : spellings) {
    put_field(out, spelling);
    put_field(out, canonical);
  }
  put_field(out, std::to_string(kinds.size()));
  for (const StoredKind& k : kinds) {
    put_field(out, k.name);
    put_field(out, k.kind);
    put_field(out, std::to_string(static_cast<int>(k.evidence)));
    put_field(out, k.detail);
  }
  const auto work_entries = works.entries();
  put_field(out, std::to_string(work_entries.size()));
  for (const auto& [name, facts] : work_entries) {
    put_field(out, name);
    out += facts;
  }
  for (const auto* counts : {&uses, &listed}) {
    put_field(out, std::to_string(counts->size()));
    for (const auto& [name, n] : *counts) {
      put_field(out, name);
      put_field(out, std::to_string(n));
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::string packed(keys.size() * sizeof(std::uint64_t), '\0');
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t b = 0; b < sizeof(std::uint64_t); ++b)
      packed[i * sizeof(std::uint64_t) + b] = static_cast<char>((keys[i] >> (8 * b)) & 0xFF);
  put_field(out, packed);
  return out;
}

std::optional<EntityResolver> EntityResolver::deserialize(std::string in, KindVocabulary vocabulary) {
  return deserialize(owned(std::move(in)), std::move(vocabulary));
}

std::optional<EntityResolver> EntityResolver::deserialize(std::shared_ptr<const std::string_view> in,
                                                          KindVocabulary vocabulary) {
  EntityResolver r(std::move(vocabulary));
  if (!r.load(std::move(in))) return std::nullopt;
  return r;
}

bool EntityResolver::load(std::shared_ptr<const std::string_view> stored) {
  std::string_view in = *stored;
  if (in.substr(0, 2) != "r7") return false;
  in.remove_prefix(2);
  auto field = [&](std::string_view& f) { return get_field(in, f); };
  auto count = [&](std::size_t& n) { return get_count(in, n); };
  std::vector<std::pair<std::string_view, std::string_view>> spellings;
  std::vector<StoredKind> kinds;
  WorkTable works;
  std::size_t n = 0;
  if (!count(n)) return false;
  spellings.reserve(std::min<std::size_t>(n, in.size()));
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view a, b;
    if (!field(a) || !field(b) || (!spellings.empty() && !(spellings.back().first < a))) return false;
    spellings.emplace_back(a, b);
  }
  if (!count(n)) return false;
  kinds.reserve(std::min<std::size_t>(n, in.size()));
  for (std::size_t i = 0; i < n; ++i) {
    StoredKind k;
    std::string_view evidence;
    if (!field(k.name) || !field(k.kind) || !field(evidence) || !field(k.detail) ||
        (!kinds.empty() && !(kinds.back().name < k.name)))
      return false;
    k.evidence = static_cast<KindEvidence>(std::atoi(std::string(evidence).c_str()));
    kinds.push_back(k);
  }
  if (!count(n) || !works.read(in, n)) return false;
  auto counts = [&](std::vector<std::pair<std::string_view, std::uint32_t>>& v) {
    std::size_t size = 0;
    if (!count(size)) return false;
    v.reserve(std::min<std::size_t>(size, in.size()));
    for (std::size_t i = 0; i < size; ++i) {
      std::string_view name;
      std::size_t k = 0;
      if (!field(name) || !count(k) || (!v.empty() && !(v.back().first < name))) return false;
      v.emplace_back(name, static_cast<std::uint32_t>(k));
    }
    return true;
  };
  std::vector<std::pair<std::string_view, std::uint32_t>> uses, listed;
  if (!counts(uses) || !counts(listed)) return false;
  std::string_view keys;
  if (!field(keys) || keys.size() % sizeof(std::uint64_t) != 0 || !in.empty()) return false;
  m_stored = std::move(stored);
  m_keys = keys;
  m_uses = std::move(uses);
  m_listed = std::move(listed);
  m_spellings = std::move(spellings);
  m_kinds = std::move(kinds);
  m_works = std::move(works);
  return true;
}

const std::string_view* EntityResolver::stored_canonical(std::string_view spelling) const {
  const auto it = std::lower_bound(m_spellings.begin(), m_spellings.end(), spelling,
                                   [](const auto& e, std::string_view s) { return e.first < s; });
  return it != m_spellings.end() && it->first == spelling ? &it->second : nullptr;
}

const EntityResolver::StoredKind* EntityResolver::stored_kind(std::string_view canonical_name) const {
  const auto it = std::lower_bound(m_kinds.begin(), m_kinds.end(), canonical_name,
                                   [](const StoredKind& k, std::string_view s) { return k.name < s; });
  return it != m_kinds.end() && it->name == canonical_name ? &*it : nullptr;
}

std::uint64_t EntityResolver::key_hash(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

namespace {

std::uint32_t count_of(const std::vector<std::pair<std::string_view, std::uint32_t>>& counts,
                       std::string_view name) {
  const auto it = std::lower_bound(counts.begin(), counts.end(), name,
                                   [](const auto& c, std::string_view s) { return c.first < s; });
  return it != counts.end() && it->first == name ? it->second : 0;
}

}  // namespace

std::uint32_t EntityResolver::uses(std::string_view spelling) const {
  return count_of(m_uses, spelling);
}

std::uint32_t EntityResolver::listed(std::string_view page) const {
  return count_of(m_listed, page);
}

std::size_t EntityResolver::stored_keys() const {
  return m_keys.size() / sizeof(std::uint64_t);
}

std::uint64_t EntityResolver::stored_key(std::size_t i) const {
  std::uint64_t k = 0;
  for (std::size_t b = 0; b < sizeof(std::uint64_t); ++b)
    k |= static_cast<std::uint64_t>(static_cast<unsigned char>(m_keys[i * sizeof(std::uint64_t) + b]))
         << (8 * b);
  return k;
}

bool EntityResolver::known_key(std::string_view key) const {
  const std::uint64_t h = key_hash(key);
  std::size_t lo = 0, hi = stored_keys();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    const std::uint64_t k = stored_key(mid);
    if (k == h) return true;
    if (k < h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

bool is_work(std::string_view kind) {
  // A vault's own kind for what the defaults call a source or a book (paper, article) is a work too.
  static const KindVocabulary defaults = KindVocabulary::defaults();
  const auto k = defaults.canonical(kind);
  return k == kinds::SOURCE || k == kinds::BOOK;
}

std::optional<WorkFacts> EntityResolver::work(std::string_view canonical_name) const {
  return m_works.find(canonical_name);
}

std::optional<Kind> EntityResolver::kind(std::string_view canonical_name) const {
  const StoredKind* k = stored_kind(canonical_name);
  if (!k || k->kind.empty()) return std::nullopt;
  return Kind(k->kind);
}

std::string EntityResolver::evidence_detail(std::string_view canonical_name) const {
  const StoredKind* k = stored_kind(canonical_name);
  return k ? std::string(k->detail) : std::string();
}

KindEvidence EntityResolver::evidence(std::string_view canonical_name) const {
  const StoredKind* k = stored_kind(canonical_name);
  return k ? k->evidence : KindEvidence::None;
}

}  // namespace sagasu
