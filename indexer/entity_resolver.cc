#include "entity_resolver.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "entity_rows.h"
#include "glossary.h"
#include "kind_evidence.h"
#include "sagasu/stored_note.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

using unicode::fold_name;

namespace {

// A Japanese name, not a sentence or a chapter's title: 情報・システム研究機構
// is one, 第3章 タンパク質輸送の機構 and 膜輸送の分子機構 are not (a particle,
// sentence punctuation or a chapter's number says so).
bool reads_as_name(std::string_view folded) {
  for (const char* mark : {"。", "、", "「", "」", "?", "!"})
    if (folded.find(mark) != std::string_view::npos) return false;
  // A particle between two words of kanji or katakana (輸送の機構), not inside
  // a word of kana (ものつくり大学, はこだて未来大学).
  char32_t before = 0;
  for (std::size_t i = 0; i < folded.size();) {
    const char32_t c = unicode::next_code_point(folded, i);
    if ((c == U'の' || c == U'を' || c == U'は' || c == U'が') && before && !unicode::is_hiragana(before) &&
        i < folded.size()) {
      std::size_t j = i;
      if (!unicode::is_hiragana(unicode::next_code_point(folded, j))) return false;
    }
    before = c;
  }
  if (strings::starts_with(folded, "第") && folded.find("章") != std::string_view::npos) return false;
  return unicode::length(folded) <= 30;
}

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

// A work's venues and years, as the pages linking to it take them (its opening lines' year when it has no
// other).
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

// One list's names (decide_from_lists): when those of known kind are all
// people (or all organizations), the others get that kind, with the first of
// known kind as the detail. member(i) is the i-th name's canonical name,
// kind_of(name) its kind so far (a pointer or optional, empty if none),
// set(name, kind, first) gives it one.
template <class Member, class KindOf, class Set>
void list_mates(std::size_t size, Member member, KindOf kind_of, Set set) {
  const Kind* seen = nullptr;  // the kind of the first of known kind
  std::size_t first = 0;
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < size; ++i) {
    const auto k = kind_of(member(i));
    if (!k) {
      open.push_back(i);
    } else if (!seen) {
      seen = &*k, first = i;
    } else if (*k != *seen) {
      return;  // names of two kinds
    }
  }
  if (!seen || open.empty() || (*seen != kinds::PERSON && *seen != kinds::ORGANIZATION)) return;
  const Kind k = *seen;
  for (const std::size_t i : open) set(member(i), k, member(first));
}

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

std::string_view to_string(KindEvidence e) {
  static constexpr std::string_view NAMES[] = {"override file",
                                               "own page",
                                               "own authors and venue or year",
                                               "list label",
                                               "page structure",
                                               "first sentence",
                                               "words around links",
                                               "heuristic",
                                               "listed with",
                                               "page, no kind stated",
                                               "none"};
  static_assert(std::size(NAMES) == static_cast<std::size_t>(KindEvidence::None) + 1);
  const auto i = static_cast<std::size_t>(e);
  return i < std::size(NAMES) ? NAMES[i] : "none";  // (load() reads any number)
}

std::optional<Kind> kind_of_label(std::string_view label) {
  static const std::map<std::string, Kind> labels = [] {
    std::map<std::string, Kind> m;
    for (const char* l : {"関連研究者", "研究者", "著者", "共著者", "人物", "関連人物", "メンバー",
                          "責任著者", "主著者", "people", "person", "persons", "researchers", "authors"})
      m[fold_name(l)] = kinds::PERSON;
    for (const char* l :
         {"親組織", "協力機関", "所属", "所属機関", "組織", "関連組織", "機関", "子組織", "関連機関",
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
  for (const auto& p : meta.persons)
    if (p.person_shaped) d.labelled.emplace_back(p.value, kinds::PERSON);
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
    } else if (folded.find(w) != std::string::npos && reads_as_name(folded)) {
      return org(k.word);
    }
  }
  return std::nullopt;
}

std::string WorkTable::encode(const WorkFacts& facts) {
  std::string out;
  for (const auto* list : {&facts.venues, &facts.years}) {
    put_field(out, std::to_string(list->size()));
    for (const auto& v : *list) put_field(out, v);
  }
  return out;
}

bool WorkTable::read(std::string_view& in, std::size_t count) {
  std::vector<std::pair<std::string_view, std::string_view>> works;
  works.reserve(std::min(count, in.size()));
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view title;
    if (!get_field(in, title) || (!works.empty() && !(works.back().first < title))) return false;
    const std::string_view facts = in;
    if (!get_list(in, nullptr) || !get_list(in, nullptr)) return false;
    works.emplace_back(title, facts.substr(0, facts.size() - in.size()));
  }
  m_works = std::move(works);
  return true;
}

