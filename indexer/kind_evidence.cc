#include "kind_evidence.h"

#include <algorithm>

#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

using strings::ends_with;
using strings::starts_with;
using strings::trim;

namespace {

// Words that say a kind, the kinds in the order they are tried, each kind's
// words in order.
struct ClassWords {
  std::string_view kind;
  std::vector<std::string_view> words;
};

// The first of a table's words that match, and its kind.
template <class Match>
std::optional<std::pair<Kind, std::string>> first_class(const std::vector<ClassWords>& table, Match match) {
  for (const ClassWords& c : table)
    for (std::string_view w : c.words)
      if (match(w)) return std::make_pair(Kind(c.kind), std::string(w));
  return std::nullopt;
}

// The nouns a defining sentence ends with (「…の企業。」), longest first where one ends another (法人, 人).
const std::vector<ClassWords> JAPANESE_CLASSES = {
    {kinds::ORGANIZATION,
     {"研究組織", "出版社", "研究所", "研究室", "企業", "会社", "大学", "ラボ", "団体", "組織", "機関",
      "財団", "学会", "法人", "メーカー"}},
    {kinds::PERSON,
     {"研究者", "准教授", "教授", "開発者", "作曲家", "音楽家", "作家", "作者", "エンジニア", "アーティスト",
      "人物", "人"}},
    {kinds::PRODUCT,
     {"フレームワーク", "ライブラリ", "ツール", "ソフトウェア", "ソフト", "アプリケーション", "アプリ",
      "ミドルウェア", "サービス", "システム", "処理系", "言語", "環境", "エディタ", "プラグイン",
      "データセット", "SNS", "bot"}},
    {kinds::CONCEPT, {"概念", "考え方", "手法", "技法", "理論", "用語", "現象", "方式"}},
    {kinds::SOURCE, {"論文", "記事", "連載シリーズ", "連載", "講演"}},
    {kinds::BOOK, {"著書", "書籍", "本"}},
};

// The nouns after "X is a …" in an English definition.
const std::vector<ClassWords> ENGLISH_CLASSES = {
    {kinds::ORGANIZATION,
     {"company", "corporation", "university", "institute", "laboratory", "lab", "organization", "publisher",
      "foundation"}},
    {kinds::PERSON, {"researcher", "professor", "scientist", "artist", "engineer", "developer", "writer"}},
    {kinds::PRODUCT,
     {"framework", "library", "tool", "toolkit", "software", "application", "app", "service", "system",
      "language", "dataset", "database"}},
    {kinds::CONCEPT, {"concept", "technique", "method", "theory"}},
    {kinds::SOURCE, {"paper", "article"}},
    {kinds::BOOK, {"book"}},
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
    if (auto k = first_class(JAPANESE_CLASSES, [&](std::string_view w) { return ends_with(end, w); }))
      return k;
  return std::nullopt;
}

std::optional<std::pair<Kind, std::string>> english_class(std::string_view sentence) {
  for (std::string_view is : {" is a ", " is an ", " is the ", " was a ", " was an "}) {
    const auto at = sentence.find(is);
    if (at == std::string_view::npos) continue;
    const auto words = strings::split_nonempty(sentence.substr(at + is.size()), ' ');
    for (std::size_t i = 0; i < words.size() && i < 5; ++i) {
      const std::string word = unicode::fold_name(trim(words[i], ",.;:()"));
      if (auto k = first_class(ENGLISH_CLASSES, [&](std::string_view w) { return word == w; })) return k;
    }
  }
  return std::nullopt;
}

// Words after a link that say it names a person (a role, an honorific, an act
// of a person) or an organization.
const std::vector<ClassWords> AFTER_LINK = {
    {kinds::PERSON,
     {"（監訳）", "(監訳)", "（著）", "(著)",   "（訳）",   "(訳)",   "（編）", "(編)",   "監訳",
      "編著",     "著",     "訳",     "さん",   "氏",       "先生",   "教授",   "と交流", "の授業",
      "が公開",   "の提唱", "による", "が開発", "が作った", "が提唱", "が提起", "が設計", "らが"}},
    {kinds::ORGANIZATION, {"所属", "との共同研究", "と共同研究", "社の", "社が"}},
};
const std::vector<ClassWords> BEFORE_LINK = {
    {kinds::PERSON, {"研究者", "教授", "author:", "著者:"}},
    {kinds::ORGANIZATION, {"一般社団法人", "一般財団法人", "公益財団法人", "株式会社"}},
};

// What the words right around one link say.
std::optional<KindHint> hint_at(const std::string& text, const Link& link, const std::string& name) {
  const std::string_view after = trim(std::string_view(text).substr(link.text_end, 40));
  const std::string_view before = trim(std::string_view(text).substr(0, link.text_begin));
  // A legal form before a name is surer than a role after it: 「一般社団法人 [[公共とデザイン]] 著」.
  auto k = first_class(BEFORE_LINK, [&](std::string_view w) { return ends_with(before, w); });
  if (!k) k = first_class(AFTER_LINK, [&](std::string_view w) { return starts_with(after, w); });
  if (k) return KindHint{name, std::move(k->first), std::move(k->second)};
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
