#include "kind_evidence.h"

#include <algorithm>
#include <cctype>

#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

using strings::ends_with;
using strings::starts_with;
using strings::trim;

namespace {

struct ClassWord {
  std::string_view word;
  std::string_view kind;
};

// The nouns a defining sentence ends with (「…の企業。」), longest first where one ends another (法人, 人).
constexpr ClassWord JAPANESE_CLASSES[] = {
    {"研究組織", kinds::ORGANIZATION},
    {"出版社", kinds::ORGANIZATION},
    {"研究所", kinds::ORGANIZATION},
    {"研究室", kinds::ORGANIZATION},
    {"企業", kinds::ORGANIZATION},
    {"会社", kinds::ORGANIZATION},
    {"大学", kinds::ORGANIZATION},
    {"ラボ", kinds::ORGANIZATION},
    {"団体", kinds::ORGANIZATION},
    {"組織", kinds::ORGANIZATION},
    {"機関", kinds::ORGANIZATION},
    {"財団", kinds::ORGANIZATION},
    {"学会", kinds::ORGANIZATION},
    {"法人", kinds::ORGANIZATION},
    {"メーカー", kinds::ORGANIZATION},
    {"研究者", kinds::PERSON},
    {"准教授", kinds::PERSON},
    {"教授", kinds::PERSON},
    {"開発者", kinds::PERSON},
    {"作曲家", kinds::PERSON},
    {"音楽家", kinds::PERSON},
    {"作家", kinds::PERSON},
    {"作者", kinds::PERSON},
    {"エンジニア", kinds::PERSON},
    {"アーティスト", kinds::PERSON},
    {"人物", kinds::PERSON},
    {"人", kinds::PERSON},
    {"フレームワーク", kinds::PRODUCT},
    {"ライブラリ", kinds::PRODUCT},
    {"ツール", kinds::PRODUCT},
    {"ソフトウェア", kinds::PRODUCT},
    {"ソフト", kinds::PRODUCT},
    {"アプリケーション", kinds::PRODUCT},
    {"アプリ", kinds::PRODUCT},
    {"ミドルウェア", kinds::PRODUCT},
    {"サービス", kinds::PRODUCT},
    {"システム", kinds::PRODUCT},
    {"処理系", kinds::PRODUCT},
    {"言語", kinds::PRODUCT},
    {"環境", kinds::PRODUCT},
    {"エディタ", kinds::PRODUCT},
    {"プラグイン", kinds::PRODUCT},
    {"データセット", kinds::PRODUCT},
    {"SNS", kinds::PRODUCT},
    {"bot", kinds::PRODUCT},
    {"概念", kinds::CONCEPT},
    {"考え方", kinds::CONCEPT},
    {"手法", kinds::CONCEPT},
    {"技法", kinds::CONCEPT},
    {"理論", kinds::CONCEPT},
    {"用語", kinds::CONCEPT},
    {"現象", kinds::CONCEPT},
    {"方式", kinds::CONCEPT},
    {"論文", kinds::SOURCE},
    {"記事", kinds::SOURCE},
    {"連載シリーズ", kinds::SOURCE},
    {"連載", kinds::SOURCE},
    {"講演", kinds::SOURCE},
    {"著書", kinds::BOOK},
    {"書籍", kinds::BOOK},
    {"本", kinds::BOOK},
};

// The nouns after "X is a …" in an English definition.
constexpr ClassWord ENGLISH_CLASSES[] = {
    {"company", kinds::ORGANIZATION},
    {"corporation", kinds::ORGANIZATION},
    {"university", kinds::ORGANIZATION},
    {"institute", kinds::ORGANIZATION},
    {"laboratory", kinds::ORGANIZATION},
    {"lab", kinds::ORGANIZATION},
    {"organization", kinds::ORGANIZATION},
    {"publisher", kinds::ORGANIZATION},
    {"foundation", kinds::ORGANIZATION},
    {"researcher", kinds::PERSON},
    {"professor", kinds::PERSON},
    {"scientist", kinds::PERSON},
    {"artist", kinds::PERSON},
    {"engineer", kinds::PERSON},
    {"developer", kinds::PERSON},
    {"writer", kinds::PERSON},
    {"framework", kinds::PRODUCT},
    {"library", kinds::PRODUCT},
    {"tool", kinds::PRODUCT},
    {"toolkit", kinds::PRODUCT},
    {"software", kinds::PRODUCT},
    {"application", kinds::PRODUCT},
    {"app", kinds::PRODUCT},
    {"service", kinds::PRODUCT},
    {"system", kinds::PRODUCT},
    {"language", kinds::PRODUCT},
    {"dataset", kinds::PRODUCT},
    {"database", kinds::PRODUCT},
    {"concept", kinds::CONCEPT},
    {"technique", kinds::CONCEPT},
    {"method", kinds::CONCEPT},
    {"theory", kinds::CONCEPT},
    {"paper", kinds::SOURCE},
    {"article", kinds::SOURCE},
    {"book", kinds::BOOK},
};

// The note's first line of prose: not its tag line, a bare link or a table row.
std::string first_prose_line(const Note& note) {
  for (const auto& line : strings::split(note.text, '\n')) {
    const std::string_view l = trim(line);
    if (l.empty() || l.front() == '|' || starts_with(l, "http://") || starts_with(l, "https://")) continue;
    const auto words = strings::split_nonempty(l, ' ');
    if (std::all_of(words.begin(), words.end(), [&](const std::string& w) {
          return std::find(note.own_tags.begin(), note.own_tags.end(), w) != note.own_tags.end();
        }))
      continue;
    return std::string(l);
  }
  return {};
}

// "…の企業です。" → "…の企業", "…技法の一種" → "…技法"; a closing "(github.com/…)" goes too.
std::string_view sentence_end(std::string_view s) {
  for (bool again = true; again;) {
    again = false;
    s = trim(s, " \t。.、");
    // 「…の技法の一種」 is a 技法.
    for (std::string_view tail : {"です", "である", "だ", "の一種", "の一つ", "のひとつ"})
      if (ends_with(s, tail)) {
        s.remove_suffix(tail.size());
        again = true;
      }
    for (auto [open, close] : {std::pair<std::string_view, std::string_view>{"(", ")"}, {"（", "）"}})
      if (ends_with(s, close) && s.rfind(open) != std::string_view::npos) {
        s = s.substr(0, s.rfind(open));
        again = true;
      }
  }
  return s;
}

std::optional<std::pair<Kind, std::string>> japanese_class(std::string_view sentence) {
  std::vector<std::string_view> ends{sentence_end(sentence)};
  // 「米国の半導体企業で、データセンター向け…」: the clause before で、 defines.
  for (std::string_view sep : {"であり、", "であり", "で、"})
    if (const auto at = sentence.find(sep); at != std::string_view::npos)
      ends.push_back(sentence_end(sentence.substr(0, at)));
  for (std::string_view end : ends)
    for (const ClassWord& c : JAPANESE_CLASSES)
      if (ends_with(end, c.word)) return std::make_pair(Kind(c.kind), std::string(c.word));
  return std::nullopt;
}

std::optional<std::pair<Kind, std::string>> english_class(std::string_view sentence) {
  for (std::string_view is : {" is a ", " is an ", " is the ", " was a ", " was an "}) {
    const auto at = sentence.find(is);
    if (at == std::string_view::npos) continue;
    const auto words = strings::split_nonempty(sentence.substr(at + is.size()), ' ');
    for (std::size_t i = 0; i < words.size() && i < 5; ++i) {
      const std::string w = unicode::fold_name(trim(words[i], ",.;:()"));
      for (const ClassWord& c : ENGLISH_CLASSES)
        if (w == c.word) return std::make_pair(Kind(c.kind), std::string(c.word));
    }
  }
  return std::nullopt;
}

// Words after a link that say it names a person (a role, an honorific, an act
// of a person) or an organization.
constexpr ClassWord AFTER_LINK[] = {
    {"（監訳）", kinds::PERSON},
    {"(監訳)", kinds::PERSON},
    {"（著）", kinds::PERSON},
    {"(著)", kinds::PERSON},
    {"（訳）", kinds::PERSON},
    {"(訳)", kinds::PERSON},
    {"（編）", kinds::PERSON},
    {"(編)", kinds::PERSON},
    {"監訳", kinds::PERSON},
    {"編著", kinds::PERSON},
    {"著", kinds::PERSON},
    {"訳", kinds::PERSON},
    {"さん", kinds::PERSON},
    {"氏", kinds::PERSON},
    {"先生", kinds::PERSON},
    {"教授", kinds::PERSON},
    {"と交流", kinds::PERSON},
    {"の授業", kinds::PERSON},
    {"が公開", kinds::PERSON},
    {"の提唱", kinds::PERSON},
    {"による", kinds::PERSON},
    {"が開発", kinds::PERSON},
    {"が作った", kinds::PERSON},
    {"が提唱", kinds::PERSON},
    {"が提起", kinds::PERSON},
    {"が設計", kinds::PERSON},
    {"らが", kinds::PERSON},
    {"所属", kinds::ORGANIZATION},
    {"との共同研究", kinds::ORGANIZATION},
    {"と共同研究", kinds::ORGANIZATION},
    {"社の", kinds::ORGANIZATION},
    {"社が", kinds::ORGANIZATION},
};
constexpr ClassWord BEFORE_LINK[] = {
    {"研究者", kinds::PERSON},
    {"教授", kinds::PERSON},
    {"author:", kinds::PERSON},
    {"著者:", kinds::PERSON},
    {"一般社団法人", kinds::ORGANIZATION},
    {"一般財団法人", kinds::ORGANIZATION},
    {"公益財団法人", kinds::ORGANIZATION},
    {"株式会社", kinds::ORGANIZATION},
};

// What the words right around one link say.
std::optional<KindHint> hint_at(const std::string& text, const Link& link, const std::string& name) {
  const std::string_view after = trim(std::string_view(text).substr(link.text_end, 40));
  const std::string_view before = trim(std::string_view(text).substr(0, link.text_begin));
  // A legal form before a name is surer than a role after it: 「一般社団法人 [[公共とデザイン]] 著」.
  for (const ClassWord& c : BEFORE_LINK)
    if (ends_with(before, c.word)) return KindHint{name, Kind(c.kind), std::string(c.word)};
  for (const ClassWord& c : AFTER_LINK)
    if (starts_with(after, c.word)) return KindHint{name, Kind(c.kind), std::string(c.word)};
  // An affiliation in brackets after a name: 「[[B. Norris]]（オレゴン州立大学）」.
  for (std::string_view open : {"（", "("})
    if (starts_with(after, open)) {
      const std::string_view inside = after.substr(0, after.find(open == "（" ? "）" : ")"));
      for (std::string_view org : {"大学", "University", "研究所", "Institute"})
        if (inside.find(org) != std::string_view::npos)
          return KindHint{name, Kind(kinds::PERSON), "(" + std::string(org) + ")"};
    }
  return std::nullopt;
}

// Is the text between two links only what separates the items of one list?
bool list_separator(std::string_view between) {
  static constexpr std::string_view SEPARATORS[] = {
      "（監訳）", "(監訳)", "（著）", "(著)", "（訳）", "(訳)", "（編）", "(編)", "、", "・", "／", "，", "×",
      "及び",     " and ",  "&",      "/",    ",",      "や",   "と",     "訳",   "著", " ",  "\n", "\t"};
  while (!between.empty()) {
    bool cut = false;
    for (std::string_view s : SEPARATORS)
      if (starts_with(between, s)) {
        between.remove_prefix(s.size());
        cut = true;
        break;
      }
    if (!cut) return false;
  }
  return true;
}

}  // namespace