std::optional<WorkFacts> WorkTable::find(std::string_view title) const {
  const auto it = std::lower_bound(m_works.begin(), m_works.end(), title,
                                   [](const auto& w, std::string_view t) { return w.first < t; });
  if (it == m_works.end() || it->first != title) return std::nullopt;
  std::string_view facts = it->second;
  WorkFacts w;
  get_list(facts, &w.venues);
  get_list(facts, &w.years);
  return w;
}

void EntityResolver::add_name(std::string_view name, std::string_view kind,
                              const std::vector<std::string>& others) {
  add_override(name, kind);
  for (const auto& o : others) m_name_lists[fold_name(o)] = std::string(name);
}

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

EntityRows& EntityResolver::rows_to_add() {
  if (!m_rows) m_rows = std::make_shared<EntityRows>();
  return *m_rows;
}

void EntityResolver::add(const NoteDigest& digest) {
  rows_to_add().begin();
  digest.tell(*m_rows);
}

void EntityResolver::add(NoteDigest&& digest) {
  add(m_owned.emplace_back(std::move(digest)));
}

void EntityResolver::add_encoded(std::string_view digest) {
  rows_to_add().begin();
  if (!NoteDigest::read(digest, *m_rows)) m_rows->undo();
}

bool EntityResolver::read_rows(std::shared_ptr<const std::string_view> bytes) {
  auto rows = std::make_shared<EntityRows>();
  if (m_rows || !bytes || !rows->read(std::move(bytes))) return false;
  m_rows = std::move(rows);
  return true;
}

std::size_t EntityResolver::stored_notes() const {
  return m_rows ? m_rows->stored() : 0;
}

std::string_view EntityResolver::stored_path(std::size_t i) const {
  return m_rows->stored_path(i);
}

void EntityResolver::add_stored(std::size_t i) {
  m_rows->add_stored(i);
}

void EntityResolver::rows(const std::vector<std::string_view>& paths,
                          const std::function<void(std::string_view)>& out) const {
  if (m_rows) m_rows->encode(paths, out);
}

void EntityResolver::mentions(std::size_t note, std::vector<Mention>& out) const {
  out.clear();
  const auto [from, to] = m_rows->range(note, &EntityRows::Note::names, m_rows->names);
  for (std::uint32_t n = from; n < to; ++n) {
    const EntityRows::Id name = m_rows->names[n], canonical = m_canonical[name];
    out.push_back({m_rows->text(name), m_rows->text(canonical), m_kinded[canonical]});
  }
}

void EntityResolver::release_rows() {
  m_rows.reset();
  m_owned.clear();
  m_canonical = {};
  m_kinded = {};
}

std::string EntityResolver::canonical(std::string_view name) const {
  if (const std::string_view* known = stored_canonical(name)) return std::string(*known);
  return std::string(name);
}

// The resolution of pass 1's rows (finish()), in the order of the notes: the
// vault's path order decides first spellings, which of two titles folding
// alike takes their key, which page an alias names, and list mates list by
// list. Its steps share what the ones before found.
struct EntityResolver::Pass {
  using Id = EntityRows::Id;
  static constexpr Id NONE = EntityRows::NONE;

  EntityResolver& self;
  EntityRows& r;
  std::vector<std::pair<Id, const Kind*>> overrides;  // a name of the override file, its kind
  std::vector<Id> first_spelling, page_by_key;        // by key: a name's first spelling, the page
  std::vector<Id> canonical;                          // by string: its canonical name (NONE: not a name)
  std::vector<Info> info;                             // by canonical name: its kind

