#include "sagasu/entity_resolver.h"

#include <fmt/format.h>

#include <algorithm>

#include "sagasu/unicode.h"

namespace sagasu {

std::string_view to_string(KindEvidence e) {
  switch (e) {
    case KindEvidence::Override: return "override file";
    case KindEvidence::OwnPage: return "own page";
    case KindEvidence::ListLabel: return "list label";
    case KindEvidence::PageStructure: return "page structure";
    case KindEvidence::Heuristic: return "heuristic";
    case KindEvidence::None: return "none";
  }
  return "none";
}

std::string fold_name(std::string_view name) {
  const std::string folded = unicode::nfkc_casefold(name);
  std::string out;
  bool space = false;
  for (char c : folded) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '_') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::optional<NoteKind> kind_of_label(std::string_view label) {
  static const std::map<std::string, NoteKind> labels = [] {
    std::map<std::string, NoteKind> m;
    for (const char* l : {"関連研究者", "研究者", "著者", "共著者", "人物", "関連人物", "メンバー", "責任著者",
                          "主著者", "people", "person", "persons", "researchers", "authors"})
      m[fold_name(l)] = NoteKind::Person;
    for (const char* l : {"親組織", "協力機関", "所属", "所属機関", "組織", "関連組織", "機関", "子組織", "関連機関",
                          "共同研究機関", "organizations", "organization", "affiliation", "affiliations"})
      m[fold_name(l)] = NoteKind::Organization;
    for (const char* l : {"関連プロダクト", "プロダクト", "関連システム", "システム", "ツール", "関連ツール",
                          "products", "systems", "tools"})
      m[fold_name(l)] = NoteKind::Product;
    return m;
  }();
  auto it = labels.find(fold_name(label));
  if (it == labels.end()) return std::nullopt;
  return it->second;
}

void EntityResolver::add_note(const Note& note) {
  const std::string key = fold_name(note.title);
  m_by_key[key] = note.title;
  if (auto k = note.declared_kind()) m_declared[note.title] = *k;
  m_pending.push_back(&note);
  auto saw = [&](const std::string& name) {
    if (!name.empty() && name.front() != '@') m_first_spelling.emplace(fold_name(name), name);
  };
  for (const auto& l : note.links) saw(l.target);
  for (const auto& r : note.relations)
    for (const auto& i : r.items) saw(i.name);
  for (const auto& a : note.authors) saw(a);
  for (const auto& a : note.authors) m_label_mentions.emplace_back(a, NoteKind::Person);
  // Concept pages have the headings 定義 / 未解決の問い / 未編纂の観察.
  // In a flattened note the heading runs on into its paragraph: compare the first word.
  for (const auto& h : note.headings) {
    const std::string first = h.substr(0, h.find(' '));
    if (first == "定義" || first == "未解決の問い" || first == "未編纂の観察")
      m_structure[note.title] = NoteKind::Concept;
  }
  for (const auto& rel : note.relations) {
    if (fold_name(rel.label) == fold_name("親組織")) m_structure[note.title] = NoteKind::Organization;
    if (auto k = kind_of_label(rel.label))
      for (const auto& item : rel.items) m_label_mentions.emplace_back(item.name, *k);
  }
}

void EntityResolver::add_override(std::string_view name, NoteKind kind) { m_overrides[std::string(name)] = kind; }

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
    auto kind = parse_kind(line.substr(tab + 1));
    if (!kind) {
      problems.push_back(fmt::format("line {}: unknown kind '{}'", line_no, line.substr(tab + 1)));
      continue;
    }
    add_override(line.substr(0, tab), *kind);
  }
  return problems;
}

std::string EntityResolver::canonical(std::string_view name) const {
  const std::string key = fold_name(name);
  auto it = m_by_key.find(key);
  if (it != m_by_key.end()) return it->second;
  // No page: case and width variants of one name are one value, spelled as first seen.
  auto seen = m_first_spelling.find(key);
  if (seen != m_first_spelling.end()) return seen->second;
  return std::string(name);
}

std::optional<NoteKind> EntityResolver::heuristic(std::string_view name) const {
  const std::string folded = fold_name(name);
  for (const char* word : {"university", "大学", "研究所", "institute", "laboratory", "laboratories", "labs",
                           "inc.", "inc", "corp", "corporation", "株式会社", "研究センター", "college",
                           "academy", "学院", "ltd", "llc", "gmbh", "foundation", "機構", "大學"}) {
    const std::string w = fold_name(word);
    if (unicode::all_of(w, unicode::is_latin_alpha) || w.back() == '.') {
      // Latin keywords must be whole words.
      for (std::size_t p = folded.find(w); p != std::string::npos; p = folded.find(w, p + 1)) {
        const bool left = p == 0 || folded[p - 1] == ' ' || folded[p - 1] == ',';
        const std::size_t e = p + w.size();
        const bool right = e == folded.size() || folded[e] == ' ' || folded[e] == ',' || folded[e] == '.';
        if (left && right) return NoteKind::Organization;
      }
    } else if (folded.find(w) != std::string::npos) {
      return NoteKind::Organization;
    }
  }
  return std::nullopt;
}

void EntityResolver::finish() {
  // Aliases need every title known first: a title always beats an alias.
  for (const Note* note : m_pending)
    for (const auto& alias : note->aliases) {
      const std::string key = fold_name(alias);
      auto it = m_by_key.find(key);
      if (it == m_by_key.end()) {
        m_by_key[key] = note->title;
      } else if (it->second != note->title && fold_name(it->second) != key) {
        m_ambiguous[key].insert(it->second);
        m_ambiguous[key].insert(note->title);
      }
    }
  std::map<std::string, std::map<NoteKind, int>> votes;
  for (const auto& [name, kind] : m_label_mentions) ++votes[canonical(name)][kind];

  auto set = [&](const std::string& name, NoteKind k, KindEvidence e) {
    Info& info = m_info[name];
    if (info.evidence == KindEvidence::None || static_cast<int>(e) < static_cast<int>(info.evidence)) {
      info.kind = k;
      info.evidence = e;
    }
  };
  for (const auto& [name, kind] : m_overrides) set(canonical(name), kind, KindEvidence::Override);
  for (const auto& [title, kind] : m_declared) set(title, kind, KindEvidence::OwnPage);
  for (const auto& [name, counts] : votes) {
    const auto best = std::max_element(counts.begin(), counts.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    set(name, best->first, KindEvidence::ListLabel);
  }
  for (const auto& [title, kind] : m_structure) set(title, kind, KindEvidence::PageStructure);
  auto try_heuristic = [&](const std::string& name) {
    if (auto k = heuristic(name)) set(name, *k, KindEvidence::Heuristic);
  };
  for (const auto& [key, title] : m_by_key) try_heuristic(title);
  for (const Note* note : m_pending) {
    for (const auto& link : note->links) try_heuristic(canonical(link.target));
    for (const auto& rel : note->relations)
      for (const auto& item : rel.items) try_heuristic(canonical(item.name));
  }
  m_pending.clear();
  m_finished = true;
}

std::optional<NoteKind> EntityResolver::kind(std::string_view canonical_name) const {
  auto it = m_info.find(std::string(canonical_name));
  if (it == m_info.end()) return std::nullopt;
  return it->second.kind;
}

KindEvidence EntityResolver::evidence(std::string_view canonical_name) const {
  auto it = m_info.find(std::string(canonical_name));
  return it == m_info.end() ? KindEvidence::None : it->second.evidence;
}

}  // namespace sagasu
