#include "sagasu/kinds.h"

#include <fmt/format.h>

#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

KindVocabulary KindVocabulary::defaults() {
  KindVocabulary v;
  for (std::string_view k : {kinds::SOURCE, kinds::BOOK, kinds::PERSON, kinds::ORGANIZATION, kinds::PRODUCT,
                             kinds::CONCEPT, kinds::OTHER})
    v.add_kind(k);
  // The words vaults use for them: plural tags, Zotero item types, entity types.
  const std::pair<std::string_view, std::vector<std::string_view>> synonyms[] = {
      {kinds::SOURCE,
       {"paper", "papers", "article", "articles", "talk", "preprint", "journalArticle", "conferencePaper",
        "inproceedings", "publication", "translation", "translated"}},
      {kinds::BOOK, {"books", "monograph"}},
      {kinds::PERSON, {"people", "persons", "researcher", "researchers", "author"}},
      {kinds::ORGANIZATION,
       {"organisation", "organizations", "org", "group", "company", "lab", "laboratory", "university",
        "institution", "institute", "publisher"}},
      {kinds::PRODUCT,
       {"products", "repository", "software", "system", "tool", "tools", "dataset", "model", "library",
        "framework", "app", "service"}},
      {kinds::CONCEPT, {"concepts", "notion"}},
      {kinds::OTHER, {"place", "thesis", "survey", "question"}},
  };
  for (const auto& [kind, words] : synonyms)
    for (std::string_view w : words) v.add_synonym(w, kind);
  return v;
}

void KindVocabulary::add_kind(std::string_view kind) {
  const std::string key = unicode::fold_name(kind);
  if (key.empty()) return;
  m_synonyms.erase(key);
  m_kinds.emplace(key, std::string(kind));
}

void KindVocabulary::add_synonym(std::string_view word, std::string_view kind) {
  const std::string key = unicode::fold_name(word), kind_key = unicode::fold_name(kind);
  if (key.empty() || kind_key.empty()) return;
  if (!m_kinds.count(kind_key)) add_kind(kind);
  if (key == kind_key) return;
  m_kinds.erase(key);  // a word is a kind or a synonym, not both
  m_synonyms[key] = m_kinds.at(kind_key);
}

std::optional<Kind> KindVocabulary::canonical(std::string_view word) const {
  const std::string key = unicode::fold_name(word);
  if (auto k = m_kinds.find(key); k != m_kinds.end()) return k->second;
  if (auto s = m_synonyms.find(key); s != m_synonyms.end()) return s->second;
  return std::nullopt;
}

bool KindVocabulary::is_kind(std::string_view word) const {
  return m_kinds.count(unicode::fold_name(word)) > 0;
}

std::string KindVocabulary::encode() const {
  std::map<Kind, std::vector<std::string>> by_kind;
  for (const auto& [key, kind] : m_kinds) by_kind[kind];
  for (const auto& [word, kind] : m_synonyms) by_kind[kind].push_back(word);
  std::string out;
  for (const auto& [kind, words] : by_kind) out += fmt::format("{}\t{}\n", kind, fmt::join(words, ","));
  return out;
}

std::optional<KindVocabulary> KindVocabulary::decode(std::string_view text) {
  KindVocabulary v;
  for (const auto& line : strings::split(text, '\n')) {
    if (line.empty()) continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) return std::nullopt;
    const std::string kind = line.substr(0, tab);
    v.add_kind(kind);
    for (const auto& word : strings::split(line.substr(tab + 1), ','))
      if (!word.empty()) v.add_synonym(word, kind);
  }
  return v;
}

}  // namespace sagasu