  explicit Pass(EntityResolver& resolver) : self(resolver), r(resolver.rows_to_add()) {
    // (Every string of the override file in the table too: they outlive finish().)
    for (const auto& [name, kind] : self.m_overrides) overrides.emplace_back(r.id(name), &kind);
  }
  std::string_view text(Id i) const { return r.text(i); }
  void grow(std::vector<Id>& by_key) const {
    if (by_key.size() < r.keys()) by_key.resize(r.keys(), NONE);
  }
  // Takes this kind when its evidence is better than what there is (the first of equals stays).
  void set_kind(Id name, const Kind& k, KindEvidence e, std::string detail = {}) {
    Info& at = info[name];
    if (at.evidence == KindEvidence::None || static_cast<int>(e) < static_cast<int>(at.evidence))
      at = {k, e, std::move(detail)};
  }

  // The vault's own words for what its pages are: a declared kind nothing maps is a kind.
  void vocabulary() {
    for (const auto& [word, declared] : r.kind_words)
      if (declared && !self.m_vocabulary.canonical(text(word))) self.m_vocabulary.add_kind(text(word));
  }

  // A name no page has is spelled as the vault first spells it; every page
  // is named by its title (the last of titles folding alike), then by its
  // aliases (the first page claiming one) and the config's other spellings.
  void index_names() {
    for (const Id n : r.names) {
      const Id k = r.key(n);
      grow(first_spelling);
      if (first_spelling[k] == NONE) first_spelling[k] = n;
    }
    for (const auto& n : r.notes) {
      const Id k = r.key(n.title);
      grow(page_by_key);
      page_by_key[k] = n.title;
    }
    for (std::size_t i = 0; i < r.notes.size(); ++i) {
      const auto [from, to] = r.range(i, &EntityRows::Note::aliases, r.aliases);
      const Id title = r.notes[i].title;
      for (std::uint32_t a = from; a < to; ++a) {
        const Id k = r.key(r.aliases[a]);
        grow(page_by_key);
        if (page_by_key[k] == NONE) {
          page_by_key[k] = title;
        } else if (page_by_key[k] != title && r.key(page_by_key[k]) != k) {
          auto& pages = self.m_ambiguous[std::string(r.key_text(k))];
          pages.insert(std::string(text(page_by_key[k])));
          pages.insert(std::string(text(title)));
        }
      }
    }
    for (const auto& [folded, name] : self.m_name_lists) {
      const Id k = r.key_id(folded), listed = r.key(r.id(name));
      grow(page_by_key);
      if (page_by_key[k] == NONE)
        page_by_key[k] = page_by_key[listed] != NONE ? page_by_key[listed] : r.id(name);
    }
    grow(first_spelling);
    grow(page_by_key);
  }

  // The canonical name of a spelling: the page its key (or its last path
  // part: [[folder/Page]], [[Page.md]], [[Page^block]]) names, else its first
  // spelling. (A key first met after index_names(), of a name only the
  // overrides give, names no page and has no first spelling.)
  Id resolve(Id s) {
    if (canonical[s] != NONE) return canonical[s];
    const auto at = [](const std::vector<Id>& by_key, Id k) { return k < by_key.size() ? by_key[k] : NONE; };
    const Id k = r.key(s);
    Id page = at(page_by_key, k);
    if (page == NONE) {
      const std::string last = link_page_name(text(s));
      if (!last.empty() && last.size() != text(s).size())
        if (const Id folded = r.find_key(fold_name(last)); folded != NONE) page = at(page_by_key, folded);
    }
    const Id first = at(first_spelling, k);
    return canonical[s] = page != NONE ? page : first != NONE ? first : s;
  }
  void resolve_names() {
    canonical.assign(r.strings(), NONE);
    for (const auto& n : r.notes) resolve(n.title);
    for (const Id n : r.names) resolve(n);
    for (const auto& [name, kind] : r.labels) resolve(name);
    for (const auto& h : r.hints) resolve(h[0]);
    for (const Id n : r.members) resolve(n);
    for (const auto& [name, kind] : overrides) resolve(name);
  }