std::optional<std::pair<Kind, std::string>> defining_sentence(const Note& note) {
  const std::string line = first_prose_line(note);
  if (line.empty()) return std::nullopt;
  std::string_view sentence = line;
  if (const auto maru = sentence.find("。"); maru != std::string_view::npos)
    sentence = sentence.substr(0, maru);
  else if (const auto stop = sentence.find(". "); stop != std::string_view::npos)
    sentence = sentence.substr(0, stop + 1);
  if (auto k = japanese_class(sentence)) return k;
  return english_class(sentence);
}

LinkContexts link_contexts(const Note& note) {
  LinkContexts out;
  std::vector<std::string> list;
  const Link* previous = nullptr;
  for (const Link& link : note.links) {
    if (link.embed || link.target.empty() || link.target.front() == '@' || link.text_end <= link.text_begin ||
        link.text_end > note.text.size())
      continue;
    if (auto h = hint_at(note.text, link, link.target)) out.hints.push_back(std::move(*h));
    const bool joined = previous && previous->text_end <= link.text_begin &&
                        list_separator(std::string_view(note.text).substr(
                            previous->text_end, link.text_begin - previous->text_end));
    if (!joined) {
      if (list.size() > 1) out.lists.push_back(std::move(list));
      list.clear();
    }
    list.push_back(link.target);
    previous = &link;
  }
  if (list.size() > 1) out.lists.push_back(std::move(list));
  return out;
}

}  // namespace sagasu