  // What the user and the pages themselves say: the override file, a page's
  // first kind word the vocabulary knows (a tag saying "other" says nothing),
  // its own authors with a venue or year; then the labels of the lists naming
  // a name (the kind most give; of equals, the first in the order of kinds'
  // names); then a page's layout and defining first sentence.
  void own_words() {
    info.assign(r.strings(), Info{});
    for (const auto& [name, kind] : overrides) set_kind(canonical[name], *kind, KindEvidence::Override);
    for (std::size_t i = 0; i < r.notes.size(); ++i) {
      const auto [from, to] = r.range(i, &EntityRows::Note::kind_words, r.kind_words);
      for (std::uint32_t w = from; w < to; ++w) {
        const auto& [word, declared] = r.kind_words[w];
        const auto k = self.m_vocabulary.canonical(text(word));
        if (k && (declared || *k != kinds::OTHER)) {
          set_kind(r.notes[i].title, *k, KindEvidence::OwnPage,
                   (declared ? "" : "#") + std::string(text(word)));
          break;
        }
      }
      if (r.notes[i].bibliographic)
        set_kind(r.notes[i].title, Kind(kinds::SOURCE), KindEvidence::Bibliographic);
    }
    std::vector<std::pair<Id, Id>> votes;  // a name, the kind a label gives it
    votes.reserve(r.labels.size());
    for (const auto& [name, kind] : r.labels) votes.emplace_back(canonical[name], kind);
    std::sort(votes.begin(), votes.end());
    for (std::size_t v = 0; v < votes.size();) {
      const Id name = votes[v].first;
      Id best = NONE;
      std::size_t most = 0;
      while (v < votes.size() && votes[v].first == name) {
        const Id kind = votes[v].second;
        std::size_t n = 0;
        for (; v < votes.size() && votes[v] == std::pair(name, kind); ++v) ++n;
        if (n > most || (n == most && text(kind) < text(best))) best = kind, most = n;
      }
      set_kind(name, Kind(text(best)), KindEvidence::ListLabel);
    }
    for (const auto& n : r.notes) {
      if (n.structure) set_kind(n.title, Kind(text(n.structure)), KindEvidence::PageStructure);
      if (n.defined)
        set_kind(n.title, Kind(text(n.defined)), KindEvidence::FirstSentence,
                 std::string(text(n.defined_by)));
    }
  }

  // What others say: the words around the links to a name in every note that
  // links it; the name's own words (… University, …大学), for every page and
  // name linked; its list mates: a name without a page, of no known kind, in a
  // list whose other names are all people (or all organizations) is one too
  // (「[[羽生有希]]・[[藤間公太]]（訳）」). A page nothing tells about is "other".
  void others_words() {
    std::unordered_map<Id, std::map<Kind, std::map<std::string, int>>> seen;
    for (const auto& h : r.hints) ++seen[canonical[h[0]]][Kind(text(h[1]))][std::string(text(h[2]))];
    for (const auto& [name, by_kind] : seen)
      if (auto k = link_verdict(by_kind, [&, name = name] { return std::string(r.key_text(r.key(name))); }))
        set_kind(name, k->first, KindEvidence::LinkContext, std::move(k->second));
    std::vector<bool> tried(r.strings());
    const auto try_heuristic = [&](Id name) {
      if (tried[name]) return;
      tried[name] = true;
      if (info[name].evidence != KindEvidence::None &&
          static_cast<int>(info[name].evidence) <= static_cast<int>(KindEvidence::Heuristic))
        return;
      if (auto k = heuristic(r.key_text(r.key(name))))
        set_kind(name, k->first, KindEvidence::Heuristic, k->second);
    };
    for (std::size_t i = 0; i < r.notes.size(); ++i) {
      try_heuristic(r.notes[i].title);
      const auto [from, to] = r.range(i, &EntityRows::Note::names, r.names);
      for (std::uint32_t n = from; n < to; ++n) try_heuristic(canonical[r.names[n]]);
    }
    std::vector<bool> page(r.strings());
    for (const auto& n : r.notes) page[n.title] = true;
    const auto kind_of = [&](Id name) -> const Kind* {
      return info[name].evidence == KindEvidence::None || !info[name].kind ? nullptr : &*info[name].kind;
    };
    const auto mate = [&](Id name, const Kind& k, Id first) {
      if (!page[name]) set_kind(name, k, KindEvidence::ListMates, std::string(text(first)));
    };
    for (std::uint32_t l = 0, from = 0; l < r.list_ends.size(); from = r.list_ends[l++])
      list_mates(
          r.list_ends[l] - from, [&](std::size_t i) { return canonical[r.members[from + i]]; }, kind_of,
          mate);
    for (const auto& n : r.notes) set_kind(n.title, Kind(kinds::OTHER), KindEvidence::Page);
  }

  // A work's venues and years, for the pages linking to it (its opening
  // lines' year when it has no other; of two notes of a title, the last's).
  std::map<std::string_view, std::string> works() const {
    std::map<std::string_view, std::string> works;
    for (std::size_t i = 0; i < r.notes.size(); ++i) {
      const EntityRows::Note& n = r.notes[i];
      if (!info[n.title].kind || !is_work(*info[n.title].kind)) continue;
      WorkFacts facts;
      const auto [vf, vt] = r.range(i, &EntityRows::Note::venues, r.venues);
      for (std::uint32_t v = vf; v < vt; ++v) facts.venues.emplace_back(text(r.venues[v]));
      const auto [yf, yt] = r.range(i, &EntityRows::Note::years, r.years);
      for (std::uint32_t y = yf; y < yt; ++y) facts.years.emplace_back(text(r.years[y]));
      if (facts.years.empty() && n.text_year) facts.years.emplace_back(text(n.text_year));
      works[text(n.title)] = WorkTable::encode(facts);
    }
    return works;
  }

  // The resolution as it is stored (spellings and kinds sorted by name, the
  // works), and what the entity report asks of each name until release_rows().
  void store() {
    std::vector<Id> named;  // the strings resolved or given a kind, sorted once for both lists
    for (Id s = 0; s < r.strings(); ++s)
      if (canonical[s] != NONE || info[s].evidence != KindEvidence::None) named.push_back(s);
    std::sort(named.begin(), named.end(), [&](Id a, Id b) { return text(a) < text(b); });
    std::vector<std::pair<std::string_view, std::string_view>> spellings;
    std::vector<StoredKind> kinds;
    for (const Id s : named) {
      if (canonical[s] != NONE) spellings.emplace_back(text(s), text(canonical[s]));
      if (info[s].evidence != KindEvidence::None)
        kinds.push_back({text(s), info[s].kind ? std::string_view(*info[s].kind) : std::string_view(),
                         info[s].detail, info[s].evidence});
    }
    const auto by_title = works();
    const std::vector<std::pair<std::string_view, std::string_view>> work_entries(by_title.begin(),
                                                                                  by_title.end());
    self.load(owned(encode(spellings, kinds, work_entries)));  // (an encoding of ours always reads back)
    self.m_kinded.assign(r.strings(), false);
    for (Id s = 0; s < r.strings(); ++s) self.m_kinded[s] = info[s].kind && !info[s].kind->empty();
    self.m_canonical = std::move(canonical);
  }
};

void EntityResolver::finish() {
  Pass pass(*this);
  pass.vocabulary();
  pass.index_names();
  pass.resolve_names();
  pass.own_words();
  pass.others_words();
  pass.store();
}

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

std::string EntityResolver::serialize() const {
  return m_stored ? std::string(*m_stored) : std::string();
}

std::string EntityResolver::encode(
    const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
    const std::vector<StoredKind>& kinds,
    const std::vector<std::pair<std::string_view, std::string_view>>& works) {
  // Sized first (each field at most its bytes and a 10-byte length; a
  // number written as text at most 20 digits): a string of tens of MB grown
  // by doubling touches twice its size in fresh pages, one page fault each.
  constexpr std::size_t MAX_LENGTH_BYTES = 10, MAX_NUMBER_BYTES = 20 + MAX_LENGTH_BYTES;
  std::size_t bytes = 2 + 3 * MAX_NUMBER_BYTES;  // the version, the three counts
  for (const auto& [spelling, canonical] : spellings)
    bytes += spelling.size() + canonical.size() + 2 * MAX_LENGTH_BYTES;
  for (const StoredKind& k : kinds)
    bytes += k.name.size() + k.kind.size() + k.detail.size() + 3 * MAX_LENGTH_BYTES + MAX_NUMBER_BYTES;
  for (const auto& [name, facts] : works) bytes += name.size() + facts.size() + MAX_LENGTH_BYTES;
  std::string out;
  out.reserve(bytes);
  out += "r8";
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
  put_field(out, std::to_string(works.size()));
  for (const auto& [name, facts] : works) {
    put_field(out, name);
    out += facts;
  }
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
  if (in.substr(0, 2) != "r8") return false;
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
  if (!in.empty()) return false;
  m_stored = std::move(stored);
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
